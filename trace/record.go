package trace

import (
	"bufio"
	"encoding/base64"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/retrogl/retrogl/gles"
)

// Magic is the first line of every trace.
const Magic = "retrogl-trace 1"

// Recorder is a GL that writes every call to a trace before (or, for calls
// that return a value, after) forwarding it to the context it wraps.
// Recording never changes what the wrapped context does.
type Recorder struct {
	gl  GL
	w   *bufio.Writer
	err error // the first write error
	buf []byte

	// arrays holds the bytes each client array had when the trace last
	// wrote them, keyed by Pointer call (and texture unit).
	arrays map[string]*clientArray
	order  []string
	// es2 is set for a GL ES 2.0 context, which has no client texture
	// unit to ask about.
	es2 bool
}

type clientArray struct {
	unit   int    // texture unit of a TexCoordPointer, else -1
	prefix string // the call line up to the pointer argument
	src    any    // the application's slice
	bytes  []byte // its contents as last written
}

// NewRecorder returns a Recorder that forwards to gl and writes the trace
// header, with the surface cfg asks for, to w. Call Close to flush it.
func NewRecorder(gl GL, w io.Writer, cfg gles.Config) *Recorder {
	r := &Recorder{gl: gl, w: bufio.NewWriter(w), arrays: map[string]*clientArray{}, es2: cfg.ES2}
	r.write(fmt.Sprintf("%s\n%s\n", Magic, surfaceLine(cfg.Width, cfg.Height, cfg.DepthBits, cfg.StencilBits, cfg.ES2)))
	return r
}

// Comment writes a comment line (newlines become blanks).
func (r *Recorder) Comment(text string) {
	r.write("# " + strings.ReplaceAll(text, "\n", " ") + "\n")
}

// Err forwards to the wrapped context's Err; it is not recorded.
func (r *Recorder) Err() error { return r.gl.Err() }

// Close flushes the trace and returns the first error writing it. It does
// not close the wrapped context.
func (r *Recorder) Close() error {
	if r.err == nil {
		if err := r.w.Flush(); err != nil {
			r.err = fmt.Errorf("trace: write: %w", err)
		}
	}
	return r.err
}

func (r *Recorder) write(s string) {
	if r.err != nil {
		return
	}
	if _, err := r.w.WriteString(s); err != nil {
		r.err = fmt.Errorf("trace: write: %w", err)
	}
}

// line builds one call line.
type line struct{ b []byte }

func (r *Recorder) begin(name string) *line {
	l := &line{b: r.buf[:0]}
	l.b = append(l.b, name...)
	return l
}

func (r *Recorder) end(l *line) {
	l.b = append(l.b, '\n')
	if r.err == nil {
		if _, err := r.w.Write(l.b); err != nil {
			r.err = fmt.Errorf("trace: write: %w", err)
		}
	}
	r.buf = l.b[:0]
}

func (l *line) sep() { l.b = append(l.b, ' ') }

func (l *line) result() { l.b = append(l.b, " ="...) }

func (l *line) int(v int) {
	l.sep()
	l.b = strconv.AppendInt(l.b, int64(v), 10)
}

func (l *line) uint(v uint32) {
	l.sep()
	l.b = strconv.AppendUint(l.b, uint64(v), 10)
}

func (l *line) float(v float32) {
	l.sep()
	l.b = appendFloat(l.b, v)
}

func appendFloat(b []byte, v float32) []byte {
	switch {
	case math.IsInf(float64(v), 1):
		return append(b, "+Inf"...)
	case math.IsInf(float64(v), -1):
		return append(b, "-Inf"...)
	}
	return strconv.AppendFloat(b, float64(v), 'g', -1, 32)
}

func (l *line) bool(v bool) {
	l.sep()
	l.b = strconv.AppendBool(l.b, v)
}

func (l *line) str(s string) {
	l.sep()
	l.b = strconv.AppendQuote(l.b, s)
}

// enum writes a name for v: ZERO and ONE for 0 and 1 (the blend factors
// and stencil ops that share those values), else the first gles name of the
// value, else the number in hex.
func (l *line) enum(v gles.Enum) {
	l.sep()
	switch {
	case v == 0:
		l.b = append(l.b, "ZERO"...)
	case v == 1:
		l.b = append(l.b, "ONE"...)
	default:
		l.b = appendEnum(l.b, v)
	}
}

func appendEnum(b []byte, v gles.Enum) []byte {
	if n, ok := enumName[v]; ok {
		return append(b, n...)
	}
	return append(b, fmt.Sprintf("%#x", uint32(v))...)
}

var primNames = [...]string{"POINTS", "LINES", "LINE_LOOP", "LINE_STRIP", "TRIANGLES", "TRIANGLE_STRIP", "TRIANGLE_FAN"}

// prim writes a primitive mode.
func (l *line) prim(v gles.Enum) {
	if int(v) < len(primNames) {
		l.sep()
		l.b = append(l.b, primNames[v]...)
		return
	}
	l.enum(v)
}

