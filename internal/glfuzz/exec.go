package glfuzz

import (
	"errors"
	"fmt"
	"path/filepath"
	"reflect"
	"regexp"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"strings"
	"sync/atomic"
	"time"

	"github.com/retrogl/retrogl/gles"
	"github.com/retrogl/retrogl/hal"
)

// Class is the kind of failure a run found.
type Class string

// The failure classes. A GL error is never a failure: it is what a
// hostile call should get.
const (
	OK Class = ""
	// ClassPanic: a panic reached the application.
	ClassPanic Class = "panic"
	// ClassSimPanic: a simulator panicked; the device turned it into a
	// fault ("internal simulator error").
	ClassSimPanic Class = "simulator-panic"
	// ClassFault: the device faulted on a stream the driver built.
	ClassFault Class = "device-fault"
	// ClassHang: one call ran past the deadline.
	ClassHang Class = "hang"
	// ClassMemory: the heap grew past the bound.
	ClassMemory Class = "memory"
	// ClassCrash: the process died (a fatal runtime error such as "out
	// of memory", which no recover catches); cmd/rglfuzz sees it from
	// outside.
	ClassCrash Class = "crash"
)

// Limits bound one run.
type Limits struct {
	// Deadline bounds each call (0: DefaultDeadline).
	Deadline time.Duration
	// Heap bounds how far the live heap may grow over what the context
	// may legitimately hold: its device memory, its host-memory budget
	// six times over (what it keeps, and a draw's transient memory of up
	// to 2 KiB for each of budget/512 vertices) and the program's own
	// arguments. 0 means DefaultHeapSlack.
	Heap uint64
}

// MaxSliceLen bounds the slices a program passes: the fuzzer's own
// arguments must not exhaust memory before a call is made.
const MaxSliceLen = 1 << 24

// DefaultDeadline is the time one call may take before it counts as a
// hang. The heaviest legal calls the generator makes (a Finish after
// thousands of screen-sized smooth points, which r300 shades on its
// per-quad path) took over 30 s on a loaded two-core machine (rglfuzz
// seed 5005808: 78 s for the whole program, no error), so 30 s reported
// slow work as a hang; a real hang still shows within two minutes.
const DefaultDeadline = 2 * time.Minute

// DefaultHeapSlack is the heap growth allowed beyond what the context
// may hold.
const DefaultHeapSlack = 256 << 20

// Result is what a run found.
type Result struct {
	Class Class
	// Sig identifies the failure for de-duplication and minimisation:
	// the panicking source line, the fault's reason with numbers
	// removed, or the entry point that hung or grew the heap.
	Sig string
	// Msg is the panic value, fault or diagnosis.
	Msg string
	// Stack is the panicking goroutine's stack (or every goroutine's, for
	// a hang or memory growth).
	Stack string
	// Call is the index of the call that failed; -1 for NewContext.
	Call int
	// Calls counts the calls made.
	Calls int
	// Abandoned is set when the program's goroutine is still running (a
	// hang or memory growth): the process should exit soon.
	Abandoned bool
}

func (r Result) String() string {
	if r.Class == OK {
		return fmt.Sprintf("ok (%d calls)", r.Calls)
	}
	return fmt.Sprintf("%s at call %d: %s: %s", r.Class, r.Call, r.Sig, r.Msg)
}

type runner struct {
	p        *Program
	cur      atomic.Int64 // index of the running call; -1 while NewContext runs
	start    atomic.Int64 // when it started (UnixNano)
	bound    atomic.Uint64
	finished atomic.Bool
}

// Run executes p with a fresh context, under lim. It returns when the
// program ends, or as soon as a call overruns the deadline or the heap
// outgrows the bound; the program's goroutine then keeps running
// (Result.Abandoned) and the caller should not start much more work in
// this process.
func Run(p *Program, lim Limits) Result {
	if lim.Deadline == 0 {
		lim.Deadline = DefaultDeadline
	}
	if lim.Heap == 0 {
		lim.Heap = DefaultHeapSlack
	}
	r := &runner{p: p}
	base := heapBytes()
	r.bound.Store(base + uint64(argBytes(p)) + 2<<30) // until the context exists
	r.cur.Store(-1)
	r.start.Store(time.Now().UnixNano())
	done := make(chan Result, 1)
	go func() { done <- r.run(base, lim.Heap) }()
	tick := time.NewTicker(5 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case res := <-done:
			return res
		case <-tick.C:
		}
		call := int(r.cur.Load())
		if d := time.Duration(time.Now().UnixNano() - r.start.Load()); d > lim.Deadline && !r.finished.Load() {
			return r.abandon(ClassHang, call, fmt.Sprintf("call ran %v (deadline %v)", d.Round(time.Millisecond), lim.Deadline))
		}
		if h := heapBytes(); h > r.bound.Load() {
			runtime.GC()
			if h = heapBytes(); h > r.bound.Load() && !r.finished.Load() {
				return r.abandon(ClassMemory, call, fmt.Sprintf("heap %d MiB, bound %d MiB", h>>20, r.bound.Load()>>20))
			}
		}
	}
}

