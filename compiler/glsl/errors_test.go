package glsl

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// diagnostics compiles src and returns every diagnostic as text.
func diagnostics(t *testing.T, src string, opts Options) []string {
	t.Helper()
	sh, err := Compile(src, opts)
	var out []string
	if err != nil {
		var list ErrorList
		require.ErrorAs(t, err, &list)
		for _, d := range list {
			out = append(out, d.String())
		}
		return out
	}
	for _, d := range sh.Warnings {
		out = append(out, d.String())
	}
	return out
}

var (
	vsES = Options{Stage: StageVertex}
	fsES = Options{Stage: StageFragment}
)

func TestCompileErrors(t *testing.T) {
	tests := []struct {
		name string
		opts Options
		src  string
		want []string
	}{
		// Lexical.
		{"reserved word", vsES, "void main() { int switch; }", []string{"0:1(19): error: 'switch' is a reserved word"}},
		{"invalid number", vsES, "float f = 1e;", []string{"0:1(11): error: invalid number '1e'"}},
		{"integer out of range", vsES, "int i = 4294967296;", []string{"0:1(9): error: integer literal '4294967296' out of range"}},
		{"bad character", vsES, "float $x;", []string{"0:1(7): error: invalid character '$' in shader source"}},
		// Syntax.
		{"missing semicolon", vsES, "void main() {\n  float x = 1.0\n}", []string{"0:3(1): error: syntax error, unexpected '}', expecting ';'"}},
		{"unexpected eof", vsES, "void main() {", []string{"0:1(14): error: syntax error, unexpected end of file, expecting '}'"}},
		{"precision on literal", fsES, "void f() { lowp float x = lowp 1.0; }", []string{"0:1(27): error: syntax error, unexpected 'lowp'"}},
		{"comma in array size", vsES, "float a[1, 2];", []string{"0:1(10): error: syntax error, unexpected ',', expecting ']'"}},
		{"empty struct", vsES, "struct S { };", []string{"0:1(1): error: empty struct declaration"}},
		// Names and scopes.
		{"undeclared", vsES, "void main() { gl_Position = vec4(x); }", []string{"0:1(34): error: undeclared identifier 'x'"}},
		{"redeclaration", vsES, "float x;\nint x;", []string{"0:2(5): error: redeclaration of 'x' (already declared as a variable)"}},
		{"gl_ prefix", vsES, "float gl_x;", []string{"0:1(7): error: identifier 'gl_x' uses reserved prefix 'gl_'"}},
		{"double underscore", vsES, "float a__b;", []string{"0:1(7): warning: identifier 'a__b' contains '__', which is reserved"}},
		{"variable as function", vsES, "float f; void main() { f(); }", []string{"0:1(24): error: 'f' is a variable, not a function"}},
		{"no such function", vsES, "void main() { g(1.0); }", []string{"0:1(15): error: no function with name 'g'"}},
		{"no matching overload", vsES, "void main() { float f = sin(1); }", []string{"0:1(25): error: no matching function for call to 'sin(int)'"}},
		{"type name as value", vsES, "struct S { float a; }; void main() { S; }", []string{"0:1(38): error: 'S' is a type name, not a variable"}},
		{"unknown type", vsES, "T t;", []string{"0:1(1): error: unknown type 'T'"}},
		// Types and operators.
		{"int plus float", vsES, "void main() { float f = 1.0 + 2; }", []string{"0:1(29): error: operator '+' requires operands of the same base type, not 'float' and 'int'"}},
		{"modulus reserved", vsES, "void main() { int i = 5 % 2; }", []string{"0:1(25): error: operator '%' is reserved in GLSL 1.00 ES"}},
		{"shift assign reserved", vsES, "void main() { int i = 5; i <<= 2; }", []string{"0:1(28): error: operator '<<=' is reserved in GLSL 1.00 ES"}},
		{"not on float", vsES, "void main() { bool b = !1.0; }", []string{"0:1(24): error: operator '!' requires a bool operand, not 'float'"}},
		{"relational on vectors", vsES, "void main() { bool b = vec2(1.0) < vec2(2.0); }", []string{"0:1(34): error: operator '<' requires int or float scalar operands of the same type, not 'vec2' and 'vec2'"}},
		{"if on int", vsES, "void main() { if (1) {} }", []string{"0:1(19): error: the condition of 'if' must be a bool, not 'int'"}},
		{"ternary mismatch", vsES, "void main() { float f = true ? 1.0 : 2; }", []string{"0:1(30): error: the operands of '?:' must have the same type, not 'float' and 'int'"}},
		{"swizzle out of range", vsES, "void main() { vec2 v; float f = v.z; }", []string{"0:1(35): error: swizzle 'z' selects a component beyond 'vec2'"}},
		{"no such field", vsES, "struct S { float a; }; void main() { S s; float f = s.b; }", []string{"0:1(55): error: 'S' has no field 'b'"}},
		{"index non-int", vsES, "uniform vec4 u[2]; void main() { gl_Position = u[1.0]; }", []string{"0:1(50): error: array index must be an int, not 'float'"}},
		{"negative index", vsES, "uniform vec4 u[2]; void main() { gl_Position = u[-1]; }", []string{"0:1(50): error: index -1 is out of range for 'vec4[2]' (0 to 1)"}},
		{"vector index out of range", vsES, "void main() { vec3 v; float f = v[3]; }", []string{"0:1(35): error: index 3 is out of range for 'vec3' (0 to 2)"}},
		{"assign array", vsES, "void main() { float a[2]; float b[2]; a = b; }", []string{"0:1(41): error: arrays cannot be assigned in GLSL 1.00 ES"}},
		{"assign type", vsES, "void main() { vec3 v = vec3(1.0); v = vec4(1.0); }", []string{"0:1(37): error: cannot assign a value of type 'vec4' to 'v' of type 'vec3'"}},
		{"compound result type", vsES, "void main() { float f; f *= vec2(1.0); }", []string{"0:1(26): error: operator '*=' gives a 'vec2', which cannot be assigned to 'float'"}},
		{"increment bool", vsES, "void main() { bool b; b++; }", []string{"0:1(24): error: operator '++' cannot be applied to type 'bool'"}},
		{"ctor of sampler", fsES, "uniform sampler2D s; void main() { sampler2D(s); }", []string{"0:1(36): error: cannot construct a value of type 'sampler2D'"}},
		{"scalar ctor two args", vsES, "void main() { float f = float(1.0, 2.0); }", []string{"0:1(36): error: too many arguments to constructor 'float'"}},
		{"matrix from matrix and more", vsES, "void main() { mat2 m = mat2(mat2(1.0), 1.0); }", []string{"0:1(29): error: a matrix constructed from a matrix takes only that argument"}},
		{"struct ctor count", vsES, "struct S { float a; float b; }; void main() { S s = S(1.0); }", []string{"0:1(53): error: constructor of structure 'S' needs 2 arguments, not 1"}},
		// Storage and qualifiers.
		{"write attribute", vsES, "attribute vec4 a; void main() { a = vec4(1.0); }", []string{"0:1(35): error: invalid assignment: attribute 'a' is read-only"}},
		{"write varying in fs", fsES, "varying lowp vec4 v; void main() { v.x = 1.0; }", []string{"0:1(40): error: invalid assignment: varying 'v' is read-only in a fragment shader"}},
		{"out argument from uniform", vsES, "uniform float u; void f(out float x) { x = 1.0; } void main() { f(u); }", []string{"0:1(67): error: invalid out argument 1 of 'f': uniform 'u' is read-only"}},
		{"local uniform", vsES, "void main() { uniform float u; }", []string{"0:1(15): error: 'uniform' variables must be declared at global scope"}},
		{"attribute in fragment", Options{Stage: StageFragment}, "precision mediump float; attribute vec4 a;", []string{"0:1(41): error: attributes can only be declared in vertex shaders"}},
		{"invariant non-varying", vsES, "uniform vec4 u; invariant u;", []string{"0:1(27): error: 'u' cannot be declared invariant"}},
		{"invariant local", vsES, "void main() { invariant gl_Position; }", []string{"0:1(15): error: invariant declarations are allowed only at global scope"}},
		{"global initializer ES", vsES, "uniform float u; float g = u;", []string{"0:1(28): error: initializer of global variable 'g' must be a constant expression"}},
		{"const initializer", vsES, "uniform float u; const float c = u * 2.0;", []string{"0:1(34): error: initializer of const 'c' must be a constant expression"}},
		// Precision.
		{"fragment float needs precision", fsES, "void main() { float f; }", []string{"0:1(21): error: no precision specified for 'f' (no default precision for type 'float' in this scope)"}},
		{"precision on bool", fsES, "void main() { lowp bool b; }", []string{"0:1(15): error: precision qualifiers apply only to int, float and sampler types, not 'bool'"}},
		{"default precision vec", fsES, "precision lowp vec4;", []string{"0:1(16): error: default precision statements apply only to int, float and sampler types, not 'vec4'"}},
		{"highp disabled", Options{Stage: StageFragment, DisableFragmentHighp: true}, "highp float f;", []string{"0:1(1): error: highp precision is not supported in fragment shaders"}},
		// Functions.
		{"redefinition", vsES, "void f() {}\nvoid f() {}", []string{"0:2(6): error: function 'void f()' is already defined"}},
		{"second prototype", vsES, "void f();\nvoid f();", []string{"0:2(6): error: function 'void f()' is already declared"}},
		{"return type differs", vsES, "void f();\nfloat f() { return 1.0; }", []string{"0:2(7): error: function 'f' redeclared with a different return type"}},
		{"qualifier differs", vsES, "void f(in float x);\nvoid f(out float x) { x = 1.0; }", []string{"0:2(18): error: parameter 1 of 'f' redeclared with different qualifiers"}},
		{"redefine builtin", vsES, "vec4 texture2D(sampler2D s, vec2 c) { return vec4(0.0); }", []string{"0:1(6): error: cannot redefine built-in function 'vec4 texture2D(sampler2D, vec2)'"}},
		{"missing return value", vsES, "float f() { return; }", []string{"0:1(13): error: function 'f' must return a value of type 'float'"}},
		{"static recursion", vsES, "void f() { f(); }", []string{"0:1(6): error: recursion is not allowed: f -> f"}},
		{"main with params", vsES, "void main(float x) {}", []string{"0:1(6): error: function 'main' cannot take parameters"}},
		{"sampler out param", fsES, "void f(out sampler2D s) {}", []string{"0:1(8): error: sampler parameters must be 'in' parameters"}},
		{"const out param", vsES, "void f(const out float x) {}", []string{"0:1(8): error: 'const' cannot be used with 'out' parameters"}},
		{"texture lod in fragment", fsES, "precision mediump float; uniform sampler2D s; void main() { gl_FragColor = texture2DLod(s, vec2(0.0), 0.0); }", []string{"0:1(76): error: no function with name 'texture2DLod'"}},
		{"bias in vertex", vsES, "uniform sampler2D s; void main() { gl_Position = texture2D(s, vec2(0.0), 1.0); }", []string{"0:1(50): error: no matching function for call to 'texture2D(sampler2D, vec2, float)'"}},
		{"discard in vertex", vsES, "void main() { discard; }", []string{"0:1(15): error: 'discard' is allowed only in fragment shaders"}},
		// Warnings only.
		{"integer division by zero", vsES, "void main() { int i = 1 / 0; }", []string{"0:1(25): warning: integer division by zero"}},
		{"empty declaration", vsES, "float;", []string{"0:1(1): warning: empty declaration"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, diagnostics(t, tc.src, tc.opts))
		})
	}
}

