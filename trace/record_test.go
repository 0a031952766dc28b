package trace_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	_ "github.com/retrogl/retrogl/backends"
	"github.com/retrogl/retrogl/gles"
	"github.com/retrogl/retrogl/trace"
)

var cfg = gles.Config{Width: 32, Height: 16, DepthBits: 16}

func newContext(t *testing.T) *gles.Context {
	t.Helper()
	ctx, err := gles.NewContext("pspge", cfg)
	require.NoError(t, err)
	t.Cleanup(func() { ctx.Close() })
	return ctx
}

// TestRecorderText pins the text the recorder writes for each kind of
// argument.
func TestRecorderText(t *testing.T) {
	var out bytes.Buffer
	r := trace.NewRecorder(newContext(t), &out, cfg)
	r.Comment("kinds\nof arguments")
	r.Enable(gles.BLEND)
	r.BlendFunc(gles.ZERO, gles.ONE)
	r.Clear(gles.COLOR_BUFFER_BIT | gles.STENCIL_BUFFER_BIT)
	r.ClearColor(0.1, 1.0/3, -0, 1e-8)
	r.ColorMask(true, false, true, false)
	r.TexParameteri(gles.TEXTURE_2D, gles.TEXTURE_MIN_FILTER, int(gles.LINEAR_MIPMAP_LINEAR))
	r.TexEnvi(gles.TEXTURE_ENV, gles.RGB_SCALE, 2)
	r.StencilFunc(gles.EQUAL, 1, 0xff)
	r.Lightfv(gles.LIGHT0, gles.POSITION, []float32{1, 2, 3, 0})
	tex := r.GenTextures(2)
	r.DeleteTextures(tex...)
	r.TexImage2D(gles.TEXTURE_2D, 0, gles.LUMINANCE, 2, 1, 0, gles.LUMINANCE, gles.UNSIGNED_BYTE, []byte{1, 2})
	r.TexImage2D(gles.TEXTURE_2D, 0, gles.LUMINANCE, 2, 1, 0, gles.LUMINANCE, gles.UNSIGNED_BYTE, nil)
	r.ReadPixels(0, 0, 1, 1, gles.RGBA, gles.UNSIGNED_BYTE, make([]byte, 4))
	r.DrawArrays(gles.POINTS, 0, 0)
	require.NoError(t, r.Close())
	assert.Equal(t, `retrogl-trace 1
Surface 32 16 16 0
# kinds of arguments
Enable BLEND
BlendFunc ZERO ONE
Clear COLOR_BUFFER_BIT|STENCIL_BUFFER_BIT
ClearColor 0.1 0.33333334 0 1e-08
ColorMask true false true false
TexParameteri TEXTURE_2D TEXTURE_MIN_FILTER LINEAR_MIPMAP_LINEAR
TexEnvi TEXTURE_ENV RGB_SCALE 2
StencilFunc EQUAL 1 255
Lightfv LIGHT0 POSITION {1 2 3 0}
GenTextures 2 = {1 2}
DeleteTextures {1 2}
TexImage2D TEXTURE_2D 0 LUMINANCE 2 1 0 LUMINANCE UNSIGNED_BYTE [2]AQI=
TexImage2D TEXTURE_2D 0 LUMINANCE 2 1 0 LUMINANCE UNSIGNED_BYTE nil
ReadPixels 0 0 1 1 RGBA UNSIGNED_BYTE 4
DrawArrays POINTS 0 0
`, out.String())
}