func (r *runner) abandon(c Class, call int, msg string) Result {
	buf := make([]byte, 1<<20)
	buf = buf[:runtime.Stack(buf, true)]
	return Result{Class: c, Sig: string(c) + " in " + r.callName(call), Msg: msg, Stack: string(buf),
		Call: call, Calls: max(call, 0), Abandoned: true}
}

func (r *runner) callName(i int) string {
	if i < 0 || i >= len(r.p.Calls) {
		return "NewContext"
	}
	c := r.p.Calls[i]
	if c.Recv != "" {
		return c.Recv + "." + c.Method
	}
	return c.Method
}

// heapBytes returns the bytes of heap objects, live or not yet swept.
func heapBytes() uint64 {
	s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}

// argBytes returns the bytes the program's slice arguments take.
func argBytes(p *Program) int {
	n := 0
	for _, c := range p.Calls {
		for _, a := range c.Args {
			if isSlice(a.Type) {
				n += a.sliceLen() * 8
			}
		}
	}
	return n
}

func (r *runner) run(base, slack uint64) (res Result) {
	defer r.finished.Store(true)
	var ctx *gles.Context
	defer func() {
		if v := recover(); v != nil {
			call := int(r.cur.Load())
			st := string(debug.Stack())
			res = Result{Class: ClassPanic, Sig: "panic at " + panicSite(st), Msg: fmt.Sprint(v), Stack: st,
				Call: call, Calls: max(call, 0)}
		}
		if ctx != nil {
			ctx.Close()
		}
	}()
	var err error
	ctx, err = gles.NewContext(r.p.Backend, r.p.Config)
	if err != nil {
		return Result{Call: -1}
	}
	used, budget := gles.MemoryUse(ctx)
	_ = used
	var dev uint64
	for _, reg := range ctx.Backend().Device().Info().Regions {
		dev += uint64(reg.Size)
	}
	if budget < 0 {
		budget = 1 << 30
	}
	r.bound.Store(base + dev + 6*uint64(budget) + uint64(argBytes(r.p)) + slack)
	recv := map[string]reflect.Value{"": receiver(ctx, ""), "PicaShaders": receiver(ctx, "PicaShaders")}
	for i, c := range r.p.Calls {
		r.start.Store(time.Now().UnixNano())
		r.cur.Store(int64(i))
		if err := call(recv[c.Recv], c); err != nil {
			continue // an argument the entry point cannot take: a malformed program
		}
		if bad := faultIn(ctx.Err()); bad != nil {
			bad.Call, bad.Calls = i, i+1
			return *bad
		}
	}
	r.cur.Store(int64(len(r.p.Calls)))
	ctx.Close()
	if bad := faultIn(ctx.Err()); bad != nil {
		bad.Call, bad.Calls = len(r.p.Calls), len(r.p.Calls)
		return *bad
	}
	return Result{Call: len(r.p.Calls), Calls: len(r.p.Calls)}
}

// faultIn returns the first device fault among the errors, classified.
func faultIn(err error) *Result {
	if err == nil {
		return nil
	}
	var errs []error
	if m, ok := err.(interface{ Unwrap() []error }); ok {
		errs = m.Unwrap()
	} else {
		errs = []error{err}
	}
	for _, e := range errs {
		f, ok := hal.AsFault(e)
		if !ok {
			continue
		}
		if strings.Contains(f.Reason, "internal simulator error") {
			msg, st, _ := strings.Cut(f.Reason, "\n")
			return &Result{Class: ClassSimPanic, Sig: "simulator panic at " + panicSite(st), Msg: msg, Stack: st}
		}
		return &Result{Class: ClassFault, Sig: f.Chip + " fault: " + numbers.ReplaceAllString(f.Reason, "N"), Msg: e.Error()}
	}
	return nil
}

var numbers = regexp.MustCompile(`0x[0-9a-fA-F]+|[0-9]+`)

// moduleRoot is the repository directory, trimmed from source paths.
var moduleRoot = func() string {
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		return ""
	}
	return filepath.Dir(filepath.Dir(filepath.Dir(file))) + string(filepath.Separator)
}()

// panicSite returns the source line that panicked: the first frame after
// the runtime's panic machinery in a stack trace.
func panicSite(stack string) string {
	lines := strings.Split(stack, "\n")
	afterPanic := false
	for i := 0; i+1 < len(lines); i++ {
		fn := lines[i]
		if !strings.HasPrefix(lines[i+1], "\t") {
			continue
		}
		loc := strings.TrimSpace(lines[i+1])
		if j := strings.LastIndex(loc, " +0x"); j >= 0 {
			loc = loc[:j]
		}
		i++
		if strings.HasPrefix(fn, "panic(") {
			afterPanic = true
			continue
		}
		if !afterPanic || strings.Contains(loc, "/src/runtime/") {
			continue
		}
		name := fn
		if j := strings.LastIndex(name, "("); j > 0 {
			name = name[:j]
		}
		name = name[strings.LastIndex(name, "/")+1:]
		return strings.TrimPrefix(loc, moduleRoot) + " (" + name + ")"
	}
	return "unknown site"
}

