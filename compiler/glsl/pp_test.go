package glsl

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// ppText runs the preprocessor and renders its output tokens separated by
// single spaces, with the diagnostics.
func ppText(src string, opts Options) (string, []string) {
	d := &diags{}
	res := preprocess(src, &opts, d)
	var toks []string
	for _, t := range res.toks {
		toks = append(toks, t.text)
	}
	var msgs []string
	for _, m := range d.sorted() {
		msgs = append(msgs, m.String())
	}
	return strings.Join(toks, " "), msgs
}

func TestPreprocessorExpansion(t *testing.T) {
	tests := []struct {
		name, src, want string
	}{
		{"object macro", "#define N 4\nfloat a[N];", "float a [ 4 ] ;"},
		{"function macro", "#define SQ(x) ((x)*(x))\nSQ(a+1)", "( ( a + 1 ) * ( a + 1 ) )"},
		{"nested arguments", "#define F(a, b) a - b\nF((1, 2), g(3, 4))", "( 1 , 2 ) - g ( 3 , 4 )"},
		{"arguments expanded first", "#define ONE 1\n#define ID(x) x\nID(ONE)", "1"},
		{"function macro without call", "#define F(x) x\nF + 1", "F + 1"},
		{"name space before paren is object-like", "#define F (x)\nF", "( x )"},
		{"self reference", "#define x x + 1\nx", "x + 1"},
		{"mutual recursion", "#define A B\n#define B A\nA B", "A B"},
		{"rescan with following text", "#define f(a) a + 1\n#define g f\ng(2)", "2 + 1"},
		{"invocation across lines", "#define F(a, b) a b\nF(1,\n2)", "1 2"},
		{"empty arguments", "#define E()\n#define G(a) [a]\nE() G()", "[ ]"},
		{"undef", "#define A 1\n#undef A\nA", "A"},
		{"__LINE__ in body uses invocation line", "#define L __LINE__\n\nL", "3"},
		{"__FILE__ and __VERSION__", "#version 100\n#line 1 7\n__FILE__ __VERSION__", "7 100"},
		{"GL_ES defined in ES", "#ifdef GL_ES\nes\n#endif", "es"},
		{"GL_ES undefined in 1.10", "#version 110\n#ifdef GL_ES\nes\n#else\ndesktop\n#endif", "desktop"},
		{"elif chain", "#define V 3\n#if V == 1\na\n#elif V == 3\nb\n#elif 1/0\nc\n#else\nd\n#endif", "b"},
		{"nested skipped groups", "#if 0\n#if 1\na\n#else\nb\n#endif\n#else\nc\n#endif", "c"},
		{"defined forms", "#define X\n#if defined X && defined(X) && !defined Y\nok\n#endif", "ok"},
		{"if arithmetic", "#if (3 * 4 - 2) / 5 == 2 && (1 << 4) == 16 && ~0 == -1 && 0x1f == 31 && 010 == 8\nok\n#endif", "ok"},
		{"short circuit", "#if 0 && 1 / 0\nbad\n#else\nok\n#endif", "ok"},
		{"line continuation", "#define LONG 1 + \\\n 2\nLONG", "1 + 2"},
		{"block comment joins directive", "#define C 1 /* a\n b */ + 2\nC", "1 + 2"},
		{"pragma ignored", "#pragma optimize(off)\n#pragma whatever\nx", "x"},
		{"null directive", "#\nx", "x"},
		{"benign redefinition", "#define A(x)  x+1\n#define A(x) x+1\nA(2)", "2 + 1"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, msgs := ppText(tc.src, Options{})
			assert.Empty(t, msgs)
			assert.Equal(t, tc.want, got)
		})
	}
}