// TestRecorderClientArrays checks that a client array whose contents change
// between draws is written again before the draw that reads the new bytes,
// and only then.
func TestRecorderClientArrays(t *testing.T) {
	var out bytes.Buffer
	r := trace.NewRecorder(newContext(t), &out, cfg)
	pos := []float32{0, 0, 1, 0, 0, 1}
	r.EnableClientState(gles.VERTEX_ARRAY)
	r.VertexPointer(2, gles.FLOAT, 0, pos)
	r.DrawArrays(gles.TRIANGLES, 0, 3)
	r.DrawArrays(gles.TRIANGLES, 0, 3) // unchanged: not written again
	pos[0] = -1
	r.DrawArrays(gles.TRIANGLES, 0, 3)
	// With a buffer bound, the re-sync unbinds it around the pointer call.
	buf := r.GenBuffers(1)
	r.BindBuffer(gles.ARRAY_BUFFER, buf[0])
	pos[1] = -1
	r.DrawArrays(gles.TRIANGLES, 0, 3)
	require.NoError(t, r.Close())
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")[2:]
	assert.Equal(t, []string{
		"EnableClientState VERTEX_ARRAY",
		"VertexPointer 2 FLOAT 0 [24]AAAAAAAAAAAAAIA/AAAAAAAAAAAAAIA/",
		"DrawArrays TRIANGLES 0 3",
		"DrawArrays TRIANGLES 0 3",
		"VertexPointer 2 FLOAT 0 [24]AACAvwAAAAAAAIA/AAAAAAAAAAAAAIA/",
		"DrawArrays TRIANGLES 0 3",
		"GenBuffers 1 = {1}",
		"BindBuffer ARRAY_BUFFER 1",
		"BindBuffer ARRAY_BUFFER 0",
		"VertexPointer 2 FLOAT 0 [24]AACAvwAAgL8AAIA/AAAAAAAAAAAAAIA/",
		"BindBuffer ARRAY_BUFFER 1",
		"DrawArrays TRIANGLES 0 3",
	}, lines)
}

// TestRoundTrip records a small program, replays the trace on a fresh
// context, and checks that the images match exactly and that the replay
// recorded the same trace.
func TestRoundTrip(t *testing.T) {
	draw := func(gl trace.GL) {
		gl.ClearColor(0.2, 0.3, 0.4, 1)
		gl.Clear(gles.COLOR_BUFFER_BIT | gles.DEPTH_BUFFER_BIT)
		bufs := gl.GenBuffers(2)
		gl.BindBuffer(gles.ARRAY_BUFFER, bufs[1])
		gl.BufferData(gles.ARRAY_BUFFER, []float32{-1, -1, 0, 1, -1, 0, 0, 1, 0}, gles.STATIC_DRAW)
		gl.EnableClientState(gles.VERTEX_ARRAY)
		gl.VertexPointer(3, gles.FLOAT, 0, 0)
		gl.BindBuffer(gles.ARRAY_BUFFER, 0)
		gl.EnableClientState(gles.COLOR_ARRAY)
		gl.ColorPointer(4, gles.UNSIGNED_BYTE, 0, []byte{255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255})
		gl.DrawElements(gles.TRIANGLES, 3, gles.UNSIGNED_SHORT, []uint16{0, 1, 2})
		gl.Finish()
	}
	ctx := newContext(t)
	var first bytes.Buffer
	r := trace.NewRecorder(ctx, &first, cfg)
	draw(r)
	require.NoError(t, r.Close())
	require.NoError(t, ctx.Err())

	tr, err := trace.Parse(bytes.NewReader(first.Bytes()))
	require.NoError(t, err)
	assert.Equal(t, cfg, tr.Config())
	ctx2 := newContext(t)
	// Burn a buffer name so the replay's names differ from the recording's.
	ctx2.GenBuffers(3)
	var second bytes.Buffer
	r2 := trace.NewRecorder(ctx2, &second, cfg)
	require.NoError(t, trace.NewPlayer(r2).Play(tr))
	require.NoError(t, r2.Close())
	require.NoError(t, ctx2.Err())
	assert.Equal(t, ctx.Image(), ctx2.Image())
	assert.Contains(t, second.String(), "GenBuffers 2 = {4 5}\nBindBuffer ARRAY_BUFFER 5\n")
}

