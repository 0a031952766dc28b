package glfuzz

import (
	"fmt"
	"go/format"
	"math"
	"strconv"
	"strings"

	"github.com/retrogl/retrogl/gles"
)

// Program is one fuzz case: a context on a backend and the calls made on
// it, in order.
type Program struct {
	Backend string
	// Config is the context's configuration (Capture is not used).
	Config gles.Config
	Calls  []Call
}

// Call is one call of a GL entry point.
type Call struct {
	// Recv is "" for *gles.Context methods, "PicaShaders" for the
	// GL_RETRO_pica_shader_binary entry points.
	Recv   string
	Method string
	Args   []Arg
}

// Arg is one argument value. Type is the Go type of the value passed
// ("int", "gles.Enum", "[]float32", "nil", ...): the parameter's type, or,
// for a parameter of type any, the dynamic type chosen. Slices are either
// written out (Elems, Strs) or generated (Len elements by Fill: "zero",
// "wave" for floats in [-1, 1], "seq" for integers counting modulo Mod),
// so that a reproducer with a megabyte of data stays one line.
type Arg struct {
	Type  string
	Int   int64
	Float float64
	Str   string
	Elems []float64
	Strs  []string
	Len   int
	Fill  string
	Mod   int
}

// The fill patterns of generated slices.
const (
	FillZero = "zero"
	FillWave = "wave"
	FillSeq  = "seq"
)

// sliceLen returns the number of elements of a slice argument.
func (a *Arg) sliceLen() int {
	switch {
	case a.Fill != "":
		return a.Len
	case a.Type == "[]string":
		return len(a.Strs)
	}
	return len(a.Elems)
}

// isSlice reports whether t names a slice type.
func isSlice(t string) bool { return strings.HasPrefix(t, "[]") }

// Clone returns a deep copy of p.
func (p *Program) Clone() *Program {
	q := *p
	q.Calls = make([]Call, len(p.Calls))
	for i, c := range p.Calls {
		q.Calls[i] = c.clone()
	}
	return &q
}

func (c Call) clone() Call {
	d := c
	d.Args = make([]Arg, len(c.Args))
	for i, a := range c.Args {
		d.Args[i] = a
		d.Args[i].Elems = append([]float64(nil), a.Elems...)
		d.Args[i].Strs = append([]string(nil), a.Strs...)
	}
	return d
}

// Format returns p as a Go program that reproduces it: a main package that
// creates the context and makes the calls. comment, when not empty, is
// written above the package clause.
func (p *Program) Format(comment string) string {
	var body strings.Builder
	f := &formatter{}
	for _, c := range p.Calls {
		body.WriteString("\t")
		body.WriteString(f.call(c))
		body.WriteString("\n")
	}
	var b strings.Builder
	for _, l := range strings.Split(strings.TrimSpace(comment), "\n") {
		if l != "" {
			b.WriteString("// " + l + "\n")
		}
	}
	b.WriteString("package main\n\nimport (\n")
	if f.math {
		b.WriteString("\t\"math\"\n\n")
	}
	b.WriteString("\t_ \"github.com/retrogl/retrogl/backends\"\n\t\"github.com/retrogl/retrogl/gles\"\n)\n\n")
	b.WriteString("func main() {\n")
	fmt.Fprintf(&b, "\tctx, err := gles.NewContext(%q, %s)\n", p.Backend, formatConfig(p.Config))
	b.WriteString("\tif err != nil {\n\t\tpanic(err)\n\t}\n\tdefer ctx.Close()\n")
	b.WriteString(body.String())
	b.WriteString("}\n")
	for _, h := range helperOrder {
		if f.helpers[h] {
			b.WriteString("\n" + helpers[h])
		}
	}
	// gofmt's spacing (1 << 62 inside a composite literal), so that a
	// reproducer committed under testdata keeps `gofmt -l .` empty.
	if src, err := format.Source([]byte(b.String())); err == nil {
		return string(src)
	}
	return b.String()
}

// String returns the calls, one per line, as Format writes them.
func (p *Program) String() string {
	var b strings.Builder
	f := &formatter{}
	fmt.Fprintf(&b, "gles.NewContext(%q, %s)\n", p.Backend, formatConfig(p.Config))
	for _, c := range p.Calls {
		b.WriteString(f.call(c) + "\n")
	}
	return b.String()
}

