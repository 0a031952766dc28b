// Command rglfuzz is retrogl's API fuzzer: it drives random GL ES 1.1 and
// 2.0 call sequences with hostile arguments into every backend (package
// internal/glfuzz) and reports panics, hangs, memory growth, process
// crashes, simulator panics and device faults, each minimised to a short
// Go program that reproduces it.
//
//	go run ./cmd/rglfuzz -duration 10m               # every backend, both APIs
//	go run ./cmd/rglfuzz -backend r300 -api 2 -n 5000
//	go run ./cmd/rglfuzz -run repro.go               # run one program
//
// Programs run in child processes (-parallel of them), so that a hang or a
// fatal "out of memory" (which no recover catches) is caught and
// reported too. Each program comes from a seed: -seed and the program's
// number give the same program on every run. Findings are written to
// -out as Go programs, one per distinct failure, named by class; the
// summary at the end counts programs and calls per backend and failures
// per signature. The exit status is 1 when anything was found.
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	_ "github.com/retrogl/retrogl/backends"
	"github.com/retrogl/retrogl/internal/glfuzz"
)

type options struct {
	duration time.Duration
	n        int
	seed     uint64
	parallel int
	backend  string
	api      int
	maxCalls int
	deadline time.Duration
	heapMB   int
	out      string
	minimize int
	child    bool
	runFile  string
	quiet    bool
	// killAfter is how long the parent waits for an answer before it
	// kills the child (0: twice the deadline and 30 s).
	killAfter time.Duration
}

func main() {
	var o options
	flag.DurationVar(&o.duration, "duration", 0, "stop after this long (0: after -n programs)")
	flag.IntVar(&o.n, "n", 1000, "programs to run when -duration is 0")
	flag.Uint64Var(&o.seed, "seed", 1, "first program's seed; program k has seed+k")
	flag.IntVar(&o.parallel, "parallel", 2, "child processes")
	flag.StringVar(&o.backend, "backend", "", "fuzz only this backend (default: all)")
	flag.IntVar(&o.api, "api", 0, "1 or 2: only ES 1.1 or ES 2.0 contexts (0: both)")
	flag.IntVar(&o.maxCalls, "calls", glfuzz.DefaultMaxCalls, "maximum calls per program")
	flag.DurationVar(&o.deadline, "deadline", glfuzz.DefaultDeadline, "time one call may take before it counts as a hang")
	flag.IntVar(&o.heapMB, "heap", 256, "heap growth allowed beyond the context's own memory, MiB")
	flag.StringVar(&o.out, "out", "rglfuzz-out", "directory for reproducers")
	flag.IntVar(&o.minimize, "minimize", 400, "runs to spend minimising each new failure")
	flag.BoolVar(&o.child, "child", false, "internal: run programs sent on stdin")
	flag.StringVar(&o.runFile, "run", "", "run one program file (a reproducer) and print what it found")
	flag.BoolVar(&o.quiet, "q", false, "print only the summary")
	flag.Parse()
	switch {
	case o.child:
		os.Exit(child(o))
	case o.runFile != "":
		os.Exit(runOne(o))
	}
	os.Exit(fuzz(o))
}

func (o options) limits() glfuzz.Limits {
	return glfuzz.Limits{Deadline: o.deadline, Heap: uint64(o.heapMB) << 20}
}

func (o options) genOptions() glfuzz.GenOptions {
	g := glfuzz.GenOptions{MaxCalls: o.maxCalls, API: o.api}
	for _, b := range glfuzz.Backends() {
		if o.backend == "" || b.Name == o.backend {
			if o.api == 2 && !b.ES2 {
				continue
			}
			g.Backends = append(g.Backends, b)
		}
	}
	return g
}

// runOne runs a reproducer in this process.
func runOne(o options) int {
	src, err := os.ReadFile(o.runFile)
	if err != nil {
		fmt.Fprintln(os.Stderr, "rglfuzz:", err)
		return 2
	}
	p, err := glfuzz.Parse(string(src))
	if err != nil {
		fmt.Fprintln(os.Stderr, "rglfuzz:", err)
		return 2
	}
	r := glfuzz.Run(p, o.limits())
	fmt.Println(r)
	if r.Stack != "" {
		fmt.Println(r.Stack)
	}
	if r.Class != glfuzz.OK {
		return 1
	}
	return 0
}

