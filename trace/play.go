package trace

import (
	"fmt"
	"io"

	"github.com/retrogl/retrogl/gles"
)

// DefaultMaxAlloc bounds what one replayed call may make the context
// allocate beyond the trace's own bytes (GenTextures counts, BufferData
// sizes, ReadPixels buffers), so that a damaged trace cannot exhaust memory.
const DefaultMaxAlloc = 64 << 20

// Player replays calls onto a GL. It maps the object names a trace
// recorded to the names its context returns.
type Player struct {
	gl GL
	// MaxAlloc bounds the allocation one call may ask for; zero means
	// DefaultMaxAlloc.
	MaxAlloc int
	texs     map[uint32]uint32
	bufs     map[uint32]uint32
	fbs, rbs map[uint32]uint32
	// objs maps shader and program names (one name space in GL ES 2.0).
	objs map[uint32]uint32
	// uniforms and attribs map, per program (the player's name), the
	// locations the trace's GetUniformLocation and GetAttribLocation
	// calls returned to the ones this context returns; current is the
	// program in use, attribProgram the program of the last
	// GetAttribLocation (the one an application sets attributes up for
	// before it uses it).
	uniforms, attribs      map[uint32]map[int]int
	current, attribProgram uint32
}

// NewPlayer returns a Player that makes its calls on gl.
func NewPlayer(gl GL) *Player {
	return &Player{gl: gl, texs: map[uint32]uint32{}, bufs: map[uint32]uint32{},
		fbs: map[uint32]uint32{}, rbs: map[uint32]uint32{}, objs: map[uint32]uint32{},
		uniforms: map[uint32]map[int]int{}, attribs: map[uint32]map[int]int{}}
}

// Config returns the context configuration a trace's Surface line asks for.
func (t *Trace) Config() gles.Config {
	return gles.Config{Width: t.Width, Height: t.Height, DepthBits: t.DepthBits, StencilBits: t.StencilBits, ES2: t.ES2}
}

// Play makes every call of t. It stops at the first call it cannot make (an
// unknown entry point, wrong arguments) and returns an error naming its
// line. GL errors the calls raise are the context's: see GL.Err.
func (p *Player) Play(t *Trace) error {
	for i := range t.Calls {
		if err := p.Call(&t.Calls[i]); err != nil {
			return err
		}
	}
	return nil
}

// Call makes one call.
func (p *Player) Call(c *Call) error {
	f, ok := calls[c.Name]
	if !ok {
		return fmt.Errorf("trace: line %d: unknown call %q", c.Line, c.Name)
	}
	a := &args{p: p, c: c}
	if err := f(p, a); err != nil {
		return fmt.Errorf("trace: line %d: %s: %w", c.Line, c.Name, err)
	}
	return nil
}

// Replay parses a trace from r and plays it on gl.
func Replay(gl GL, r io.Reader) error {
	t, err := Parse(r)
	if err != nil {
		return err
	}
	return NewPlayer(gl).Play(t)
}

func (p *Player) maxAlloc() int {
	if p.MaxAlloc > 0 {
		return p.MaxAlloc
	}
	return DefaultMaxAlloc
}

// mapNames remembers the names a Gen call returned against those the trace
// recorded.
func (p *Player) mapNames(m map[uint32]uint32, a *args, got []uint32) error {
	if a.c.Result == nil {
		return nil
	}
	if a.c.Result.Kind != Vector {
		return fmt.Errorf("result: want a vector of names, got %s", a.c.Result.Kind)
	}
	for i, v := range a.c.Result.Elems {
		n, err := v.Int()
		if err != nil || n < 0 || n > 0xFFFFFFFF {
			return fmt.Errorf("result %d: want a name, got %.40q", i+1, v.Text)
		}
		if i < len(got) {
			m[uint32(n)] = got[i]
		}
	}
	return nil
}

// mapObject remembers the shader or program name a Create call returned
// against the one the trace recorded.
func (p *Player) mapObject(a *args, got uint32) error {
	if a.c.Result == nil {
		return nil
	}
	n, err := a.c.Result.Int()
	if err != nil || n < 0 || n > 0xFFFFFFFF {
		return fmt.Errorf("result: want a name, got %.40q", a.c.Result.Text)
	}
	p.objs[uint32(n)] = got
	return nil
}