func TestPreprocessorErrors(t *testing.T) {
	tests := []struct {
		name, src string
		opts      Options
		want      []string
	}{
		{"undefined in if", "#if FOO\n#endif", Options{}, []string{"0:1(5): error: undefined macro 'FOO' in preprocessor expression"}},
		{"division by zero", "#if 1 / 0\n#endif", Options{}, []string{"0:1(7): error: division by zero in preprocessor expression"}},
		{"missing paren", "#if (1\n#endif", Options{}, []string{"0:1(5): error: missing ')' in preprocessor expression"}},
		{"float in if", "#if 1.5\n#endif", Options{}, []string{"0:1(5): error: invalid integer '1.5' in preprocessor expression"}},
		{"unterminated if", "\n  #ifdef A\n", Options{}, []string{"0:2(4): error: unterminated #if"}},
		{"else without if", "#else", Options{}, []string{"0:1(2): error: #else without #if"}},
		{"elif after else", "#if 1\n#else\n#elif 1\n#endif", Options{}, []string{"0:3(2): error: #elif after #else"}},
		{"error directive", "  #error this is  bad", Options{}, []string{"0:1(3): error: #error this is bad"}},
		{"unknown directive", "#include <x>", Options{}, []string{"0:1(2): error: invalid preprocessor directive #include"}},
		{"GL_ prefix", "#define GL_X 1", Options{}, []string{`0:1(9): error: macro names beginning with "GL_" are reserved`}},
		{"double underscore warns", "#define A__B 1", Options{}, []string{`0:1(9): warning: macro names containing "__" are reserved`}},
		{"redefine builtin", "#define __LINE__ 3", Options{}, []string{"0:1(9): error: cannot define built-in macro __LINE__"}},
		{"redefinition", "#define A 1\n#define A 2", Options{}, []string{"0:2(9): error: redefinition of macro A (previously defined at 0:1(9))"}},
		{"duplicate parameter", "#define F(a, a) a", Options{}, []string{"0:1(14): error: duplicate macro parameter 'a'"}},
		{"argument count", "#define F(a, b) a\nF(1)", Options{}, []string{"0:2(1): error: macro F expects 2 arguments, given 1"}},
		{"unterminated invocation", "#define F(a) a\nF(1, (2)", Options{}, []string{"0:2(1): error: unterminated argument list invoking macro F"}},
		{"stringification", "#define S(a) #a", Options{}, []string{"0:1(14): error: the '#' operator is not supported in macros"}},
		{"token pasting", "#define P(a, b) a ## b", Options{}, []string{"0:1(19): error: the '##' operator is not supported in macros"}},
		{"version late", "x\n#version 100", Options{}, []string{"0:2(2): error: #version must occur before anything else in the shader"}},
		{"version twice", "#version 100\n#version 100", Options{}, []string{"0:2(2): error: #version must occur before anything else in the shader"}},
		{"version unsupported", "#version 330", Options{}, []string{"0:1(10): error: GLSL 3.30 is not supported; supported versions are 1.00 ES, 1.10 and 1.20"}},
		{"version profile", "#version 100 es", Options{}, []string{"0:1(14): error: invalid profile 'es' for #version 100"}},
		{"extension require unknown", "#extension GL_X_y : require", Options{}, []string{"0:1(12): error: extension 'GL_X_y' is unsupported"}},
		{"extension enable unknown", "#extension GL_X_y : enable", Options{}, []string{"0:1(12): warning: extension 'GL_X_y' is unsupported"}},
		{"extension all enable", "#extension all : enable", Options{}, []string{"0:1(18): error: behavior 'enable' is not allowed with 'all'"}},
		{"extension syntax", "#extension GL_X_y", Options{}, []string{"0:1(2): error: #extension expects 'name : behavior'"}},
		{"unterminated comment", "/* x", Options{}, []string{"0:1(1): error: unterminated comment"}},
		{"pragma in function", "void f() {\n#pragma debug(on)\n}", Options{}, []string{"0:2(9): error: #pragma debug is allowed only outside function definitions"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, msgs := ppText(tc.src, tc.opts)
			assert.Equal(t, tc.want, msgs)
		})
	}
}