// report is one child's answer, a line of JSON.
type report struct {
	Seed  uint64       `json:"seed"`
	Class glfuzz.Class `json:"class,omitempty"`
	Sig   string       `json:"sig,omitempty"`
	Msg   string       `json:"msg,omitempty"`
	Stack string       `json:"stack,omitempty"`
	Call  int          `json:"call"`
	Calls int          `json:"calls"`
}

// child reads requests from stdin: "seed N" runs the generated program N,
// "prog LEN" followed by LEN bytes runs that program text. It answers
// each with a JSON line, and exits after a run it had to abandon.
func child(o options) int {
	in := bufio.NewReader(os.Stdin)
	out := json.NewEncoder(os.Stdout)
	gopt := o.genOptions()
	// The parent times each answer from its request: say when the
	// start-up (opening every backend once) is over.
	fmt.Println("ready")
	for {
		line, err := in.ReadString('\n')
		if err != nil {
			return 0
		}
		// The tests of the parent's crash and hang handling make the
		// child misbehave on purpose.
		switch os.Getenv("RGLFUZZ_TEST_CHILD") {
		case "crash":
			fmt.Fprintln(os.Stderr, "fatal error: out of memory (test)")
			return 2
		case "hang":
			select {}
		}
		var p *glfuzz.Program
		var seed uint64
		switch f := strings.Fields(line); {
		case len(f) == 2 && f[0] == "seed":
			seed, _ = strconv.ParseUint(f[1], 10, 64)
			p = glfuzz.Generate(glfuzz.RandSource(seed), gopt)
		case len(f) == 2 && f[0] == "prog":
			n, _ := strconv.Atoi(f[1])
			buf := make([]byte, n)
			if _, err := io.ReadFull(in, buf); err != nil {
				return 2
			}
			if p, err = glfuzz.Parse(string(buf)); err != nil {
				fmt.Fprintln(os.Stderr, "rglfuzz child:", err)
				return 2
			}
		default:
			fmt.Fprintf(os.Stderr, "rglfuzz child: bad request %q\n", line)
			return 2
		}
		r := glfuzz.Run(p, o.limits())
		if err := out.Encode(report{Seed: seed, Class: r.Class, Sig: r.Sig, Msg: r.Msg, Stack: r.Stack, Call: r.Call, Calls: r.Calls}); err != nil {
			return 2
		}
		if r.Abandoned {
			return 3
		}
	}
}

// worker is a child process and the pipes to it.
type worker struct {
	o      options
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	lines  chan string
	stderr *tailBuffer
}

func (o options) startWorker() (*worker, error) {
	exe, err := os.Executable()
	if err != nil {
		return nil, err
	}
	args := []string{"-child", "-api", strconv.Itoa(o.api), "-calls", strconv.Itoa(o.maxCalls),
		"-deadline", o.deadline.String(), "-heap", strconv.Itoa(o.heapMB)}
	if o.backend != "" {
		args = append(args, "-backend", o.backend)
	}
	w := &worker{o: o, cmd: exec.Command(exe, args...), lines: make(chan string, 1), stderr: &tailBuffer{max: 64 << 10}}
	w.cmd.Stderr = w.stderr
	if w.stdin, err = w.cmd.StdinPipe(); err != nil {
		return nil, err
	}
	stdout, err := w.cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := w.cmd.Start(); err != nil {
		return nil, err
	}
	go func() {
		sc := bufio.NewScanner(stdout)
		sc.Buffer(make([]byte, 1<<20), 16<<20)
		for sc.Scan() {
			w.lines <- sc.Text()
		}
		close(w.lines)
	}()
	select {
	case l := <-w.lines:
		if l == "ready" {
			return w, nil
		}
		w.stop()
		return nil, fmt.Errorf("child: %q instead of ready: %s", l, w.stderr.String())
	case <-time.After(2 * time.Minute):
		w.stop()
		return nil, fmt.Errorf("child not ready after 2 minutes: %s", w.stderr.String())
	}
}

func (w *worker) stop() {
	w.stdin.Close()
	w.cmd.Process.Kill()
	w.cmd.Wait()
}