// mapLocation remembers, for a program, the uniform or attribute location
// a call returned against the one the trace recorded.
func (p *Player) mapLocation(m map[uint32]map[int]int, program uint32, a *args, got int) error {
	if a.c.Result == nil {
		return nil
	}
	n, err := a.c.Result.Int()
	if err != nil || n < -1 || n > 1<<31-1 {
		return fmt.Errorf("result: want a location, got %.40q", a.c.Result.Text)
	}
	if m[program] == nil {
		m[program] = map[int]int{}
	}
	m[program][int(n)] = got
	return nil
}

// args reads a call's arguments by kind; the first error sticks and done
// reports it.
type args struct {
	p   *Player
	c   *Call
	err error
}

func (a *args) fail(i int, err error) {
	if a.err == nil {
		a.err = fmt.Errorf("argument %d: %w", i+1, err)
	}
}

func (a *args) at(i int) (Value, bool) {
	if i >= len(a.c.Args) {
		if a.err == nil {
			a.err = fmt.Errorf("has %d arguments, needs more", len(a.c.Args))
		}
		return Value{}, false
	}
	return a.c.Args[i], true
}

// done checks the argument count.
func (a *args) done(n int) error {
	if a.err != nil {
		return a.err
	}
	if len(a.c.Args) != n {
		return fmt.Errorf("has %d arguments, want %d", len(a.c.Args), n)
	}
	return nil
}

func (a *args) enum(i int) gles.Enum {
	v, ok := a.at(i)
	if !ok {
		return 0
	}
	e, err := v.Enum()
	if err != nil {
		a.fail(i, err)
	}
	return gles.Enum(e)
}

// int reads an integer; a name is read as its enum value (the param of
// TexParameteri).
func (a *args) int(i int) int {
	v, ok := a.at(i)
	if !ok {
		return 0
	}
	if v.Kind == Name {
		e, err := v.Enum()
		if err != nil {
			a.fail(i, err)
		}
		return int(e)
	}
	n, err := v.Int()
	if err != nil {
		a.fail(i, err)
		return 0
	}
	if n < -1<<31 || n > 1<<32 {
		a.fail(i, fmt.Errorf("integer %d out of range", n))
		return 0
	}
	return int(n)
}

// count reads a number of objects to create, bounded by MaxAlloc.
func (a *args) count(i int) int {
	n := a.int(i)
	if n > a.p.maxAlloc()/4 {
		a.fail(i, fmt.Errorf("count %d above the replay limit %d", n, a.p.maxAlloc()/4))
		return 0
	}
	return n
}

func (a *args) u8(i int) uint8 {
	n := a.int(i)
	if n < 0 || n > 255 {
		a.fail(i, fmt.Errorf("%d is not a byte", n))
	}
	return uint8(n)
}

func (a *args) uint(i int) uint32 {
	v, ok := a.at(i)
	if !ok {
		return 0
	}
	n, err := v.Int()
	if err != nil || n < 0 || n > 0xFFFFFFFF {
		if err == nil {
			err = fmt.Errorf("%d is not a 32-bit unsigned value", n)
		}
		a.fail(i, err)
		return 0
	}
	return uint32(n)
}

// mapped returns the context's name for the trace's name n. A name the
// trace never generated (GL ES 1.1 section 2.9: binding an unused name
// creates the object) stands for itself unless the context already gave
// that number to one of the trace's generated names: then it gets a
// number of its own, so two of the trace's objects never become one
// (a trace whose GenBuffers recorded 3 but whose context returned 1 must
// not draw buffer 3's data through a later "BindBuffer 1"). Either way
// the choice is remembered.
func mapped(m map[uint32]uint32, n uint32) uint32 {
	if got, ok := m[n]; ok || n == 0 {
		return got
	}
	got, top := n, uint32(0)
	taken := false
	for k, v := range m {
		taken = taken || v == n
		top = max(top, k, v)
	}
	if taken && top < 1<<32-1 {
		got = top + 1
	}
	m[n] = got
	return got
}

func (a *args) buf(i int) uint32 { return mapped(a.p.bufs, a.uint(i)) }
func (a *args) tex(i int) uint32 { return mapped(a.p.texs, a.uint(i)) }