func TestErrorListFormat(t *testing.T) {
	_, err := Compile("void main() {\n  x = 1;\n  y = 2;\n}", vsES)
	require.Error(t, err)
	assert.Equal(t, "0:2(3): error: undeclared identifier 'x'\n0:3(3): error: undeclared identifier 'y'", err.Error())
}

func TestErrorsAreBounded(t *testing.T) {
	src := "void main() {\n"
	for i := 0; i < 500; i++ {
		src += "x = 1;\n"
	}
	_, err := Compile(src+"}", vsES)
	var list ErrorList
	require.ErrorAs(t, err, &list)
	assert.Len(t, list, maxDiagnostics)
}

// TestStatementScopeAndReturnRules pins two rules of chapter 6 the front
// end once missed, with their limits.
func TestStatementScopeAndReturnRules(t *testing.T) {
	vs110 := Options{Stage: StageVertex, Version: 110}
	tests := []struct {
		name string
		opts Options
		src  string
		want []string
	}{
		// Section 6.1: no structure that contains an array as a return type.
		{"return a structure that contains an array", vsES, "struct S { float a[2]; };\nS f() { S s; return s; }",
			[]string{"0:2(1): error: function 'f' cannot return a structure that contains an array"}},
		{"prototype returning a structure with an array", vsES, "struct S { float a[2]; };\nS f();",
			[]string{"0:2(1): error: function 'f' cannot return a structure that contains an array"}},
		{"array in a nested structure", vsES, "struct T { float a[2]; };\nstruct S { T t; };\nS f() { S s; return s; }",
			[]string{"0:3(1): error: function 'f' cannot return a structure that contains an array"}},
		{"structure without an array", vsES, "struct S { float a; };\nS f() { S s; return s; }", nil},
		{"desktop GLSL allows it", vs110, "struct S { float a[2]; };\nS f() { S s; return s; }", nil},
		// Section 6.3: the body of a for or while loop opens no scope.
		{"redeclare the for-loop variable in the body", vsES, "void main() {\n  for (int i = 0; i < 2; i++) {\n    int i = 1;\n  }\n}",
			[]string{"0:3(9): error: redeclaration of 'i' (already declared as a variable)"}},
		{"redeclare in a simple body", vsES, "void main() {\n  for (int i = 0; i < 2; i++)\n    int i = 1;\n}",
			[]string{"0:3(9): error: redeclaration of 'i' (already declared as a variable)"}},
		{"redeclare the while condition variable", vsES, "void main() {\n  while (bool b = false) {\n    float b = 1.0;\n  }\n}",
			[]string{"0:3(11): error: redeclaration of 'b' (already declared as a variable)"}},
		{"desktop GLSL too", vs110, "void main() {\n  for (int i = 0; i < 2; i++) {\n    int i = 1;\n  }\n}",
			[]string{"0:3(9): error: redeclaration of 'i' (already declared as a variable)"}},
		{"a nested block opens a scope", vsES, "void main() {\n  for (int i = 0; i < 2; i++) {\n    { int i = 1; }\n  }\n}", nil},
		{"a do-while body opens a scope", vsES, "void main() {\n  int i = 0;\n  do {\n    float i = 1.0;\n  } while (false);\n}", nil},
		{"a while body may hide an outer variable", vsES, "void main() {\n  bool b = false;\n  while (b) {\n    float b = 1.0;\n  }\n}", nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, diagnostics(t, tc.src, tc.opts))
		})
	}
}
