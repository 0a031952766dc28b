package glsl

import (
	"math"
	"strconv"
	"strings"
)

// Value is a compile-time constant of any type. C holds every scalar
// component in GL order (vector x..w, matrices column by column, arrays
// element by element, structures field by field). Each component is stored
// as a float64 that holds the exact GLSL value: a float32 value for float
// components, an int32 for int components, 0 or 1 for bool components.
type Value struct {
	Type Type
	C    []float64
}

// Float returns component i as a float32.
func (v Value) Float(i int) float32 { return float32(v.C[i]) }

// Int returns component i as an int32.
func (v Value) Int(i int) int32 { return int32(v.C[i]) }

// Bool returns component i as a bool.
func (v Value) Bool(i int) bool { return v.C[i] != 0 }

// splat returns a Value of type t with every component equal to c.
func splat(t Type, c float64) Value {
	v := Value{Type: t, C: make([]float64, t.Size())}
	for i := range v.C {
		v.C[i] = c
	}
	return v
}

func floatValue(f float32) Value { return Value{Type: TypeFloat, C: []float64{float64(f)}} }
func intValue(i int32) Value     { return Value{Type: TypeInt, C: []float64{float64(i)}} }
func boolValue(b bool) Value     { return Value{Type: TypeBool, C: []float64{b2f(b)}} }

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

// roundTo rounds an exact result to the representation of base b: float32
// rounding for floats, 32-bit two's complement wrap for ints.
func roundTo(b Base, x float64) float64 {
	switch b {
	case Float:
		return float64(float32(x))
	case Int:
		return float64(toInt32(x))
	case Bool:
		return b2f(x != 0)
	}
	return x
}

// toInt32 converts like GLSL's int(float): truncation toward zero. Values
// outside the int range are undefined in GLSL; this implementation saturates
// (NaN gives 0) so folding is deterministic on every machine.
func toInt32(x float64) int32 {
	switch {
	case math.IsNaN(x):
		return 0
	case x >= math.MaxInt32:
		if x < 1<<32 && x == math.Trunc(x) {
			return int32(uint32(x)) // wrap exact 32-bit patterns from int arithmetic
		}
		return math.MaxInt32
	case x <= math.MinInt32:
		return math.MinInt32
	}
	return int32(x)
}

// convertComp converts one component from base from to base to, as a
// constructor does (section 5.4.1).
func convertComp(x float64, from, to Base) float64 {
	switch to {
	case Bool:
		return b2f(x != 0)
	case Int:
		if from == Float {
			return float64(toInt32(x))
		}
		return x
	case Float:
		return float64(float32(x))
	}
	return x
}

// String renders the value in GLSL syntax: 1.5, 3, true, vec2(1.0, 2.0),
// S(1.0, vec2(0.0, 0.0)), float[2](1.0, 2.0).
func (v Value) String() string {
	var b strings.Builder
	i := 0
	writeValue(&b, v.Type, v.C, &i)
	return b.String()
}

func writeValue(b *strings.Builder, t Type, c []float64, i *int) {
	comp := func(base Base) {
		if *i >= len(c) {
			b.WriteString("?")
			return
		}
		x := c[*i]
		*i++
		switch base {
		case Bool:
			b.WriteString(strconv.FormatBool(x != 0))
		case Int:
			b.WriteString(strconv.FormatInt(int64(int32(x)), 10))
		default:
			b.WriteString(formatFloat(float32(x)))
		}
	}
	switch {
	case t.Len > 0:
		b.WriteString(t.String())
		b.WriteByte('(')
		for k := 0; k < t.Len; k++ {
			if k > 0 {
				b.WriteString(", ")
			}
			writeValue(b, t.Elem(), c, i)
		}
		b.WriteByte(')')
	case t.Base == StructKind:
		b.WriteString(t.String())
		b.WriteByte('(')
		for k, f := range t.Struct.Fields {
			if k > 0 {
				b.WriteString(", ")
			}
			writeValue(b, f.Type, c, i)
		}
		b.WriteByte(')')
	case t.Comps() == 1:
		comp(t.Base)
	default:
		b.WriteString(t.String())
		b.WriteByte('(')
		for k := 0; k < t.Comps(); k++ {
			if k > 0 {
				b.WriteString(", ")
			}
			comp(t.Base)
		}
		b.WriteByte(')')
	}
}

// formatFloat prints a float32 so that it reads back as the same value and
// always looks like a float literal.
func formatFloat(f float32) string {
	switch {
	case math.IsInf(float64(f), 1):
		return "inf"
	case math.IsInf(float64(f), -1):
		return "-inf"
	case math.IsNaN(float64(f)):
		return "nan"
	}
	s := strconv.FormatFloat(float64(f), 'g', -1, 32)
	if !strings.ContainsAny(s, ".e") {
		s += ".0"
	}
	return s
}

// slice returns components [from, from+n) as a value of type t.
func (v Value) slice(t Type, from int) Value {
	n := t.Size()
	return Value{Type: t, C: append([]float64(nil), v.C[from:from+n]...)}
}

// elemOffset returns the component offset of array element, matrix column
// or vector component k of a value of type t, and the type found there.
func elemOffset(t Type, k int) (int, Type) {
	switch {
	case t.Len > 0:
		e := t.Elem()
		return k * e.Size(), e
	case t.IsMatrix():
		return k * int(t.Rows), t.Column()
	default:
		return k, t.ScalarType()
	}
}

// fieldOffset returns the component offset of field k of structure type t.
func fieldOffset(t Type, k int) int {
	off := 0
	for i := 0; i < k; i++ {
		off += t.Struct.Fields[i].Type.Size()
	}
	return off
}