func TestPreprocessorLineNumbers(t *testing.T) {
	// After "#line N" the next line is N in GLSL ES (Mesa, the Khronos ES
	// 2.0 conformance tests) and N+1 in desktop GLSL 1.10 and 1.20.
	src := "a\n#line 20\nb\n/* two\nlines */ c\n#line 5 2\nd"
	for _, tc := range []struct {
		version int
		want    []Pos
	}{
		{100, []Pos{{0, 1, 1}, {0, 20, 1}, {0, 22, 10}, {2, 5, 1}}},
		{110, []Pos{{0, 1, 1}, {0, 21, 1}, {0, 23, 10}, {2, 6, 1}}},
	} {
		d := &diags{}
		res := preprocess(src, &Options{Version: tc.version}, d)
		require.Empty(t, d.list)
		var got []Pos
		for _, tk := range res.toks {
			got = append(got, tk.pos)
		}
		assert.Equal(t, tc.want, got, "version %d", tc.version)
	}
}

func TestPreprocessorFragmentHighp(t *testing.T) {
	src := "#ifdef GL_FRAGMENT_PRECISION_HIGH\nhigh\n#endif"
	got, _ := ppText(src, Options{Stage: StageFragment})
	assert.Equal(t, "high", got)
	got, _ = ppText(src, Options{Stage: StageFragment, DisableFragmentHighp: true})
	assert.Equal(t, "", got)
	got, _ = ppText(src, Options{Stage: StageVertex})
	assert.Equal(t, "", got, "GL_FRAGMENT_PRECISION_HIGH is a fragment-shader macro")
}

func TestPreprocessorBounds(t *testing.T) {
	// Exponential expansion is cut off with an error, not a hang.
	src := "#define A0 x x\n"
	for i := 1; i < 40; i++ {
		src += "#define A" + itoa(i) + " A" + itoa(i-1) + " A" + itoa(i-1) + "\n"
	}
	_, msgs := ppText(src+"A39", Options{})
	require.NotEmpty(t, msgs)
	assert.Contains(t, msgs[0], "macro expansion too large")

	deep := "#define F(x) x\n" + strings.Repeat("F(", 200) + "1" + strings.Repeat(")", 200)
	_, msgs = ppText(deep, Options{})
	require.NotEmpty(t, msgs)
	assert.Contains(t, msgs[0], "macro expansion nested too deeply")

	_, msgs = ppText("#if "+strings.Repeat("- ", 5000)+"1\n#endif", Options{})
	require.NotEmpty(t, msgs)
	assert.Contains(t, msgs[0], "nested too deeply")
}