var clearBits = []struct {
	name string
	bit  gles.Enum
}{{"COLOR_BUFFER_BIT", gles.COLOR_BUFFER_BIT}, {"DEPTH_BUFFER_BIT", gles.DEPTH_BUFFER_BIT}, {"STENCIL_BUFFER_BIT", gles.STENCIL_BUFFER_BIT}}

// bits writes a Clear mask as names joined by "|", with any unknown bits
// as a hex number.
func (l *line) bits(v gles.Enum) {
	l.sep()
	if v == 0 {
		l.b = append(l.b, '0')
		return
	}
	first := true
	for _, cb := range clearBits {
		if v&cb.bit != 0 {
			if !first {
				l.b = append(l.b, '|')
			}
			l.b = append(l.b, cb.name...)
			v &^= cb.bit
			first = false
		}
	}
	if v != 0 {
		if !first {
			l.b = append(l.b, '|')
		}
		l.b = append(l.b, fmt.Sprintf("%#x", uint32(v))...)
	}
}

// intEnum writes an int parameter that is often an enumerant (the param
// of TexParameteri and TexEnvi): by name when it has one above 0xFF.
func (l *line) intEnum(v int) {
	if _, ok := enumName[gles.Enum(v)]; ok && v > 0xff && v <= math.MaxUint32 {
		l.sep()
		l.b = appendEnum(l.b, gles.Enum(v))
		return
	}
	l.int(v)
}

func (l *line) floats(v []float32) {
	l.b = append(l.b, " {"...)
	for i, f := range v {
		if i > 0 {
			l.b = append(l.b, ' ')
		}
		l.b = appendFloat(l.b, f)
	}
	l.b = append(l.b, '}')
}

func (l *line) ints(v []int) {
	l.b = append(l.b, " {"...)
	for i, n := range v {
		if i > 0 {
			l.b = append(l.b, ' ')
		}
		l.b = strconv.AppendInt(l.b, int64(n), 10)
	}
	l.b = append(l.b, '}')
}

func (l *line) uints(v []uint32) {
	l.b = append(l.b, " {"...)
	for i, n := range v {
		if i > 0 {
			l.b = append(l.b, ' ')
		}
		l.b = strconv.AppendUint(l.b, uint64(n), 10)
	}
	l.b = append(l.b, '}')
}

func (l *line) bools(v []bool) {
	l.b = append(l.b, " {"...)
	for i, x := range v {
		if i > 0 {
			l.b = append(l.b, ' ')
		}
		l.b = strconv.AppendBool(l.b, x)
	}
	l.b = append(l.b, '}')
}

// data writes a byte array, or nil.
func (l *line) data(p []byte) {
	l.sep()
	if p == nil {
		l.b = append(l.b, "nil"...)
		return
	}
	l.b = append(l.b, '[')
	l.b = strconv.AppendInt(l.b, int64(len(p)), 10)
	l.b = append(l.b, ']')
	l.b = base64.StdEncoding.AppendEncode(l.b, p)
}

// outLen writes the size of an output buffer (ReadPixels): its contents
// are the context's to fill, not the trace's.
func (l *line) outLen(p []byte) { l.int(len(p)) }

// ptr writes a slice of numbers as its bytes, an integer (a buffer offset
// or size) as a number, and anything else as the type the context will
// reject, so the trace records the call even when it is wrong.
func (l *line) ptr(v any) {
	if p, ok := bytesOf(v); ok {
		l.data(p)
		return
	}
	if n, ok := intOf(v); ok {
		l.sep()
		l.b = strconv.AppendInt(l.b, n, 10)
		return
	}
	l.b = append(l.b, " nil # unrecordable "...)
	l.b = append(l.b, fmt.Sprintf("%T", v)...)
}

// pointer finishes a Pointer call line whose last argument is ptr, and
// remembers a client array so that draws can write it again if its bytes
// change.
func (r *Recorder) pointer(l *line, ptr any) {
	name, rest, _ := strings.Cut(string(l.b), " ")
	unit := -1
	key := name
	switch name {
	case "TexCoordPointer":
		if v := r.gl.GetIntegerv(gles.CLIENT_ACTIVE_TEXTURE); len(v) == 1 {
			unit = v[0] - int(gles.TEXTURE0)
		}
		key = fmt.Sprintf("%s/%d", name, unit)
	case "VertexAttribPointer":
		// One client array per generic attribute.
		index, _, _ := strings.Cut(rest, " ")
		key = name + "/" + index
	}
	prefix := string(l.b)
	l.ptr(ptr)
	r.end(l)
	p, isSlice := bytesOf(ptr)
	if !isSlice || p == nil || r.boundArrayBuffer() != 0 {
		delete(r.arrays, key)
		return
	}
	a, ok := r.arrays[key]
	if !ok {
		a = &clientArray{}
		r.arrays[key] = a
		r.order = append(r.order, key)
	}
	a.unit, a.prefix, a.src, a.bytes = unit, prefix, ptr, append(a.bytes[:0], p...)
}