func TestPlayerErrors(t *testing.T) {
	tests := []struct{ line, want string }{
		{"NoSuchCall 1", `trace: line 3: unknown call "NoSuchCall"`},
		{"Enable", "trace: line 3: Enable: has 0 arguments, needs more"},
		{"Enable BLEND BLEND", "trace: line 3: Enable: has 2 arguments, want 1"},
		{"Enable 1.5", `trace: line 3: Enable: argument 1: want an enum, got "1.5"`},
		{"DepthMask 1", `trace: line 3: DepthMask: argument 1: want true or false, got number "1"`},
		{"Lightfv LIGHT0 POSITION 1", "trace: line 3: Lightfv: argument 3: want a vector, got number"},
		{"GenTextures 100000000", "trace: line 3: GenTextures: argument 1: count 100000000 above the replay limit 16777216"},
		{"ReadPixels 0 0 1 1 RGBA UNSIGNED_BYTE 999999999", "trace: line 3: ReadPixels: argument 7: buffer size 999999999 outside 0..67108864"},
		{"BufferData ARRAY_BUFFER 999999999 STATIC_DRAW", "trace: line 3: BufferData: argument 2: offset or size 999999999 above the replay limit 67108864"},
		{"Color4ub 256 0 0 0", "trace: line 3: Color4ub: argument 1: 256 is not a byte"},
		{"StencilMask -1", "trace: line 3: StencilMask: argument 1: -1 is not a 32-bit unsigned value"},
	}
	for _, tc := range tests {
		tr, err := trace.Parse(strings.NewReader("retrogl-trace 1\nSurface 32 16 16 0\n" + tc.line + "\n"))
		require.NoError(t, err, tc.line)
		err = trace.NewPlayer(newContext(t)).Play(tr)
		assert.EqualError(t, err, tc.want, tc.line)
	}
}

// FuzzReplay plays arbitrary traces: bad input must give errors (parse
// errors, replay errors or GL errors), never a panic or a hang.
func FuzzReplay(f *testing.F) {
	seeds, _ := filepath.Glob("../testdata/reference/*.trace")
	for _, s := range seeds {
		if b, err := os.ReadFile(s); err == nil && len(b) < 16<<10 {
			f.Add(b)
		}
	}
	f.Add([]byte("retrogl-trace 1\nSurface 8 8 16 8\nGenTextures 1 = {7}\nBindTexture TEXTURE_2D 7\nDrawArrays TRIANGLES 0 3\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		tr, err := trace.Parse(bytes.NewReader(data))
		if err != nil {
			return
		}
		c := tr.Config()
		c.Width, c.Height = min(max(c.Width, 1), 64), min(max(c.Height, 1), 64)
		ctx, err := gles.NewContext("pspge", c)
		if err != nil {
			return
		}
		defer ctx.Close()
		p := trace.NewPlayer(ctx)
		p.MaxAlloc = 1 << 20
		_ = p.Play(tr)
		_ = ctx.Err()
	})
}

// FuzzParseLine checks that the parser never panics and that whatever it
// accepts it accepts again after the recorder's writing rules (names and
// numbers) round-trip.
func FuzzParseLine(f *testing.F) {
	for _, s := range []string{
		"Enable DEPTH_TEST", "ClearColor 0.1 -2 +Inf NaN", "Lightfv LIGHT0 POSITION {1 0 0x10 0}",
		"BufferData ARRAY_BUFFER [5]aGVsbG8= STATIC_DRAW", `GetString VENDOR = "a\"b"`, "GenTextures 2 = {1 2}",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		c, err := trace.ParseLine(line)
		if err != nil || c == nil {
			return
		}
		for _, a := range c.Args {
			_, _ = a.Int()
			_, _ = a.Float()
			_, _ = a.Enum()
		}
	})
}

