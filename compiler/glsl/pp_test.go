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
	// After "#line N" the next line is N+1 (GLSL ES 1.00 section 3.4).
	d := &diags{}
	res := preprocess("a\n#line 20\nb\n/* two\nlines */ c\n#line 5 2\nd", &Options{}, d)
	require.Empty(t, d.list)
	var got []Pos
	for _, tk := range res.toks {
		got = append(got, tk.pos)
	}
	assert.Equal(t, []Pos{{0, 1, 1}, {0, 21, 1}, {0, 23, 10}, {2, 6, 1}}, got)
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
