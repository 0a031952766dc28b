package glsl

import (
	"math"
	"strconv"
	"strings"
)

// tokKind classifies language tokens.
type tokKind uint8

const (
	tEOF     tokKind = iota
	tIdent           // identifier (also struct type names: the parser decides)
	tInt             // integer literal, value in ival
	tFloat           // floating-point literal, value in fval
	tBool            // true or false, value in ival
	tKeyword         // keyword, including the built-in type names
	tPunct           // operator or punctuation
)

// token is one language token.
type token struct {
	kind tokKind
	text string
	pos  Pos
	ival int32
	fval float32
}

func (t token) is(text string) bool {
	return (t.kind == tKeyword || t.kind == tPunct) && t.text == text
}

// Keywords of GLSL ES 1.00 (section 3.6) and GLSL 1.10/1.20 (section 3.6).
var (
	keywordsCommon = words("attribute const uniform varying break continue do for while if else in out inout " +
		"float int void bool true false discard return mat2 mat3 mat4 vec2 vec3 vec4 ivec2 ivec3 ivec4 " +
		"bvec2 bvec3 bvec4 sampler2D samplerCube struct")
	keywordsES      = words("lowp mediump highp precision invariant")
	keywordsDesktop = words("sampler1D sampler3D sampler1DShadow sampler2DShadow")
	keywords120     = words("centroid invariant mat2x2 mat2x3 mat2x4 mat3x2 mat3x3 mat3x4 mat4x2 mat4x3 mat4x4")

	reservedCommon = words("asm class union enum typedef template this packed goto switch default inline noinline " +
		"volatile public static extern external interface long short double half fixed unsigned input output " +
		"hvec2 hvec3 hvec4 dvec2 dvec3 dvec4 fvec2 fvec3 fvec4 sampler2DRect sampler3DRect sampler2DRectShadow " +
		"sizeof cast namespace using")
	reservedES      = words("flat superp sampler1D sampler3D sampler1DShadow sampler2DShadow")
	reservedDesktop = words("lowp mediump highp precision") // from GLSL 1.20
)

func words(s string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(s) {
		m[w] = true
	}
	return m
}

// isKeyword reports whether name is a keyword of the given version.
func isKeyword(name string, version int) bool {
	if keywordsCommon[name] {
		return true
	}
	if version == 100 {
		return keywordsES[name]
	}
	return keywordsDesktop[name] || version >= 120 && keywords120[name]
}

// isReserved reports whether name is a reserved word of the given version.
func isReserved(name string, version int) bool {
	if reservedCommon[name] {
		return true
	}
	if version == 100 {
		return reservedES[name]
	}
	return version >= 120 && reservedDesktop[name]
}

// lex turns preprocessed tokens into language tokens, validating literals
// and rejecting reserved words and characters outside the character set.
func lex(pp []ppTok, version int, d *diags) []token {
	out := make([]token, 0, len(pp)+1)
	for _, t := range pp {
		tok := token{text: t.text, pos: t.pos}
		switch t.kind {
		case ppIdent:
			switch {
			case t.text == "true" || t.text == "false":
				tok.kind = tBool
				if t.text == "true" {
					tok.ival = 1
				}
			case isKeyword(t.text, version):
				tok.kind = tKeyword
			case isReserved(t.text, version):
				d.errorf(t.pos, "'%s' is a reserved word", t.text)
				tok.kind = tIdent
			default:
				tok.kind = tIdent
			}
		case ppNumber:
			lexNumber(&tok, version, d)
		case ppPunct:
			tok.kind = tPunct
			if t.text == "#" || t.text == "##" {
				d.errorf(t.pos, "unexpected '%s'", t.text)
			}
		default:
			d.errorf(t.pos, "invalid character '%s' in shader source", printable(t.text))
			continue
		}
		out = append(out, tok)
	}
	end := Pos{Line: 1, Col: 1}
	if len(pp) > 0 {
		last := pp[len(pp)-1]
		end = Pos{File: last.pos.File, Line: last.pos.Line, Col: last.pos.Col + len(last.text)}
	}
	return append(out, token{kind: tEOF, text: "end of file", pos: end})
}

func printable(s string) string {
	if q := strconv.Quote(s); q[1:len(q)-1] != s {
		return q[1 : len(q)-1]
	}
	return s
}

// lexNumber validates a pp-number as an integer or floating-point literal
// (GLSL ES 1.00 section 4.1.3 and 4.1.4: decimal, octal and hexadecimal
// integers; floats with a fraction and/or exponent; the f suffix from 1.20).
func lexNumber(t *token, version int, d *diags) {
	s := t.text
	if isIntLiteral(s) {
		t.kind = tInt
		u, err := strconv.ParseUint(s, 0, 64)
		if err != nil || u > math.MaxUint32 {
			d.errorf(t.pos, "integer literal '%s' out of range", s)
			return
		}
		// Values above INT_MAX wrap to negative values as Mesa does: GLSL
		// ints are 32-bit two's complement in this implementation.
		t.ival = int32(uint32(u))
		return
	}
	t.kind = tFloat
	f := s
	// The f suffix is GLSL 1.20's; like Mesa, accept it in 1.10 too (piglit's
	// 1.10 tests use it). GLSL ES 1.00 has no suffix.
	if version != 100 && (strings.HasSuffix(f, "f") || strings.HasSuffix(f, "F")) {
		f = f[:len(f)-1]
	}
	if !isFloatLiteral(f) {
		d.errorf(t.pos, "invalid number '%s'", s)
		return
	}
	v, err := strconv.ParseFloat(f, 32)
	if err != nil && !math.IsInf(v, 0) {
		d.errorf(t.pos, "invalid number '%s'", s)
		return
	}
	if math.IsInf(v, 0) {
		d.warnf(t.pos, "floating-point literal '%s' overflows to infinity", s)
	}
	t.fval = float32(v)
}

func isIntLiteral(s string) bool {
	if len(s) > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X') {
		for i := 2; i < len(s); i++ {
			c := s[i]
			if !isDigit(c) && !(c >= 'a' && c <= 'f') && !(c >= 'A' && c <= 'F') {
				return false
			}
		}
		return true
	}
	for i := 0; i < len(s); i++ {
		if !isDigit(s[i]) {
			return false
		}
		if s[0] == '0' && s[i] > '7' {
			return false
		}
	}
	return true
}

// isFloatLiteral accepts digits "." digits? exponent? | "." digits exponent? |
// digits exponent.
func isFloatLiteral(s string) bool {
	i, n := 0, len(s)
	digits := func() int {
		k := 0
		for i < n && isDigit(s[i]) {
			i++
			k++
		}
		return k
	}
	intPart := digits()
	frac, dot := 0, false
	if i < n && s[i] == '.' {
		dot = true
		i++
		frac = digits()
	}
	if intPart == 0 && frac == 0 {
		return false
	}
	exp := false
	if i < n && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < n && (s[i] == '+' || s[i] == '-') {
			i++
		}
		if digits() == 0 {
			return false
		}
		exp = true
	}
	return i == n && (dot || exp)
}