// TestRoundTripES2 records a GL ES 2.0 program (shaders, a program, a
// uniform, a generic attribute from a client array, a framebuffer object)
// and plays it on a context whose object names differ: the same image,
// and the replay's names mapped through the recorded ones.
func TestRoundTripES2(t *testing.T) {
	es2 := gles.Config{Width: 32, Height: 16, DepthBits: 16, ES2: true}
	newES2 := func() *gles.Context {
		ctx, err := gles.NewContext("r300", es2)
		require.NoError(t, err)
		t.Cleanup(func() { ctx.Close() })
		return ctx
	}
	draw := func(gl trace.GL) {
		vs := gl.CreateShader(gles.VERTEX_SHADER)
		gl.ShaderSource(vs, "attribute vec2 pos;\nvoid main() { gl_Position = vec4(pos, 0.0, 1.0); }\n")
		gl.CompileShader(vs)
		fs := gl.CreateShader(gles.FRAGMENT_SHADER)
		gl.ShaderSource(fs, "precision mediump float;\nuniform vec4 col;\n", "void main() { gl_FragColor = col; }\n")
		gl.CompileShader(fs)
		p := gl.CreateProgram()
		gl.AttachShader(p, vs)
		gl.AttachShader(p, fs)
		gl.LinkProgram(p)
		gl.UseProgram(p)
		fbs := gl.GenFramebuffers(1)
		gl.BindFramebuffer(gles.FRAMEBUFFER, fbs[0])
		gl.BindFramebuffer(gles.FRAMEBUFFER, 0)
		gl.DeleteFramebuffers(fbs...)
		gl.ClearColor(0, 0, 0.5, 1)
		gl.Clear(gles.COLOR_BUFFER_BIT)
		gl.Uniform4f(gl.GetUniformLocation(p, "col"), 1, 0.5, 0, 1)
		loc := gl.GetAttribLocation(p, "pos")
		gl.VertexAttribPointer(loc, 2, gles.FLOAT, false, 0, []float32{-1, -1, 1, -1, 0, 1})
		gl.EnableVertexAttribArray(loc)
		gl.DrawArrays(gles.TRIANGLES, 0, 3)
		gl.Finish()
	}
	ctx := newES2()
	var first bytes.Buffer
	r := trace.NewRecorder(ctx, &first, es2)
	draw(r)
	require.NoError(t, r.Close())
	require.NoError(t, ctx.Err())
	text := first.String()
	assert.Contains(t, text, "Surface 32 16 16 0 ES2\n")
	assert.Contains(t, text, `ShaderSource 2 {"precision mediump float;\nuniform vec4 col;\n" "void main() { gl_FragColor = col; }\n"}`)

	tr, err := trace.Parse(strings.NewReader(text))
	require.NoError(t, err)
	assert.Equal(t, es2, tr.Config())
	ctx2 := newES2()
	// Burn shader and framebuffer names so the replay's differ.
	ctx2.CreateShader(gles.VERTEX_SHADER)
	ctx2.GenFramebuffers(2)
	var second bytes.Buffer
	r2 := trace.NewRecorder(ctx2, &second, es2)
	require.NoError(t, trace.NewPlayer(r2).Play(tr))
	require.NoError(t, r2.Close())
	require.NoError(t, ctx2.Err())
	assert.Equal(t, ctx.Image(), ctx2.Image())
	got := second.String()
	assert.Contains(t, got, "CreateShader VERTEX_SHADER = 2\n")
	assert.Contains(t, got, "CreateProgram = 4\nAttachShader 4 2\nAttachShader 4 3\n")
	assert.Contains(t, got, "GenFramebuffers 1 = {3}\nBindFramebuffer FRAMEBUFFER 3\n")
	// The image is the uniform's colour inside the triangle.
	r8, g8, b8, a8 := ctx.Image().At(16, 10).RGBA()
	assert.Equal(t, [4]uint32{255, 128, 0, 255}, [4]uint32{r8 >> 8, g8 >> 8, b8 >> 8, a8 >> 8})
}

// TestPlayerKeepsUngeneratedNamesApart plays a trace that binds names it
// never generated next to one it did (a reduced rgldiff trace, seed 362):
// the context returns 1 for the recorded GenBuffers 3, so the trace's own
// buffer 1 must become another buffer, not buffer 3 under a second name.
func TestPlayerKeepsUngeneratedNamesApart(t *testing.T) {
	tr, err := trace.Parse(strings.NewReader("retrogl-trace 1\nSurface 32 16 16 0\n" +
		"BindBuffer ARRAY_BUFFER 2\nGenBuffers 1 = {3}\nBindBuffer ARRAY_BUFFER 3\n" +
		"BufferData ARRAY_BUFFER 144 DYNAMIC_DRAW\nBindBuffer ARRAY_BUFFER 1\n"))
	require.NoError(t, err)
	ctx := newContext(t)
	require.NoError(t, trace.NewPlayer(ctx).Play(tr))
	assert.Equal(t, 0, ctx.GetBufferParameteriv(gles.ARRAY_BUFFER, gles.BUFFER_SIZE), "the trace's buffer 1 is empty")
	ctx.BindBuffer(gles.ARRAY_BUFFER, 1)
	assert.Equal(t, 144, ctx.GetBufferParameteriv(gles.ARRAY_BUFFER, gles.BUFFER_SIZE), "the context's buffer 1 is the trace's 3")
	assert.Equal(t, gles.NO_ERROR, ctx.GetError())
}
