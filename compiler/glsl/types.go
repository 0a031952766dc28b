package glsl

import (
	"fmt"
	"strings"
)

// Base is the basic kind of a type.
type Base uint8

// Basic kinds. Invalid marks an expression whose checking already failed, so
// one mistake does not cascade into many messages.
const (
	Invalid Base = iota
	Void
	Bool
	Int
	Float
	Sampler2D
	SamplerCube
	Sampler1D       // desktop GLSL only
	Sampler3D       // desktop GLSL only
	Sampler1DShadow // desktop GLSL only
	Sampler2DShadow // desktop GLSL only
	StructKind
)

var baseNames = [...]string{"<error>", "void", "bool", "int", "float", "sampler2D", "samplerCube",
	"sampler1D", "sampler3D", "sampler1DShadow", "sampler2DShadow", "struct"}

// String returns the name of the Base.
func (b Base) String() string {
	if int(b) < len(baseNames) {
		return baseNames[b]
	}
	return fmt.Sprintf("Base(%d)", b)
}

// IsSampler reports whether b is one of the sampler kinds.
func (b Base) IsSampler() bool { return b >= Sampler2D && b <= Sampler2DShadow }

// Type is a GLSL type. Types are small comparable values: two types are the
// same type exactly when they compare equal (structs compare by identity).
type Type struct {
	Base   Base
	Rows   uint8   // vector size, or matrix row count; 1 for scalars
	Cols   uint8   // matrix column count; 1 for scalars and vectors
	Struct *Struct // for StructKind
	Len    int     // array length; 0 when the type is not an array
}

// Struct is a structure type. Each struct declaration makes a distinct type.
type Struct struct {
	Name   string // "" for an anonymous structure
	Fields []Field
	Pos    Pos
}

// Field is one member of a structure.
type Field struct {
	Name string
	Type Type
	Prec Precision
	Pos  Pos
}

// FieldIndex returns the index of the named field, or -1.
func (s *Struct) FieldIndex(name string) int {
	for i, f := range s.Fields {
		if f.Name == name {
			return i
		}
	}
	return -1
}

// Common types.
var (
	TypeInvalid = Type{}
	TypeVoid    = Type{Base: Void, Rows: 1, Cols: 1}
	TypeBool    = Scalar(Bool)
	TypeInt     = Scalar(Int)
	TypeFloat   = Scalar(Float)
)

// Scalar returns the scalar type of base b.
func Scalar(b Base) Type { return Type{Base: b, Rows: 1, Cols: 1} }

// Vec returns the n-component vector type of base b (n == 1: the scalar).
func Vec(b Base, n int) Type { return Type{Base: b, Rows: uint8(n), Cols: 1} }

// Mat returns the float matrix type with cols columns and rows rows.
func Mat(cols, rows int) Type { return Type{Base: Float, Rows: uint8(rows), Cols: uint8(cols)} }

// ArrayOf returns the array type of n elements of t.
func ArrayOf(t Type, n int) Type { t.Len = n; return t }

// StructType returns the type of structure s.
func StructType(s *Struct) Type { return Type{Base: StructKind, Rows: 1, Cols: 1, Struct: s} }

// IsArray reports whether t is an array type. (While a shader is being
// checked, a desktop GLSL array declared without a size has Len -1; the
// checker sizes it before it returns the tree.)
func (t Type) IsArray() bool { return t.Len != 0 }

// Elem returns the element type of an array type.
func (t Type) Elem() Type { t.Len = 0; return t }

// IsScalar reports whether t is bool, int or float (not an array).
func (t Type) IsScalar() bool {
	return t.Len == 0 && t.Rows == 1 && t.Cols == 1 && (t.Base == Bool || t.Base == Int || t.Base == Float)
}

// IsVector reports whether t is a vector of 2 to 4 components.
func (t Type) IsVector() bool { return t.Len == 0 && t.Cols == 1 && t.Rows > 1 }

// IsMatrix reports whether t is a matrix.
func (t Type) IsMatrix() bool { return t.Len == 0 && t.Cols > 1 }

// IsNumeric reports whether t is an int or float scalar, vector or matrix.
func (t Type) IsNumeric() bool { return t.Len == 0 && (t.Base == Int || t.Base == Float) }

// IsStruct reports whether t is a structure (not an array of them).
func (t Type) IsStruct() bool { return t.Len == 0 && t.Base == StructKind }

// IsSampler reports whether t is a sampler (not an array of them).
func (t Type) IsSampler() bool { return t.Len == 0 && t.Base.IsSampler() }

// IsValid reports whether t is not the error type.
func (t Type) IsValid() bool { return t.Base != Invalid }

