package trace

import (
	"bufio"
	"encoding/base64"
	"fmt"
	"io"
	"strconv"

	"github.com/retrogl/retrogl/gles"
)

// WriteTo writes t in the text format Parse reads: the magic line, the
// Surface line and one line per call (line numbers and comments are not
// kept). Programs that build or edit traces (the differential tester's
// generator and reducer) write them with it.
func (t *Trace) WriteTo(w io.Writer) (int64, error) {
	bw := bufio.NewWriter(w)
	cw := &countWriter{w: bw}
	fmt.Fprintf(cw, "%s\nSurface %d %d %d %d\n", Magic, t.Width, t.Height, t.DepthBits, t.StencilBits)
	var b []byte
	for i := range t.Calls {
		b = t.Calls[i].AppendText(b[:0])
		b = append(b, '\n')
		cw.Write(b)
	}
	if cw.err == nil {
		cw.err = bw.Flush()
	}
	if cw.err != nil {
		return cw.n, fmt.Errorf("trace: write: %w", cw.err)
	}
	return cw.n, nil
}

type countWriter struct {
	w   io.Writer
	n   int64
	err error
}

func (c *countWriter) Write(p []byte) (int, error) {
	if c.err != nil {
		return 0, c.err
	}
	n, err := c.w.Write(p)
	c.n += int64(n)
	c.err = err
	return n, err
}

// AppendText appends the call's line (without a newline) to b.
func (c *Call) AppendText(b []byte) []byte {
	b = append(b, c.Name...)
	for _, v := range c.Args {
		b = append(b, ' ')
		b = v.AppendText(b)
	}
	if c.Result != nil {
		b = append(b, " = "...)
		b = c.Result.AppendText(b)
	}
	return b
}

// String returns the call's line.
func (c *Call) String() string { return string(c.AppendText(nil)) }

// AppendText appends the value as a trace writes it.
func (v Value) AppendText(b []byte) []byte {
	switch v.Kind {
	case Vector:
		b = append(b, '{')
		for i, e := range v.Elems {
			if i > 0 {
				b = append(b, ' ')
			}
			b = e.AppendText(b)
		}
		return append(b, '}')
	case Data:
		b = append(b, '[')
		b = strconv.AppendInt(b, int64(len(v.Bytes)), 10)
		b = append(b, ']')
		return base64.StdEncoding.AppendEncode(b, v.Bytes)
	case Nil:
		return append(b, "nil"...)
	case String:
		return strconv.AppendQuote(b, v.Text)
	}
	return append(b, v.Text...)
}

// The constructors below build values as the recorder writes them, for
// programs that make traces without recording a context.

// IntValue is an integer Number.
func IntValue(n int64) Value { return Value{Kind: Number, Text: strconv.FormatInt(n, 10)} }

// FloatValue is a float Number in the shortest form that reads back to f.
func FloatValue(f float32) Value { return Value{Kind: Number, Text: string(appendFloat(nil, f))} }

// EnumValue is the Name a trace writes for e (see Recorder): ZERO and ONE
// for 0 and 1, else e's first gles name, else e in hex.
func EnumValue(e gles.Enum) Value {
	switch e {
	case 0:
		return Value{Kind: Name, Text: "ZERO"}
	case 1:
		return Value{Kind: Name, Text: "ONE"}
	}
	return Value{Kind: Name, Text: string(appendEnum(nil, e))}
}

// BoolValue is true or false.
func BoolValue(x bool) Value { return Value{Kind: Bool, Text: strconv.FormatBool(x)} }

// FloatsValue is a vector of floats.
func FloatsValue(fs ...float32) Value {
	v := Value{Kind: Vector, Elems: make([]Value, len(fs))}
	for i, f := range fs {
		v.Elems[i] = FloatValue(f)
	}
	return v
}

// IntsValue is a vector of integers.
func IntsValue(ns ...int64) Value {
	v := Value{Kind: Vector, Elems: make([]Value, len(ns))}
	for i, n := range ns {
		v.Elems[i] = IntValue(n)
	}
	return v
}

// DataValue is a byte array; nil gives the value nil.
func DataValue(p []byte) Value {
	if p == nil {
		return Value{Kind: Nil}
	}
	return Value{Kind: Data, Bytes: p}
}