func formatConfig(c gles.Config) string {
	var fs []string
	add := func(name string, v int) {
		if v != 0 {
			fs = append(fs, fmt.Sprintf("%s: %s", name, formatInt(int64(v), "int")))
		}
	}
	add("Width", c.Width)
	add("Height", c.Height)
	add("Format", int(c.Format))
	add("DepthBits", c.DepthBits)
	add("StencilBits", c.StencilBits)
	if c.ES2 {
		fs = append(fs, "ES2: true")
	}
	add("Workers", c.Workers)
	if c.MemoryBudget != 0 {
		fs = append(fs, fmt.Sprintf("MemoryBudget: %s", formatInt(c.MemoryBudget, "int64")))
	}
	return "gles.Config{" + strings.Join(fs, ", ") + "}"
}

// helpers are the functions a reproducer defines when it uses generated
// slices.
var helpers = map[string]string{
	"wave": `// wave returns n floats in [-1, 1].
func wave(n int) []float32 {
	s := make([]float32, n)
	for i := range s {
		s[i] = float32(i*7919%2001-1000) / 1000
	}
	return s
}
`,
	"seq16": `// seq16 returns n indices counting 0..m-1 and again.
func seq16(n, m int) []uint16 {
	s := make([]uint16, n)
	for i := range s {
		s[i] = uint16(i % m)
	}
	return s
}
`,
	"seq8": `// seq8 returns n indices counting 0..m-1 and again.
func seq8(n, m int) []uint8 {
	s := make([]uint8, n)
	for i := range s {
		s[i] = uint8(i % m)
	}
	return s
}
`,
}

var helperOrder = []string{"wave", "seq16", "seq8"}

type formatter struct {
	math    bool
	helpers map[string]bool
}

func (f *formatter) use(h string) {
	if f.helpers == nil {
		f.helpers = map[string]bool{}
	}
	f.helpers[h] = true
}

func (f *formatter) call(c Call) string {
	var b strings.Builder
	if c.Recv != "" {
		fmt.Fprintf(&b, "gles.%s(ctx).", c.Recv)
	} else {
		b.WriteString("ctx.")
	}
	b.WriteString(c.Method + "(")
	m, _ := lookup(c.Recv, c.Method)
	for i, a := range c.Args {
		if i > 0 {
			b.WriteString(", ")
		}
		ptype := ""
		if m != nil && i < len(m.Params) {
			ptype = m.Params[i].Type
		}
		if strings.HasPrefix(ptype, "...") && isSlice(a.Type) {
			b.WriteString(f.arg(a, false) + "...")
			continue
		}
		if a.Type == "gles.Enum" && m != nil && ptype == "Enum" {
			if n, ok := hintName(c.Method, m.Params[i].Name, gles.Enum(a.Int)); ok {
				b.WriteString("gles." + n)
				continue
			}
		}
		b.WriteString(f.arg(a, ptype == "any"))
	}
	b.WriteString(")")
	return b.String()
}

// hintName returns the name a parameter's hints give value v, so that
// DrawArrays prints gles.LINES rather than gles.TRUE.
func hintName(method, param string, v gles.Enum) (string, bool) {
	for _, h := range enumHintFor(method, param) {
		if _, plain := enumByName[h]; plain && enumByName[h] == v {
			return h, true
		}
	}
	return "", false
}

// arg writes one argument; typed makes conversions explicit, for
// parameters of type any where an untyped constant would become int or
// float64.
func (f *formatter) arg(a Arg, typed bool) string {
	switch t := a.Type; {
	case t == "nil":
		return "nil"
	case t == "bool":
		return strconv.FormatBool(a.Int != 0)
	case t == "string":
		return strconv.Quote(a.Str)
	case t == "gles.Enum":
		if n, ok := enumByValue[gles.Enum(a.Int)]; ok && !typed {
			return "gles." + n
		}
		if typed {
			return fmt.Sprintf("gles.Enum(%#x)", uint32(a.Int))
		}
		return fmt.Sprintf("%#x", uint32(a.Int))
	case t == "float32" || t == "float64":
		s := f.float(a.Float, t)
		if typed && !strings.HasPrefix(s, t+"(") {
			return t + "(" + s + ")"
		}
		return s
	case isSlice(t):
		return f.slice(a)
	}
	s := f.int(a.Int, a.Type)
	if typed && a.Type != "int" {
		typ := a.Type
		return typ + "(" + s + ")"
	}
	return s
}

