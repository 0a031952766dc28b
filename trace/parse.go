package trace

import (
	"bufio"
	"encoding/base64"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// Kind is the syntactic kind of a Value.
type Kind uint8

// The value kinds of the trace format.
const (
	Number Kind = iota // 12, -3, 0x1F, 0.5, NaN, +Inf
	Name               // DEPTH_TEST, COLOR_BUFFER_BIT|DEPTH_BUFFER_BIT
	Bool               // true, false
	Vector             // {1 0 0 1}
	Data               // [N]base64
	Nil                // nil
	String             // "a Go-quoted string"
)

var kindNames = [...]string{"number", "name", "bool", "vector", "data", "nil", "string"}

// String returns the kind's name.
func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return fmt.Sprintf("Kind(%d)", uint8(k))
}

// Value is one argument or result as written in a trace.
type Value struct {
	Kind Kind
	// Text is the token of a Number, Name or Bool, and the unquoted text
	// of a String.
	Text string
	// Elems are a Vector's elements.
	Elems []Value
	// Bytes are a Data value's bytes.
	Bytes []byte
}

// Call is one line of a trace: an entry point and its arguments.
type Call struct {
	// Line is the 1-based line number in the trace.
	Line int
	// Name is the entry point without the gl prefix.
	Name string
	// Args are the arguments in order.
	Args []Value
	// Result is the recorded return value, if any.
	Result *Value
}

// Trace is a parsed trace.
type Trace struct {
	// Width, Height, DepthBits and StencilBits are the Surface line.
	Width, Height, DepthBits, StencilBits int
	// ES2 is set when the Surface line ends with ES2: the calls are
	// GL ES 2.0 calls, played on an ES 2.0 context.
	ES2 bool
	// Calls are the call lines in order.
	Calls []Call
}

// maxLine bounds one line of a trace (a texture with its mipmaps in
// base64); longer lines are an error rather than an unbounded allocation.
const maxLine = 64 << 20

// Parse reads a whole trace.
func Parse(r io.Reader) (*Trace, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), maxLine)
	t := &Trace{}
	n := 0
	sawSurface := false
	for sc.Scan() {
		n++
		text := sc.Text()
		if n == 1 {
			if strings.TrimSpace(text) != Magic {
				return nil, fmt.Errorf("trace: line 1: want %q, got %.40q", Magic, text)
			}
			continue
		}
		c, err := ParseLine(text)
		if err != nil {
			return nil, fmt.Errorf("trace: line %d: %w", n, err)
		}
		if c == nil {
			continue
		}
		c.Line = n
		if c.Name == "Surface" {
			if sawSurface || len(t.Calls) > 0 {
				return nil, fmt.Errorf("trace: line %d: the Surface line must come once, before any call", n)
			}
			if err := t.surface(c); err != nil {
				return nil, fmt.Errorf("trace: line %d: %w", n, err)
			}
			sawSurface = true
			continue
		}
		t.Calls = append(t.Calls, *c)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("trace: line %d: %w", n+1, err)
	}
	if n == 0 {
		return nil, fmt.Errorf("trace: empty, want %q", Magic)
	}
	if !sawSurface {
		return nil, fmt.Errorf("trace: no Surface line")
	}
	return t, nil
}

func (t *Trace) surface(c *Call) error {
	args := c.Args
	if len(args) == 5 && args[4].Kind == Name && args[4].Text == "ES2" {
		t.ES2, args = true, args[:4]
	}
	if len(args) != 4 {
		return fmt.Errorf("the Surface line takes 4 numbers (width height depth stencil) and ES2 for a GL ES 2.0 context, got %d values", len(c.Args))
	}
	dst := []*int{&t.Width, &t.Height, &t.DepthBits, &t.StencilBits}
	for i, v := range args {
		n, err := v.Int()
		if err != nil || n < 0 || n > 1<<14 {
			return fmt.Errorf("the Surface line's value %d: %q is not a size 0..16384", i+1, v.Text)
		}
		*dst[i] = int(n)
	}
	return nil
}

// ParseLine parses one line; a blank or comment line gives nil.
func ParseLine(s string) (*Call, error) {
	p := lexer{s: s}
	p.space()
	if p.eof() {
		return nil, nil
	}
	name := p.word()
	if name == "" || !isIdent(name) {
		return nil, fmt.Errorf("want a call name, got %.40q", s)
	}
	c := &Call{Name: name}
	for {
		p.space()
		if p.eof() {
			return c, nil
		}
		if p.s[p.i] == '=' {
			p.i++
			p.space()
			v, err := p.value()
			if err != nil {
				return nil, fmt.Errorf("%s result: %w", name, err)
			}
			p.space()
			if !p.eof() {
				return nil, fmt.Errorf("%s: text after the result: %.40q", name, p.s[p.i:])
			}
			c.Result = &v
			return c, nil
		}
		v, err := p.value()
		if err != nil {
			return nil, fmt.Errorf("%s argument %d: %w", name, len(c.Args)+1, err)
		}
		c.Args = append(c.Args, v)
	}
}

func isIdent(s string) bool {
	for i, r := range s {
		if !(r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || i > 0 && r >= '0' && r <= '9') {
			return false
		}
	}
	return s != ""
}

type lexer struct {
	s string
	i int
}

// eof reports the end of the line; a comment ends it too.
func (p *lexer) eof() bool { return p.i >= len(p.s) || p.s[p.i] == '#' }

func (p *lexer) space() {
	for p.i < len(p.s) && (p.s[p.i] == ' ' || p.s[p.i] == '\t' || p.s[p.i] == '\r') {
		p.i++
	}
}