// do sends one request and waits for its answer. A child that dies or
// stops answering is killed; the answer is then a crash or a hang, and ok
// is false (the worker must be replaced).
func (w *worker) do(req string) (r report, ok bool) {
	if _, err := io.WriteString(w.stdin, req); err != nil {
		return w.died(), false
	}
	// The child abandons a hung call after the deadline itself; this
	// timer catches a child that cannot even do that.
	wait := w.o.killAfter
	if wait == 0 {
		wait = 2*w.o.deadline + 30*time.Second
	}
	timer := time.NewTimer(wait)
	defer timer.Stop()
	select {
	case line, open := <-w.lines:
		if !open {
			return w.died(), false
		}
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			return report{Class: glfuzz.ClassCrash, Sig: "crash: bad answer", Msg: line}, false
		}
		return r, r.Class != glfuzz.ClassHang && r.Class != glfuzz.ClassMemory
	case <-timer.C:
		w.cmd.Process.Kill()
		return report{Class: glfuzz.ClassHang, Sig: "hang (child killed)", Msg: "no answer"}, false
	}
}

// died describes a child that exited: its stderr has the fatal error.
func (w *worker) died() report {
	w.cmd.Wait()
	msg := w.stderr.String()
	sig := "crash"
	for _, l := range strings.Split(msg, "\n") {
		if strings.HasPrefix(l, "fatal error:") || strings.HasPrefix(l, "panic:") || strings.HasPrefix(l, "runtime:") {
			sig = "crash: " + l
			break
		}
	}
	if site := firstRepoFrame(msg); site != "" {
		sig += " at " + site
	}
	return report{Class: glfuzz.ClassCrash, Sig: sig, Msg: msg}
}

// firstRepoFrame returns the first source line of the repository in a
// Go traceback.
func firstRepoFrame(tb string) string {
	for _, l := range strings.Split(tb, "\n") {
		l = strings.TrimSpace(l)
		if i := strings.Index(l, "/retrogl/"); i < 0 || !strings.Contains(l, ".go:") || strings.Contains(l, "/glfuzz/") {
			if !strings.Contains(l, ".go:") || strings.Contains(l, "/src/runtime/") || strings.Contains(l, "glfuzz") || strings.Contains(l, "rglfuzz") {
				continue
			}
		}
		if j := strings.LastIndex(l, " +0x"); j > 0 {
			l = l[:j]
		}
		return filepath.Base(filepath.Dir(l)) + "/" + filepath.Base(l)
	}
	return ""
}

// tailBuffer keeps the last max bytes written to it.
type tailBuffer struct {
	mu  sync.Mutex
	buf []byte
	max int
}

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, p...)
	if len(t.buf) > t.max {
		t.buf = append([]byte(nil), t.buf[len(t.buf)-t.max:]...)
	}
	return len(p), nil
}

func (t *tailBuffer) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return string(t.buf)
}

// finding is one distinct failure.
type finding struct {
	report
	backend string
	count   int
	file    string
}

type fuzzer struct {
	o        options
	gopt     glfuzz.GenOptions
	next     atomic.Uint64
	stop     atomic.Bool
	mu       sync.Mutex
	programs map[string]int
	calls    map[string]int
	found    map[string]*finding
	order    []string
}

func fuzz(o options) int {
	f := &fuzzer{o: o, gopt: o.genOptions(), programs: map[string]int{}, calls: map[string]int{}, found: map[string]*finding{}}
	if len(f.gopt.Backends) == 0 {
		fmt.Fprintln(os.Stderr, "rglfuzz: no backend to fuzz")
		return 2
	}
	if err := os.MkdirAll(o.out, 0o755); err != nil {
		fmt.Fprintln(os.Stderr, "rglfuzz:", err)
		return 2
	}
	start := time.Now()
	if o.duration > 0 {
		time.AfterFunc(o.duration, func() { f.stop.Store(true) })
	}
	var wg sync.WaitGroup
	for i := 0; i < max(o.parallel, 1); i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			f.work()
		}()
	}
	wg.Wait()
	f.summary(os.Stdout, time.Since(start))
	if len(f.found) > 0 {
		return 1
	}
	return 0
}