func (a *args) names(i int, m map[uint32]uint32) []uint32 {
	v, ok := a.at(i)
	if !ok {
		return nil
	}
	if v.Kind != Vector {
		a.fail(i, fmt.Errorf("want a vector of names, got %s", v.Kind))
		return nil
	}
	out := make([]uint32, len(v.Elems))
	for j, e := range v.Elems {
		n, err := e.Int()
		if err != nil || n < 0 || n > 0xFFFFFFFF {
			a.fail(i, fmt.Errorf("element %d: not a name: %.40q", j+1, e.Text))
			return nil
		}
		out[j] = mapped(m, uint32(n))
	}
	return out
}

func (a *args) bufs(i int) []uint32 { return a.names(i, a.p.bufs) }
func (a *args) texs(i int) []uint32 { return a.names(i, a.p.texs) }
func (a *args) fb(i int) uint32     { return mapped(a.p.fbs, a.uint(i)) }
func (a *args) rb(i int) uint32     { return mapped(a.p.rbs, a.uint(i)) }
func (a *args) fbs(i int) []uint32  { return a.names(i, a.p.fbs) }
func (a *args) rbs(i int) []uint32  { return a.names(i, a.p.rbs) }

// object reads a shader or program name.
func (a *args) object(i int) uint32 { return mapped(a.p.objs, a.uint(i)) }

// objects reads a vector of shader names.
func (a *args) objects(i int) []uint32 { return a.names(i, a.p.objs) }

// useProgram reads UseProgram's program, the program later uniform calls
// address.
func (a *args) useProgram(i int) uint32 {
	p := a.object(i)
	a.p.current = p
	return p
}

// uloc reads a uniform location of program: the location this context
// gave for the one the trace recorded (-1, "no uniform", stays -1).
func (a *args) uloc(i int, program uint32) int {
	n := a.int(i)
	if m, ok := a.p.uniforms[program]; ok {
		if got, ok := m[n]; ok {
			return got
		}
	}
	return n
}

// attrib reads a generic attribute index: the location this context gave
// for the one the trace recorded, for the program in use or else the one
// whose attributes were last asked for.
func (a *args) attrib(i int) int {
	n := a.int(i)
	for _, prog := range []uint32{a.p.current, a.p.attribProgram} {
		if got, ok := a.p.attribs[prog][n]; ok {
			return got
		}
	}
	return n
}

func (a *args) i32(i int) int32 {
	n := a.int(i)
	if n < -1<<31 || n > 1<<31-1 {
		a.fail(i, fmt.Errorf("%d is not a 32-bit integer", n))
		return 0
	}
	return int32(n)
}

func (a *args) i32s(i int) []int32 {
	v := a.ints(i)
	if v == nil {
		return nil
	}
	out := make([]int32, len(v))
	for j, n := range v {
		if n < -1<<31 || n > 1<<31-1 {
			a.fail(i, fmt.Errorf("element %d: %d is not a 32-bit integer", j+1, n))
			return nil
		}
		out[j] = int32(n)
	}
	return out
}

// str reads a string.
func (a *args) str(i int) string {
	v, ok := a.at(i)
	if !ok {
		return ""
	}
	if v.Kind != String {
		a.fail(i, fmt.Errorf("want a string, got %s", v.Kind))
	}
	return v.Text
}

// strs reads a vector of strings.
func (a *args) strs(i int) []string {
	v, ok := a.at(i)
	if !ok {
		return nil
	}
	if v.Kind != Vector {
		a.fail(i, fmt.Errorf("want a vector of strings, got %s", v.Kind))
		return nil
	}
	out := make([]string, len(v.Elems))
	for j, e := range v.Elems {
		if e.Kind != String {
			a.fail(i, fmt.Errorf("element %d: want a string, got %s", j+1, e.Kind))
			return nil
		}
		out[j] = e.Text
	}
	return out
}

func (a *args) float(i int) float32 {
	v, ok := a.at(i)
	if !ok {
		return 0
	}
	f, err := v.Float()
	if err != nil {
		a.fail(i, err)
	}
	return f
}

func (a *args) bool(i int) bool {
	v, ok := a.at(i)
	if !ok {
		return false
	}
	if v.Kind != Bool {
		a.fail(i, fmt.Errorf("want true or false, got %s %.40q", v.Kind, v.Text))
	}
	return v.Text == "true"
}