func (f *formatter) int(v int64, typ string) string {
	s := formatInt(v, typ)
	if strings.Contains(s, "math.") {
		f.math = true
	}
	return s
}

// formatInt writes an integer, naming the limits of the math package when
// v is next to one.
func formatInt(v int64, typ string) string {
	type limit struct {
		name string
		v    int64
	}
	limits := []limit{{"math.MaxInt", math.MaxInt}, {"math.MinInt", math.MinInt}}
	switch typ {
	case "int32", "gles.Fixed":
		limits = []limit{{"math.MaxInt32", math.MaxInt32}, {"math.MinInt32", math.MinInt32}}
	case "uint32":
		limits = []limit{{"math.MaxUint32", math.MaxUint32}, {"math.MaxInt32", math.MaxInt32}}
	case "uint8":
		return strconv.FormatInt(v, 10)
	case "int", "int64":
		limits = append(limits, limit{"math.MaxInt32", math.MaxInt32}, limit{"math.MaxUint32", math.MaxUint32})
	}
	for _, l := range limits {
		d := v - l.v
		if (l.v > 0 && d <= 0 && d >= -16) || (l.v < 0 && d >= 0 && d <= 16) {
			switch {
			case d == 0:
				return l.name
			case d > 0:
				return fmt.Sprintf("%s+%d", l.name, d)
			default:
				return fmt.Sprintf("%s-%d", l.name, -d)
			}
		}
	}
	if v > 1<<20 && v&(v-1) == 0 {
		return fmt.Sprintf("1<<%d", bitLen(uint64(v))-1)
	}
	if v < -1<<20 && (-v)&(-v-1) == 0 {
		return fmt.Sprintf("-1<<%d", bitLen(uint64(-v))-1)
	}
	return strconv.FormatInt(v, 10)
}

func bitLen(v uint64) int {
	n := 0
	for v != 0 {
		n++
		v >>= 1
	}
	return n
}

func (f *formatter) float(v float64, typ string) string {
	switch {
	case math.IsNaN(v):
		f.math = true
		return typ + "(math.NaN())"
	case math.IsInf(v, 1):
		f.math = true
		return typ + "(math.Inf(1))"
	case math.IsInf(v, -1):
		f.math = true
		return typ + "(math.Inf(-1))"
	case v == 0 && math.Signbit(v):
		f.math = true
		return typ + "(math.Copysign(0, -1))"
	}
	bits := 64
	if typ == "float32" {
		bits = 32
	}
	s := strconv.FormatFloat(v, 'g', -1, bits)
	if !strings.ContainsAny(s, ".eEn") {
		s += ".0"
	}
	return s
}

func (f *formatter) slice(a Arg) string {
	elem := a.Type[2:]
	switch a.Fill {
	case FillZero:
		return fmt.Sprintf("make(%s, %d)", a.Type, a.Len)
	case FillWave:
		f.use("wave")
		return fmt.Sprintf("wave(%d)", a.Len)
	case FillSeq:
		if elem == "uint8" {
			f.use("seq8")
			return fmt.Sprintf("seq8(%d, %d)", a.Len, a.Mod)
		}
		f.use("seq16")
		return fmt.Sprintf("seq16(%d, %d)", a.Len, a.Mod)
	}
	var parts []string
	if elem == "string" {
		for _, s := range a.Strs {
			parts = append(parts, strconv.Quote(s))
		}
	} else {
		for _, e := range a.Elems {
			switch elem {
			case "float32", "float64":
				parts = append(parts, f.float(e, elem))
			case "bool":
				parts = append(parts, strconv.FormatBool(e != 0))
			default:
				parts = append(parts, f.int(int64(e), elem))
			}
		}
	}
	if a.Type == "[]gles.Enum" {
		return "[]gles.Enum{" + strings.Join(parts, ", ") + "}"
	}
	return a.Type + "{" + strings.Join(parts, ", ") + "}"
}