func (f *fuzzer) work() {
	var w *worker
	defer func() {
		if w != nil {
			w.stop()
		}
	}()
	for !f.stop.Load() {
		k := f.next.Add(1) - 1
		if f.o.duration == 0 && k >= uint64(f.o.n) {
			return
		}
		seed := f.o.seed + k
		if w == nil {
			var err error
			if w, err = f.o.startWorker(); err != nil {
				fmt.Fprintln(os.Stderr, "rglfuzz:", err)
				f.stop.Store(true)
				return
			}
		}
		r, ok := w.do(fmt.Sprintf("seed %d\n", seed))
		if !ok {
			w.stop()
			w = nil
		}
		r.Seed = seed
		p := glfuzz.Generate(glfuzz.RandSource(seed), f.gopt)
		f.mu.Lock()
		f.programs[p.Backend]++
		f.calls[p.Backend] += r.Calls
		f.mu.Unlock()
		if r.Class != glfuzz.OK {
			f.record(p, r)
		}
	}
}

// record counts a failure and, the first time its signature is seen,
// minimises it and writes the reproducer.
func (f *fuzzer) record(p *glfuzz.Program, r report) {
	key := p.Backend + " " + string(r.Class) + " " + r.Sig
	f.mu.Lock()
	if fd, seen := f.found[key]; seen {
		fd.count++
		f.mu.Unlock()
		return
	}
	fd := &finding{report: r, backend: p.Backend, count: 1}
	f.found[key] = fd
	f.order = append(f.order, key)
	n := len(f.found)
	f.mu.Unlock()
	if !f.o.quiet {
		fmt.Printf("found %s on %s (seed %d): %s\n", r.Class, p.Backend, r.Seed, r.Sig)
	}
	small := f.minimize(p, r)
	comment := fmt.Sprintf("Found by rglfuzz (seed %d, %d calls, minimised to %d).\n%s: %s\n%s",
		r.Seed, len(p.Calls), len(small.Calls), r.Class, r.Sig, firstLines(r.Msg, 3))
	file := filepath.Join(f.o.out, fmt.Sprintf("%03d-%s-%s.go", n, p.Backend, r.Class))
	if err := os.WriteFile(file, []byte(small.Format(comment)), 0o644); err != nil {
		fmt.Fprintln(os.Stderr, "rglfuzz:", err)
	}
	f.mu.Lock()
	fd.file = file
	f.mu.Unlock()
	if !f.o.quiet {
		fmt.Printf("  minimised to %d calls: %s\n", len(small.Calls), file)
	}
}

func firstLines(s string, n int) string {
	ls := strings.Split(strings.TrimSpace(s), "\n")
	if len(ls) > n {
		ls = ls[:n]
	}
	return strings.Join(ls, "\n")
}

// minimize shrinks a failing program, running candidates in a child of
// their own.
func (f *fuzzer) minimize(p *glfuzz.Program, r report) *glfuzz.Program {
	want := glfuzz.Result{Class: r.Class, Sig: r.Sig, Call: r.Call}
	var w *worker
	defer func() {
		if w != nil {
			w.stop()
		}
	}()
	oracle := func(q *glfuzz.Program) glfuzz.Result {
		if w == nil {
			var err error
			if w, err = f.o.startWorker(); err != nil {
				return glfuzz.Result{}
			}
		}
		src := q.Format("")
		got, ok := w.do(fmt.Sprintf("prog %d\n%s", len(src), src))
		if !ok {
			w.stop()
			w = nil
		}
		return glfuzz.Result{Class: got.Class, Sig: got.Sig, Call: got.Call}
	}
	return glfuzz.Minimize(p, want, oracle, f.o.minimize)
}

func (f *fuzzer) summary(w io.Writer, d time.Duration) {
	f.mu.Lock()
	defer f.mu.Unlock()
	var names []string
	for n := range f.programs {
		names = append(names, n)
	}
	sort.Strings(names)
	var b bytes.Buffer
	progs, calls := 0, 0
	for _, n := range names {
		fmt.Fprintf(&b, "  %-10s %8d programs %10d calls\n", n, f.programs[n], f.calls[n])
		progs += f.programs[n]
		calls += f.calls[n]
	}
	fmt.Fprintf(w, "rglfuzz: %d programs, %d calls in %v (seeds %d..%d)\n", progs, calls, d.Round(time.Second), f.o.seed, f.o.seed+f.next.Load()-1)
	w.Write(b.Bytes())
	if len(f.found) == 0 {
		fmt.Fprintln(w, "found nothing")
		return
	}
	fmt.Fprintf(w, "found %d distinct failures:\n", len(f.found))
	for _, k := range f.order {
		fd := f.found[k]
		fmt.Fprintf(w, "  %s %s x%d: %s (%s)\n", fd.backend, fd.Class, fd.count, fd.Sig, fd.file)
	}
}