// Comps returns the number of components of a scalar, vector or matrix.
func (t Type) Comps() int { return int(t.Rows) * int(t.Cols) }

// Column returns the column type of a matrix.
func (t Type) Column() Type { return Vec(t.Base, int(t.Rows)) }

// ScalarType returns the scalar type of t's base.
func (t Type) ScalarType() Type { return Scalar(t.Base) }

// Size returns the number of scalar components of any type, arrays and
// structures included (the length of a constant Value of type t).
func (t Type) Size() int {
	n := 1
	switch {
	case t.Base == StructKind:
		n = 0
		for _, f := range t.Struct.Fields {
			n += f.Type.Size()
		}
	case t.Base.IsSampler() || t.Base == Void || t.Base == Invalid:
		n = 1
	default:
		n = t.Comps()
	}
	if t.Len > 0 {
		n *= t.Len
	}
	return n
}

// Contains reports whether t is or contains (through arrays and fields) a
// type for which pred holds.
func (t Type) Contains(pred func(Type) bool) bool {
	if pred(t) {
		return true
	}
	if t.Len != 0 {
		return t.Elem().Contains(pred)
	}
	if t.Base == StructKind {
		for _, f := range t.Struct.Fields {
			if f.Type.Contains(pred) {
				return true
			}
		}
	}
	return false
}

// ContainsArray reports whether t is or contains an array.
func (t Type) ContainsArray() bool { return t.Contains(Type.IsArray) }

// ContainsSampler reports whether t is or contains a sampler.
func (t Type) ContainsSampler() bool {
	return t.Contains(func(u Type) bool { return u.Base.IsSampler() })
}

// String returns the GLSL spelling of t ("vec3", "mat2x3", "float[4]", "S").
func (t Type) String() string {
	var s string
	switch {
	case t.Base == StructKind:
		s = t.Struct.Name
		if s == "" {
			s = "struct <anonymous>"
		}
	case t.Cols > 1:
		if t.Cols == t.Rows {
			s = fmt.Sprintf("mat%d", t.Cols)
		} else {
			s = fmt.Sprintf("mat%dx%d", t.Cols, t.Rows)
		}
	case t.Rows > 1:
		s = map[Base]string{Bool: "bvec", Int: "ivec", Float: "vec"}[t.Base] + fmt.Sprint(t.Rows)
	default:
		s = t.Base.String()
	}
	switch {
	case t.Len > 0:
		s += fmt.Sprintf("[%d]", t.Len)
	case t.Len < 0:
		s += "[]"
	}
	return s
}

// Precision is a precision qualifier. PrecNone means none was given or
// applies (bool, struct, void).
type Precision uint8

// Precision qualifiers.
const (
	PrecNone Precision = iota
	Lowp
	Mediump
	Highp
)

// String returns the name of the Precision.
func (p Precision) String() string {
	return [...]string{"", "lowp", "mediump", "highp"}[p]
}

// precisionApplies reports whether a precision qualifier may be given for
// (arrays of) base b: int, float and the samplers (ES 1.00 section 4.5.2).
func precisionApplies(b Base) bool { return b == Int || b == Float || b.IsSampler() }

// typeByName maps the built-in type keywords to types.
func typeByName(name string) (Type, bool) {
	switch name {
	case "void":
		return TypeVoid, true
	case "bool":
		return TypeBool, true
	case "int":
		return TypeInt, true
	case "float":
		return TypeFloat, true
	case "sampler2D":
		return Scalar(Sampler2D), true
	case "samplerCube":
		return Scalar(SamplerCube), true
	case "sampler1D":
		return Scalar(Sampler1D), true
	case "sampler3D":
		return Scalar(Sampler3D), true
	case "sampler1DShadow":
		return Scalar(Sampler1DShadow), true
	case "sampler2DShadow":
		return Scalar(Sampler2DShadow), true
	}
	if n := len(name); n == 4 && strings.HasPrefix(name, "mat") && name[3] >= '2' && name[3] <= '4' {
		k := int(name[3] - '0')
		return Mat(k, k), true
	}
	if len(name) == 6 && strings.HasPrefix(name, "mat") && name[4] == 'x' &&
		name[3] >= '2' && name[3] <= '4' && name[5] >= '2' && name[5] <= '4' {
		return Mat(int(name[3]-'0'), int(name[5]-'0')), true
	}
	for prefix, b := range map[string]Base{"vec": Float, "ivec": Int, "bvec": Bool} {
		if len(name) == len(prefix)+1 && strings.HasPrefix(name, prefix) && name[len(prefix)] >= '2' && name[len(prefix)] <= '4' {
			return Vec(b, int(name[len(prefix)]-'0')), true
		}
	}
	return Type{}, false
}
