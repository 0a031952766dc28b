package trace

import (
	"math"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/retrogl/retrogl/gles"
)

func TestParseLine(t *testing.T) {
	tests := []struct {
		line string
		want *Call
	}{
		{"", nil},
		{"   # a comment", nil},
		{"Finish", &Call{Name: "Finish"}},
		{"Enable DEPTH_TEST", &Call{Name: "Enable", Args: []Value{{Kind: Name, Text: "DEPTH_TEST"}}}},
		{"ClearColor 0.1 -2 +Inf NaN", &Call{Name: "ClearColor", Args: []Value{
			{Kind: Number, Text: "0.1"}, {Kind: Number, Text: "-2"}, {Kind: Number, Text: "+Inf"}, {Kind: Number, Text: "NaN"}}}},
		{"Clear COLOR_BUFFER_BIT|DEPTH_BUFFER_BIT # both", &Call{Name: "Clear", Args: []Value{
			{Kind: Name, Text: "COLOR_BUFFER_BIT|DEPTH_BUFFER_BIT"}}}},
		{"ColorMask true false true false", &Call{Name: "ColorMask", Args: []Value{
			{Kind: Bool, Text: "true"}, {Kind: Bool, Text: "false"}, {Kind: Bool, Text: "true"}, {Kind: Bool, Text: "false"}}}},
		{"Lightfv LIGHT0 POSITION {1 0 0x10 0}", &Call{Name: "Lightfv", Args: []Value{
			{Kind: Name, Text: "LIGHT0"}, {Kind: Name, Text: "POSITION"},
			{Kind: Vector, Elems: []Value{{Kind: Number, Text: "1"}, {Kind: Number, Text: "0"}, {Kind: Number, Text: "0x10"}, {Kind: Number, Text: "0"}}}}}},
		{"BufferData ARRAY_BUFFER [5]aGVsbG8= STATIC_DRAW", &Call{Name: "BufferData", Args: []Value{
			{Kind: Name, Text: "ARRAY_BUFFER"}, {Kind: Data, Bytes: []byte("hello")}, {Kind: Name, Text: "STATIC_DRAW"}}}},
		{"TexImage2D TEXTURE_2D 0 RGB 1 1 0 RGB UNSIGNED_BYTE [0] ", &Call{Name: "TexImage2D", Args: []Value{
			{Kind: Name, Text: "TEXTURE_2D"}, {Kind: Number, Text: "0"}, {Kind: Name, Text: "RGB"}, {Kind: Number, Text: "1"},
			{Kind: Number, Text: "1"}, {Kind: Number, Text: "0"}, {Kind: Name, Text: "RGB"}, {Kind: Name, Text: "UNSIGNED_BYTE"},
			{Kind: Data, Bytes: []byte{}}}}},
		{"VertexPointer 3 FLOAT 0 nil", &Call{Name: "VertexPointer", Args: []Value{
			{Kind: Number, Text: "3"}, {Kind: Name, Text: "FLOAT"}, {Kind: Number, Text: "0"}, {Kind: Nil}}}},
		{"GenTextures 2 = {1 2}", &Call{Name: "GenTextures", Args: []Value{{Kind: Number, Text: "2"}},
			Result: &Value{Kind: Vector, Elems: []Value{{Kind: Number, Text: "1"}, {Kind: Number, Text: "2"}}}}},
		{`GetString VENDOR = "retro \"gl\""`, &Call{Name: "GetString", Args: []Value{{Kind: Name, Text: "VENDOR"}},
			Result: &Value{Kind: String, Text: `retro "gl"`}}},
		{"DeleteTextures {}", &Call{Name: "DeleteTextures", Args: []Value{{Kind: Vector, Elems: []Value{}}}}},
	}
	for _, tc := range tests {
		got, err := ParseLine(tc.line)
		require.NoError(t, err, tc.line)
		assert.Equal(t, tc.want, got, tc.line)
	}
}

func TestParseLineErrors(t *testing.T) {
	tests := []struct{ line, want string }{
		{"9Enable", `want a call name, got "9Enable"`},
		{"Enable {1 2", "Enable argument 1: vector without '}'"},
		{"Enable {{1}}", "Enable argument 1: nested vector"},
		{"Enable [3]aGVsbG8=", "Enable argument 1: data [3] has 8 base64 characters, want 4"},
		{"Enable [x]", `Enable argument 1: data size "x"`},
		{"Enable [4]aGVsbA!!", "Enable argument 1: data [4]: illegal base64 data at input byte 6"},
		{"Enable 1.2.3", `Enable argument 1: bad number "1.2.3"`},
		{"Enable A-B", `Enable argument 1: bad name "A-B"`},
		{`GetString = "open`, "GetString result: unterminated string"},
		{"GenTextures 1 = {1} 2", `GenTextures: text after the result: "2"`},
		{"Enable }", "Enable argument 1: unexpected '}'"},
	}
	for _, tc := range tests {
		_, err := ParseLine(tc.line)
		assert.EqualError(t, err, tc.want, tc.line)
	}
}