// TestSection34Rules pins the rules of GLSL ES 1.00 section 3.4 that the
// front end once missed, one subtest each: the preprocessed text (tokens
// joined by spaces) and every diagnostic.
func TestSection34Rules(t *testing.T) {
	tests := []struct {
		name, src, want string
		msgs            []string
	}{
		// Nothing but white space and comments may follow these directives.
		{"tokens after #else", "#if 1\n#else foo\n#endif", "", []string{"0:2(7): error: unexpected 'foo' after #else"}},
		{"tokens after #endif", "#if 0\n#endif foo", "", []string{"0:2(8): error: unexpected 'foo' after #endif"}},
		{"tokens after #ifdef NAME", "#ifdef A foo\n#endif", "", []string{"0:1(10): error: unexpected 'foo' after #ifdef A"}},
		{"tokens after #ifndef NAME", "#ifndef A , +\n#endif", "", []string{"0:1(11): error: unexpected ',' after #ifndef A"}},
		{"tokens after #undef NAME", "#define A 1\n#undef A junk\nA", "1", []string{"0:2(10): error: unexpected 'junk' after #undef A"}},
		{"#undef of a member-like name", "#undef foo.bar", "", []string{"0:1(11): error: unexpected '.' after #undef foo"}},
		{"comments after #else and #endif", "#if 0\n#else // x\nok\n#endif /* y */", "ok", nil},
		{"tokens after directives of a skipped group", "#if 0\n#if 1\n#else junk\n#endif junk\n#ifdef A junk\n#endif\n#endif", "", nil},
		// An identifier in #if is an error only where it is evaluated.
		{"|| short-circuits an undefined name", "#if 1 || AAA\nok\n#endif", "ok", nil},
		{"&& short-circuits an undefined name", "#if 0 && AAA\n#else\nok\n#endif", "ok", nil},
		{"nested short circuit", "#if 0 && (AAA || BBB) || 1\nok\n#endif", "ok", nil},
		{"evaluated undefined name before ||", "#if AAA || 1\n#endif", "", []string{"0:1(5): error: undefined macro 'AAA' in preprocessor expression"}},
		{"evaluated undefined name after &&", "#define A 1\n#if A && B\n#endif", "", []string{"0:2(10): error: undefined macro 'B' in preprocessor expression"}},
		{"the first evaluated undefined name", "#if 1 - CCC + (-AAA || BBB)\n#endif", "", []string{"0:1(9): error: undefined macro 'CCC' in preprocessor expression"}},
		{"syntax is checked in a short-circuited operand", "#if 1 || (\n#endif", "", []string{"0:1(2): error: syntax error in preprocessor expression: unexpected end"}},
		// __LINE__: arguments expand where they stand, the replacement
		// list where the invocation ends.
		{"__LINE__ in a macro invocation that spans lines",
			"#define BBB __LINE__, /*\n*/ __LINE__\n#define AAA(a,b) BBB, a, b\nAAA(__LINE__,\n__LINE__\n)", "6 , 6 , 4 , 5", nil},
		{"__LINE__ in an object-like macro", "#define L __LINE__\n\nL", "3", nil},
		{"__LINE__ as a macro parameter", "#define F(__LINE__, b) __LINE__+b\nF(1, 2)", "1 + 2", nil},
		// #extension before any non-preprocessor token.
		{"#extension after non-preprocessor tokens", "float x;\n#extension all : warn", "float x ;",
			[]string{"0:2(2): error: #extension must occur before any non-preprocessor tokens"}},
		{"#extension after directives", "#define A 1\n#if A\n#endif\n#extension all : warn\nfloat x;", "float x ;", nil},
		{"#extension after a skipped group", "#if 0\nfloat y;\n#endif\n#extension all : warn", "", nil},
		{"#extension is not macro-expanded", "#define warn enable\n#extension all : warn", "", nil},
		// #line: constant integer expressions; in GLSL ES the next line is N.
		{"#line N numbers the next line N", "#line 1\n__LINE__", "1", nil},
		{"#line expressions", "#line (233 +10) (+10)\n__LINE__ __FILE__", "243 10", nil},
		{"#line with a macro", "#define A 10\n#line 234 A\n__LINE__ __FILE__", "234 10", nil},
		{"#line with three numbers", "#line 233 10 2", "", []string{"0:1(14): error: unexpected '2' after the source string number of #line"}},
		{"#line with a float", "#line 22 1.234", "", []string{"0:1(10): error: invalid integer '1.234' in preprocessor expression"}},
		{"#line with a name", "#line foobar", "", []string{"0:1(7): error: undefined macro 'foobar' in preprocessor expression"}},
		{"#line without a number", "#line", "", []string{"0:1(2): error: #line expects a line number and an optional source string number"}},
		{"#line negative", "#line -1", "", []string{"0:1(7): error: #line number -1 is out of range"}},
		// #pragma: no expansion; optimize and debug take (on) or (off).
		{"pragmas of section 3.4", "#pragma\n#pragma STDGL invariant(all)\n#pragma debug(off)\n#pragma optimize(on)\n#pragma vendor thing(1.5)", "", nil},
		{"#pragma is not macro-expanded", "#define off INVALID\n#pragma debug(off)", "", nil},
		{"#pragma debug with a number", "#pragma debug(1.23)", "", []string{"0:1(9): error: #pragma debug expects (on) or (off)"}},
		{"#pragma optimize without parentheses", "#pragma optimize on", "", []string{"0:1(9): error: #pragma optimize expects (on) or (off)"}},
		{"#pragma with a character outside the set", "#pragma $", "", []string{"0:1(9): error: invalid character '$' in #pragma"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, msgs := ppText(tc.src, Options{})
			assert.Equal(t, tc.want, got)
			assert.Equal(t, tc.msgs, msgs)
		})
	}
}