func (a *args) floats(i int) []float32 {
	v, ok := a.at(i)
	if !ok {
		return nil
	}
	if v.Kind == Nil {
		return nil
	}
	if v.Kind != Vector {
		a.fail(i, fmt.Errorf("want a vector, got %s", v.Kind))
		return nil
	}
	out := make([]float32, len(v.Elems))
	for j, e := range v.Elems {
		f, err := e.Float()
		if err != nil {
			a.fail(i, fmt.Errorf("element %d: %w", j+1, err))
			return nil
		}
		out[j] = f
	}
	return out
}

func (a *args) ints(i int) []int {
	v, ok := a.at(i)
	if !ok {
		return nil
	}
	if v.Kind == Nil {
		return nil
	}
	if v.Kind != Vector {
		a.fail(i, fmt.Errorf("want a vector, got %s", v.Kind))
		return nil
	}
	out := make([]int, len(v.Elems))
	for j, e := range v.Elems {
		var n int64
		var err error
		if e.Kind == Name {
			var u uint32
			u, err = e.Enum()
			n = int64(u)
		} else {
			n, err = e.Int()
		}
		if err != nil || n < -1<<31 || n > 1<<32 {
			a.fail(i, fmt.Errorf("element %d: not an integer: %.40q", j+1, e.Text))
			return nil
		}
		out[j] = int(n)
	}
	return out
}

// data reads a byte array or nil.
func (a *args) data(i int) []byte {
	v, ok := a.at(i)
	if !ok {
		return nil
	}
	switch v.Kind {
	case Data:
		return v.Bytes
	case Nil:
		return nil
	}
	a.fail(i, fmt.Errorf("want [N]data or nil, got %s", v.Kind))
	return nil
}

// out allocates an output buffer of the recorded size.
func (a *args) out(i int) []byte {
	n := a.int(i)
	if n < 0 || n > a.p.maxAlloc() {
		a.fail(i, fmt.Errorf("buffer size %d outside 0..%d", n, a.p.maxAlloc()))
		return nil
	}
	return make([]byte, n)
}

// ptr reads a pointer argument: bytes (a client array or data store), an
// integer (a buffer offset or size, bounded by MaxAlloc) or nil.
func (a *args) ptr(i int) any {
	v, ok := a.at(i)
	if !ok {
		return nil
	}
	switch v.Kind {
	case Data:
		return v.Bytes
	case Nil:
		return nil
	case Number:
		n := a.int(i)
		if n > a.p.maxAlloc() {
			a.fail(i, fmt.Errorf("offset or size %d above the replay limit %d", n, a.p.maxAlloc()))
			return 0
		}
		return n
	}
	a.fail(i, fmt.Errorf("want [N]data, an offset or nil, got %s", v.Kind))
	return nil
}

// indices reads DrawElements indices: client bytes become the slice type
// gles takes for typ.
func (a *args) indices(i int, typ gles.Enum) any {
	p := a.ptr(i)
	b, ok := p.([]byte)
	if !ok || typ != gles.UNSIGNED_SHORT {
		return p
	}
	out := make([]uint16, len(b)/2)
	for j := range out {
		out[j] = uint16(b[2*j]) | uint16(b[2*j+1])<<8
	}
	return out
}

// fixed reads a 16.16 fixed-point value written as its raw integer; a name
// is read as its enum value (Fogx FOG_MODE LINEAR passes the enum unscaled).
func (a *args) fixed(i int) gles.Fixed {
	n := a.int(i)
	if n < -1<<31 || n > 1<<31-1 {
		a.fail(i, fmt.Errorf("%d is not a 32-bit fixed-point value", n))
		return 0
	}
	return gles.Fixed(n)
}

func (a *args) fixeds(i int) []gles.Fixed {
	v := a.ints(i)
	if v == nil {
		return nil
	}
	out := make([]gles.Fixed, len(v))
	for j, n := range v {
		if n < -1<<31 || n > 1<<31-1 {
			a.fail(i, fmt.Errorf("element %d: %d is not a 32-bit fixed-point value", j+1, n))
			return nil
		}
		out[j] = gles.Fixed(n)
	}
	return out
}