func TestParse(t *testing.T) {
	tr, err := Parse(strings.NewReader("retrogl-trace 1\n# made by hand\nSurface 64 32 16 8\nEnable BLEND\n\nFinish\n"))
	require.NoError(t, err)
	assert.Equal(t, 64, tr.Width)
	assert.Equal(t, 32, tr.Height)
	assert.Equal(t, 16, tr.DepthBits)
	assert.Equal(t, 8, tr.StencilBits)
	require.Len(t, tr.Calls, 2)
	assert.Equal(t, Call{Line: 4, Name: "Enable", Args: []Value{{Kind: Name, Text: "BLEND"}}}, tr.Calls[0])
	assert.Equal(t, Call{Line: 6, Name: "Finish"}, tr.Calls[1])

	bad := []struct{ in, want string }{
		{"", `trace: empty, want "retrogl-trace 1"`},
		{"retrogl-trace 2\n", `trace: line 1: want "retrogl-trace 1", got "retrogl-trace 2"`},
		{"retrogl-trace 1\nFinish\n", "trace: no Surface line"},
		{"retrogl-trace 1\nFinish\nSurface 1 1 0 0\n", "trace: line 3: the Surface line must come once, before any call"},
		{"retrogl-trace 1\nSurface 1 1 0\n", "trace: line 2: the Surface line takes 4 numbers (width height depth stencil), got 3 values"},
		{"retrogl-trace 1\nSurface 1 99999 0 0\n", `trace: line 2: the Surface line's value 2: "99999" is not a size 0..16384`},
		{"retrogl-trace 1\nSurface 1 1 0 0\nEnable {\n", "trace: line 3: Enable argument 1: vector without '}'"},
	}
	for _, tc := range bad {
		_, err := Parse(strings.NewReader(tc.in))
		assert.EqualError(t, err, tc.want, tc.in)
	}
}

func TestValueConversions(t *testing.T) {
	n, err := Value{Kind: Number, Text: "0x1F"}.Int()
	require.NoError(t, err)
	assert.Equal(t, int64(31), n)
	f, err := Value{Kind: Number, Text: "0.1"}.Float()
	require.NoError(t, err)
	assert.Equal(t, float32(0.1), f)
	f, err = Value{Kind: Number, Text: "0x10"}.Float()
	require.NoError(t, err)
	assert.Equal(t, float32(16), f)
	e, err := Value{Kind: Name, Text: "COLOR_BUFFER_BIT|DEPTH_BUFFER_BIT|0x400"}.Enum()
	require.NoError(t, err)
	assert.Equal(t, uint32(0x4500), e)
	_, err = Value{Kind: Name, Text: "NO_SUCH_ENUM"}.Enum()
	assert.EqualError(t, err, `unknown enum "NO_SUCH_ENUM"`)
	_, err = Value{Kind: Bool, Text: "true"}.Int()
	assert.EqualError(t, err, `want a number, got bool "true"`)
}

// TestWriteToRoundTrip: a trace written by WriteTo parses back to the same
// calls, and the constructors give the recorder's spellings.
func TestWriteToRoundTrip(t *testing.T) {
	tr := &Trace{Width: 32, Height: 16, DepthBits: 16, StencilBits: 8, Calls: []Call{
		{Name: "Enable", Args: []Value{EnumValue(gles.DEPTH_TEST)}},
		{Name: "BlendFunc", Args: []Value{EnumValue(gles.ONE), EnumValue(gles.ZERO)}},
		{Name: "ClearColor", Args: []Value{FloatValue(0.1), FloatValue(-2), FloatValue(float32(math.Inf(1))), FloatValue(1)}},
		{Name: "ColorMask", Args: []Value{BoolValue(true), BoolValue(false), BoolValue(true), BoolValue(false)}},
		{Name: "Lightfv", Args: []Value{EnumValue(gles.LIGHT0), EnumValue(gles.POSITION), FloatsValue(1, 0, 0.5, 0)}},
		{Name: "BufferData", Args: []Value{EnumValue(gles.ARRAY_BUFFER), DataValue([]byte("hello")), EnumValue(gles.STATIC_DRAW)}},
		{Name: "VertexPointer", Args: []Value{IntValue(3), EnumValue(gles.FLOAT), IntValue(0), DataValue(nil)}},
		{Name: "GenTextures", Args: []Value{IntValue(2)}, Result: &Value{Kind: Vector, Elems: IntsValue(1, 2).Elems}},
		{Name: "GetString", Args: []Value{EnumValue(gles.VENDOR)}, Result: &Value{Kind: String, Text: `a "b"`}},
	}}
	var b strings.Builder
	n, err := tr.WriteTo(&b)
	require.NoError(t, err)
	assert.Equal(t, int64(b.Len()), n)
	assert.Equal(t, `retrogl-trace 1
Surface 32 16 16 8
Enable DEPTH_TEST
BlendFunc ONE ZERO
ClearColor 0.1 -2 +Inf 1
ColorMask true false true false
Lightfv LIGHT0 POSITION {1 0 0.5 0}
BufferData ARRAY_BUFFER [5]aGVsbG8= STATIC_DRAW
VertexPointer 3 FLOAT 0 nil
GenTextures 2 = {1 2}
GetString VENDOR = "a \"b\""
`, b.String())
	got, err := Parse(strings.NewReader(b.String()))
	require.NoError(t, err)
	for i := range got.Calls {
		got.Calls[i].Line = 0
	}
	assert.Equal(t, tr, got)
}