// receiver returns the value whose methods are the entry points of
// Method.Recv.
func receiver(ctx *gles.Context, recv string) reflect.Value {
	if recv == "PicaShaders" {
		return reflect.ValueOf(gles.PicaShaders(ctx))
	}
	return reflect.ValueOf(ctx)
}

// call makes one call by reflection.
func call(recv reflect.Value, c Call) error {
	mv := recv.MethodByName(c.Method)
	if !mv.IsValid() {
		return fmt.Errorf("no entry point %s", c.Method)
	}
	mt := mv.Type()
	if len(c.Args) != mt.NumIn() {
		return fmt.Errorf("%s: %d arguments, want %d", c.Method, len(c.Args), mt.NumIn())
	}
	in := make([]reflect.Value, len(c.Args))
	for i, a := range c.Args {
		pt := mt.In(i)
		v, err := value(a, pt)
		if err != nil {
			return fmt.Errorf("%s argument %d: %w", c.Method, i+1, err)
		}
		in[i] = v
	}
	if mt.IsVariadic() {
		mv.CallSlice(in)
	} else {
		mv.Call(in)
	}
	return nil
}

var goTypes = map[string]reflect.Type{
	"int": reflect.TypeFor[int](), "int8": reflect.TypeFor[int8](), "int16": reflect.TypeFor[int16](),
	"int32": reflect.TypeFor[int32](), "int64": reflect.TypeFor[int64](), "uint8": reflect.TypeFor[uint8](),
	"uint16": reflect.TypeFor[uint16](), "uint32": reflect.TypeFor[uint32](), "uintptr": reflect.TypeFor[uintptr](),
	"float32": reflect.TypeFor[float32](), "float64": reflect.TypeFor[float64](), "bool": reflect.TypeFor[bool](),
	"string": reflect.TypeFor[string](), "gles.Enum": reflect.TypeFor[gles.Enum](), "gles.Fixed": reflect.TypeFor[gles.Fixed](),
}

func typeFor(name string) (reflect.Type, bool) {
	if isSlice(name) {
		e, ok := typeFor(name[2:])
		if !ok {
			return nil, false
		}
		return reflect.SliceOf(e), true
	}
	t, ok := goTypes[name]
	return t, ok
}

// value builds the argument a for a parameter of type pt.
func value(a Arg, pt reflect.Type) (reflect.Value, error) {
	if a.Type == "nil" {
		switch pt.Kind() {
		case reflect.Interface, reflect.Slice:
			return reflect.Zero(pt), nil
		}
		return reflect.Value{}, errors.New("nil for a non-nil type")
	}
	t, ok := typeFor(a.Type)
	if !ok {
		return reflect.Value{}, fmt.Errorf("unknown type %s", a.Type)
	}
	v := reflect.New(t).Elem()
	switch {
	case t.Kind() == reflect.Slice:
		n := a.sliceLen()
		if n < 0 || n > MaxSliceLen {
			return reflect.Value{}, fmt.Errorf("slice of %d elements (at most %d)", n, MaxSliceLen)
		}
		v = reflect.MakeSlice(t, n, n)
		for i := 0; i < n && a.Fill != FillZero; i++ {
			e := v.Index(i)
			switch {
			case a.Type == "[]string":
				e.SetString(a.Strs[i])
			case a.Fill == FillWave:
				setNum(e, float64(i*7919%2001-1000)/1000)
			case a.Fill == FillSeq:
				setNum(e, float64(i%max(a.Mod, 1)))
			default:
				setNum(e, a.Elems[i])
			}
		}
	case t.Kind() == reflect.String:
		v.SetString(a.Str)
	case t.Kind() == reflect.Float32 || t.Kind() == reflect.Float64:
		v.SetFloat(a.Float)
	default:
		setNum(v, float64(0))
		setInt(v, a.Int)
	}
	if !v.Type().AssignableTo(pt) {
		if !v.Type().ConvertibleTo(pt) || pt.Kind() == reflect.String {
			return reflect.Value{}, fmt.Errorf("%s for a parameter of type %s", a.Type, pt)
		}
		v = v.Convert(pt)
	}
	return v, nil
}

func setInt(v reflect.Value, i int64) {
	switch v.Kind() {
	case reflect.Bool:
		v.SetBool(i != 0)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		v.SetInt(i)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		v.SetUint(uint64(i))
	}
}

func setNum(v reflect.Value, f float64) {
	switch v.Kind() {
	case reflect.Float32, reflect.Float64:
		v.SetFloat(f)
	case reflect.Bool:
		v.SetBool(f != 0)
	default:
		setInt(v, int64(f))
	}
}