func (r *Recorder) boundArrayBuffer() int {
	if v := r.gl.GetIntegerv(gles.ARRAY_BUFFER_BINDING); len(v) == 1 {
		return v[0]
	}
	return 0
}

// syncArrays writes again every client array whose bytes changed since the
// trace last wrote them, selecting its texture unit and unbinding the array
// buffer around the call as needed, so that the draw that follows reads in
// the trace what it reads in the application.
func (r *Recorder) syncArrays() {
	var changed []*clientArray
	for _, k := range r.order {
		a, ok := r.arrays[k]
		if !ok {
			continue
		}
		p, _ := bytesOf(a.src)
		if string(p) != string(a.bytes) {
			a.bytes = append(a.bytes[:0], p...)
			changed = append(changed, a)
		}
	}
	if len(changed) == 0 {
		return
	}
	buffer := r.boundArrayBuffer()
	unit := -1
	if !r.es2 {
		if v := r.gl.GetIntegerv(gles.CLIENT_ACTIVE_TEXTURE); len(v) == 1 {
			unit = v[0] - int(gles.TEXTURE0)
		}
	}
	if buffer != 0 {
		r.write("BindBuffer ARRAY_BUFFER 0\n")
	}
	for _, a := range changed {
		if a.unit >= 0 && a.unit != unit {
			r.write(fmt.Sprintf("ClientActiveTexture TEXTURE%d\n", a.unit))
		}
		l := r.begin("")
		l.b = append(l.b, a.prefix...)
		l.data(a.bytes)
		r.end(l)
		if a.unit >= 0 && a.unit != unit {
			r.write(fmt.Sprintf("ClientActiveTexture TEXTURE%d\n", unit))
		}
	}
	if buffer != 0 {
		r.write(fmt.Sprintf("BindBuffer ARRAY_BUFFER %d\n", buffer))
	}
}

// bytesOf returns the bytes of a slice of numbers as gles reads them.
func bytesOf(v any) ([]byte, bool) { return gles.ClientBytes(v) }

// intOf accepts the Go integer types gles takes as offsets and sizes.
func intOf(v any) (int64, bool) {
	switch x := v.(type) {
	case int:
		return int64(x), true
	case int32:
		return int64(x), true
	case int64:
		return x, true
	case uint32:
		return int64(x), true
	case uintptr:
		if uint64(x) > math.MaxInt64 {
			return -1, true
		}
		return int64(x), true
	}
	return 0, false
}

// enumName gives the name a trace writes for each enumerant value: the
// first declared, except that the Clear bits (written by line.bits) give way
// (LIGHT0 shares COLOR_BUFFER_BIT's 0x4000). enumValue reads every name.
var (
	enumName  = map[gles.Enum]string{}
	enumValue = map[string]gles.Enum{}
)

func init() {
	for _, e := range enumTable {
		if _, ok := enumName[e.Value]; !ok && !strings.HasSuffix(e.Name, "_BIT") {
			enumName[e.Value] = e.Name
		}
		enumValue[e.Name] = e.Value
	}
}

func (l *line) u8(v uint8) { l.int(int(v)) }

func (l *line) i32(v int32) { l.int(int(v)) }

func (l *line) i32s(v []int32) {
	l.b = append(l.b, " {"...)
	for i, n := range v {
		if i > 0 {
			l.b = append(l.b, ' ')
		}
		l.b = strconv.AppendInt(l.b, int64(n), 10)
	}
	l.b = append(l.b, '}')
}

// strs writes strings (a shader's sources) as a vector of Go-quoted
// strings.
func (l *line) strs(v []string) {
	l.b = append(l.b, " {"...)
	for i, s := range v {
		if i > 0 {
			l.b = append(l.b, ' ')
		}
		l.b = strconv.AppendQuote(l.b, s)
	}
	l.b = append(l.b, '}')
}

// surfaceLine is the Surface line: the surface's size and depth and
// stencil bits, and ES2 for a GL ES 2.0 context.
func surfaceLine(w, h, depth, stencil int, es2 bool) string {
	s := fmt.Sprintf("Surface %d %d %d %d", w, h, depth, stencil)
	if es2 {
		s += " ES2"
	}
	return s
}

// fixed writes a 16.16 fixed-point value as its raw integer.
func (l *line) fixed(v gles.Fixed) { l.int(int(v)) }

func (l *line) fixeds(v []gles.Fixed) {
	l.b = append(l.b, " {"...)
	for i, n := range v {
		if i > 0 {
			l.b = append(l.b, ' ')
		}
		l.b = strconv.AppendInt(l.b, int64(n), 10)
	}
	l.b = append(l.b, '}')
}

// Enum is one gles enumerant: its name and value.
type Enum struct {
	Name  string
	Value gles.Enum
}

// Enums returns every gles enumerant in declaration order; the first name
// of a value is the one a trace writes. Tools that name enumerants (the
// API fuzzer's reproducers) share this table rather than generating their
// own.
func Enums() []Enum {
	out := make([]Enum, len(enumTable))
	for i, e := range enumTable {
		out[i] = Enum(e)
	}
	return out
}