// word returns the run up to a blank, brace or '='.
func (p *lexer) word() string {
	j := p.i
	for p.i < len(p.s) && !strings.ContainsRune(" \t\r{}=#", rune(p.s[p.i])) {
		p.i++
	}
	return p.s[j:p.i]
}

func (p *lexer) value() (Value, error) {
	if p.eof() {
		return Value{}, fmt.Errorf("missing value")
	}
	switch c := p.s[p.i]; c {
	case '{':
		p.i++
		v := Value{Kind: Vector, Elems: []Value{}}
		for {
			p.space()
			if p.i >= len(p.s) || p.s[p.i] == '#' {
				return Value{}, fmt.Errorf("vector without '}'")
			}
			if p.s[p.i] == '}' {
				p.i++
				return v, nil
			}
			if p.s[p.i] == '{' {
				return Value{}, fmt.Errorf("nested vector")
			}
			e, err := p.value()
			if err != nil {
				return Value{}, err
			}
			v.Elems = append(v.Elems, e)
		}
	case '"':
		j := p.i + 1
		for j < len(p.s) && p.s[j] != '"' {
			if p.s[j] == '\\' {
				j++
			}
			j++
		}
		if j >= len(p.s) {
			return Value{}, fmt.Errorf("unterminated string")
		}
		s, err := strconv.Unquote(p.s[p.i : j+1])
		if err != nil {
			return Value{}, fmt.Errorf("string %.40s: %w", p.s[p.i:j+1], err)
		}
		p.i = j + 1
		return Value{Kind: String, Text: s}, nil
	case '[':
		end := strings.IndexByte(p.s[p.i:], ']')
		if end < 0 {
			return Value{}, fmt.Errorf("data without ']'")
		}
		n, err := strconv.Atoi(p.s[p.i+1 : p.i+end])
		if err != nil || n < 0 {
			return Value{}, fmt.Errorf("data size %q", p.s[p.i+1:p.i+end])
		}
		p.i += end + 1
		j := p.i
		for p.i < len(p.s) && p.s[p.i] != ' ' && p.s[p.i] != '\t' && p.s[p.i] != '\r' {
			p.i++
		}
		enc := p.s[j:p.i]
		if base64.StdEncoding.DecodedLen(len(enc)) < n || base64.StdEncoding.EncodedLen(n) != len(enc) {
			return Value{}, fmt.Errorf("data [%d] has %d base64 characters, want %d", n, len(enc), base64.StdEncoding.EncodedLen(n))
		}
		b, err := base64.StdEncoding.DecodeString(enc)
		if err != nil {
			return Value{}, fmt.Errorf("data [%d]: %w", n, err)
		}
		if len(b) != n {
			return Value{}, fmt.Errorf("data [%d] decodes to %d bytes", n, len(b))
		}
		return Value{Kind: Data, Bytes: b}, nil
	case '}', '=':
		return Value{}, fmt.Errorf("unexpected %q", c)
	}
	w := p.word()
	switch {
	case w == "true" || w == "false":
		return Value{Kind: Bool, Text: w}, nil
	case w == "nil":
		return Value{Kind: Nil}, nil
	case w == "NaN" || w == "+Inf" || w == "-Inf" || w[0] >= '0' && w[0] <= '9' || w[0] == '-' || w[0] == '+' || w[0] == '.':
		if _, err := strconv.ParseFloat(w, 64); err != nil {
			if _, err := strconv.ParseInt(w, 0, 64); err != nil {
				return Value{}, fmt.Errorf("bad number %.40q", w)
			}
		}
		return Value{Kind: Number, Text: w}, nil
	}
	for _, part := range strings.Split(w, "|") {
		if !isIdent(part) && !isNumber(part) {
			return Value{}, fmt.Errorf("bad name %.40q", w)
		}
	}
	return Value{Kind: Name, Text: w}, nil
}

func isNumber(s string) bool {
	_, err := strconv.ParseInt(s, 0, 64)
	return err == nil
}

// Int reads a Number as an integer (decimal or 0x hex).
func (v Value) Int() (int64, error) {
	if v.Kind != Number {
		return 0, fmt.Errorf("want a number, got %s %.40q", v.Kind, v.Text)
	}
	n, err := strconv.ParseInt(v.Text, 0, 64)
	if err != nil {
		return 0, fmt.Errorf("want an integer, got %.40q", v.Text)
	}
	return n, nil
}

// Float reads a Number as a float32.
func (v Value) Float() (float32, error) {
	if v.Kind != Number {
		return 0, fmt.Errorf("want a number, got %s %.40q", v.Kind, v.Text)
	}
	f, err := strconv.ParseFloat(v.Text, 32)
	if err != nil {
		if n, ierr := strconv.ParseInt(v.Text, 0, 64); ierr == nil {
			return float32(n), nil
		}
		return 0, fmt.Errorf("want a float, got %.40q", v.Text)
	}
	return float32(f), nil
}

// Enum reads a Name (names joined by "|" are or-ed) or a Number as an
// enumerant.
func (v Value) Enum() (uint32, error) {
	switch v.Kind {
	case Number:
		n, err := v.Int()
		if err != nil || n < 0 || n > 0xFFFFFFFF {
			return 0, fmt.Errorf("want an enum, got %.40q", v.Text)
		}
		return uint32(n), nil
	case Name:
		var out uint32
		for _, part := range strings.Split(v.Text, "|") {
			if e, ok := enumValue[part]; ok {
				out |= uint32(e)
				continue
			}
			n, err := strconv.ParseUint(part, 0, 32)
			if err != nil {
				return 0, fmt.Errorf("unknown enum %.40q", part)
			}
			out |= uint32(n)
		}
		return out, nil
	}
	return 0, fmt.Errorf("want an enum, got %s", v.Kind)
}
