package mesaref_test

import (
	"encoding/base64"
	"encoding/binary"
	"fmt"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/retrogl/retrogl/internal/testenv"
	"github.com/retrogl/retrogl/tools/mesaref"
)

// TestReplayMatchesReference replays a committed example trace on softpipe
// and checks it gives the committed reference image, byte for byte: the
// reference was made by the same replayer (tools/mesaref/regen).
func TestReplayMatchesReference(t *testing.T) {
	testenv.Need(t, mesaref.Package, mesaref.Available())
	dir := filepath.Join("..", "..", "testdata", "reference")
	tr, err := os.ReadFile(filepath.Join(dir, "triangle.trace"))
	require.NoError(t, err)
	res, err := mesaref.Replay(tr, mesaref.Softpipe)
	require.NoError(t, err)
	f, err := os.Open(filepath.Join(dir, "triangle.png"))
	require.NoError(t, err)
	defer f.Close()
	ref, err := png.Decode(f)
	require.NoError(t, err)
	b := ref.Bounds()
	require.Equal(t, b, res.Image.Bounds())
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bb, a := ref.At(x, y).RGBA()
			r2, g2, b2, a2 := res.Image.At(x, y).RGBA()
			require.Equal(t, [4]uint32{r, g, bb, a}, [4]uint32{r2, g2, b2, a2}, "pixel %d,%d", x, y)
		}
	}
}

// TestBadTrace: a file that is not a trace is an error naming the problem,
// not a crash or an image.
func TestBadTrace(t *testing.T) {
	testenv.Need(t, mesaref.Package, mesaref.Available())
	_, err := mesaref.Replay([]byte("not a trace\n"), mesaref.Softpipe)
	require.ErrorContains(t, err, "not a retrogl trace")
}

func TestReadPAMRejectsBadHeader(t *testing.T) {
	p := filepath.Join(t.TempDir(), "x.pam")
	require.NoError(t, os.WriteFile(p, []byte("P7\nWIDTH 0\nHEIGHT 3\nENDHDR\n"), 0o644))
	_, err := mesaref.ReadPAM(p)
	require.ErrorContains(t, err, "bad size")
}

// TestServer replays traces on one batch process: the same image as the
// one-shot replayer, a bad trace reported without ending the process, and
// the next trace replayed all the same.
func TestServer(t *testing.T) {
	testenv.Need(t, mesaref.Package, mesaref.Available())
	tr, err := os.ReadFile(filepath.Join("..", "..", "testdata", "reference", "triangle.trace"))
	require.NoError(t, err)
	one, err := mesaref.Replay(tr, mesaref.Softpipe)
	require.NoError(t, err)
	s, err := mesaref.NewServer(mesaref.Softpipe)
	require.NoError(t, err)
	defer s.Close()
	for i := 0; i < 2; i++ {
		res, err := s.Replay(tr)
		require.NoError(t, err)
		assert.Equal(t, one.Image.Pix, res.Image.Pix)
		assert.Equal(t, one.Renderer, res.Renderer)
		_, err = s.Replay([]byte("retrogl-trace 1\nSurface 4 4 0 0\nEnable 1.5.x\n"))
		require.ErrorContains(t, err, "line 3: want an integer, got 1.5.x")
		res, err = s.Replay([]byte("retrogl-trace 1\nSurface 4 4 0 0\nEnable NOT_AN_ENUM\n"))
		require.ErrorContains(t, err, "unknown enum NOT_AN_ENUM")
		assert.Nil(t, res)
		res, err = s.Replay([]byte("retrogl-trace 1\nSurface 4 4 0 0\nCullFace LINES\nClearColor 1 0 0 1\nClear COLOR_BUFFER_BIT\n"))
		require.ErrorIs(t, err, mesaref.ErrGL)
		require.ErrorContains(t, err, "line 3: CullFace: GL error 0x0500")
		assert.Equal(t, []byte{255, 0, 0, 255}, res.Image.Pix[:4])
	}
}

// TestEmulatedArrayTypes: FIXED arrays and BYTE positions and texture
// coordinates, which desktop GL does not take, draw what the same values
// as FLOAT arrays draw, from client memory and from buffer objects.
func TestEmulatedArrayTypes(t *testing.T) {
	testenv.Need(t, mesaref.Package, mesaref.Available())
	f32 := func(v ...float32) []byte {
		var b []byte
		for _, x := range v {
			b = binary.LittleEndian.AppendUint32(b, math.Float32bits(x))
		}
		return b
	}
	fx := func(v ...float32) []byte {
		var b []byte
		for _, x := range v {
			b = binary.LittleEndian.AppendUint32(b, uint32(int32(x*65536)))
		}
		return b
	}
	i8 := func(v ...float32) []byte {
		var b []byte
		for _, x := range v {
			b = append(b, byte(int8(x)))
		}
		return b
	}
	pos := []float32{-1, -1, 1, -1, -1, 1, 1, 1}
	col := []float32{1, 0, 0, 1, 0, 1, 0, 1, 0, 0, 1, 1, 1, 1, 1, 0.5}
	tc := []float32{0, 0, 2, 0, 0, 2, 2, 2}
	head := "retrogl-trace 1\nSurface 16 16 0 0\nGenTextures 1 = {1}\nBindTexture TEXTURE_2D 1\n" +
		"TexImage2D TEXTURE_2D 0 RGBA 2 2 0 RGBA UNSIGNED_BYTE [16]/wAA//8A/////wD//wD//w==\n" +
		"TexParameteri TEXTURE_2D TEXTURE_MIN_FILTER NEAREST\nEnable TEXTURE_2D\n" +
		"EnableClientState VERTEX_ARRAY\nEnableClientState COLOR_ARRAY\nEnableClientState TEXTURE_COORD_ARRAY\n"
	data := func(b []byte) string { return fmt.Sprintf("[%d]%s", len(b), base64.StdEncoding.EncodeToString(b)) }
	want := head + "VertexPointer 2 FLOAT 0 " + data(f32(pos...)) + "\nColorPointer 4 FLOAT 0 " + data(f32(col...)) +
		"\nTexCoordPointer 2 FLOAT 0 " + data(f32(tc...)) + "\nDrawArrays TRIANGLE_STRIP 0 4\n"
	ref, err := mesaref.Replay([]byte(want), mesaref.Softpipe)
	require.NoError(t, err)
	tests := map[string]string{
		"fixed client": head + "VertexPointer 2 FIXED 0 " + data(fx(pos...)) + "\nColorPointer 4 FIXED 0 " + data(fx(col...)) +
			"\nTexCoordPointer 2 FIXED 0 " + data(fx(tc...)) + "\nDrawArrays TRIANGLE_STRIP 0 4\n",
		"byte client, elements": head + "VertexPointer 2 BYTE 0 " + data(i8(pos...)) + "\nColorPointer 4 FLOAT 0 " + data(f32(col...)) +
			"\nTexCoordPointer 2 BYTE 0 " + data(i8(tc...)) + "\nDrawElements TRIANGLE_STRIP 4 UNSIGNED_BYTE [4]AAECAw==\n",
		"fixed buffer, stride": head + "GenBuffers 1 = {7}\nBindBuffer ARRAY_BUFFER 7\nBufferData ARRAY_BUFFER " +
			data(append(fx(0, 0, 0, 0), fx(pos[0], pos[1], 0, pos[2], pos[3], 0, pos[4], pos[5], 0, pos[6], pos[7], 0)...)) + " STATIC_DRAW\n" +
			"VertexPointer 2 FIXED 12 16\nBindBuffer ARRAY_BUFFER 0\nColorPointer 4 FLOAT 0 " + data(f32(col...)) +
			"\nTexCoordPointer 2 FLOAT 0 " + data(f32(tc...)) + "\nDrawArrays TRIANGLE_STRIP 0 4\n",
	}
	for name, tr := range tests {
		res, err := mesaref.Replay([]byte(tr), mesaref.Softpipe)
		require.NoError(t, err, name)
		assert.Equal(t, ref.Image.Pix, res.Image.Pix, name)
	}
}

// TestES2Trace replays a GL ES 2.0 trace whose recorded names and
// locations are not Mesa's (shader 7, program 9, uniform 5, attribute 3):
// the shaders compile from Go-quoted sources, the uniform and the
// attribute reach the program through the maps, and a framebuffer object
// bound and unbound leaves the window's image.
func TestES2Trace(t *testing.T) {
	testenv.Need(t, mesaref.Package, mesaref.Available())
	pos := make([]byte, 0, 24)
	for _, v := range []float32{-1, -1, 1, -1, 0, 1} {
		pos = binary.LittleEndian.AppendUint32(pos, math.Float32bits(v))
	}
	tr := "retrogl-trace 1\nSurface 16 16 16 0 ES2\n" +
		"CreateShader VERTEX_SHADER = 7\n" +
		`ShaderSource 7 {"attribute vec2 pos;\n" "void main() {\n\tgl_Position = vec4(pos, 0.0, 1.0);\n}\n"}` + "\n" +
		"CompileShader 7\n" +
		"CreateShader FRAGMENT_SHADER = 8\n" +
		`ShaderSource 8 {"precision mediump float;\nuniform vec4 col;\nvoid main() { gl_FragColor = col; }\n"}` + "\n" +
		"CompileShader 8\nCreateProgram = 9\nAttachShader 9 7\nAttachShader 9 8\nLinkProgram 9\nUseProgram 9\n" +
		"GenFramebuffers 1 = {4}\nBindFramebuffer FRAMEBUFFER 4\nBindFramebuffer FRAMEBUFFER 0\nDeleteFramebuffers {4}\n" +
		"ClearColor 0 0 1 1\nClear COLOR_BUFFER_BIT\n" +
		`GetUniformLocation 9 "col" = 5` + "\nUniform4f 5 1 0 0 1\n" +
		`GetAttribLocation 9 "pos" = 3` + "\n" +
		fmt.Sprintf("VertexAttribPointer 3 2 FLOAT false 0 [%d]%s\n", len(pos), base64.StdEncoding.EncodeToString(pos)) +
		"EnableVertexAttribArray 3\nDrawArrays TRIANGLES 0 3\nFinish\n"
	res, err := mesaref.Replay([]byte(tr), mesaref.Softpipe)
	require.NoError(t, err)
	at := func(x, y int) [4]uint8 {
		c := res.Image.NRGBAAt(x, y)
		return [4]uint8{c.R, c.G, c.B, c.A}
	}
	assert.Equal(t, [4]uint8{255, 0, 0, 255}, at(8, 10), "inside the triangle: the uniform's colour")
	assert.Equal(t, [4]uint8{0, 0, 255, 255}, at(0, 0), "the top corner: the clear colour")

	// A shader that does not compile is reported with Mesa's log.
	bad := "retrogl-trace 1\nSurface 4 4 0 0 ES2\nCreateShader FRAGMENT_SHADER = 1\n" +
		`ShaderSource 1 {"void main() { gl_FragColor = nope; }\n"}` + "\nCompileShader 1\n"
	_, err = mesaref.Replay([]byte(bad), mesaref.Softpipe)
	require.ErrorIs(t, err, mesaref.ErrGL)
	assert.ErrorContains(t, err, "line 5: CompileShader:")
	assert.ErrorContains(t, err, "nope")
}

const spriteTrace = `retrogl-trace 1
Surface 16 16 0 0
ClearColor 0 0 0 1
Clear COLOR_BUFFER_BIT
PixelStorei UNPACK_ALIGNMENT 1
GenTextures 1 = {1}
BindTexture TEXTURE_2D 1
TexImage2D TEXTURE_2D 0 LUMINANCE 2 2 0 LUMINANCE UNSIGNED_BYTE [4]AP8A/w==
TexParameteri TEXTURE_2D TEXTURE_MIN_FILTER LINEAR
TexParameteri TEXTURE_2D TEXTURE_WRAP_S CLAMP_TO_EDGE
TexParameteri TEXTURE_2D TEXTURE_WRAP_T CLAMP_TO_EDGE
Enable TEXTURE_2D
TexEnvi TEXTURE_ENV TEXTURE_ENV_MODE REPLACE
Enable POINT_SPRITE_OES
TexEnvi POINT_SPRITE_OES COORD_REPLACE_OES 1
EnableClientState VERTEX_ARRAY
`

// TestSpritesOnlyOnPoints: the replayer keeps Mesa from replacing the
// texture coordinates of a triangle drawn while point sprites are enabled
// (a Mesa 22.3 deviation, see draw_non_points): the triangle shows the
// texel of its own coordinate (the white one).
func TestSpritesOnlyOnPoints(t *testing.T) {
	testenv.Need(t, mesaref.Package, mesaref.Available())
	tr := spriteTrace + "MultiTexCoord4f TEXTURE0 0.75 0.25 0 1\n" +
		"VertexPointer 2 FLOAT 0 [32]AACAvwAAgL8AAIA/AACAvwAAgL8AAIA/AACAPwAAgD8=\nDrawArrays TRIANGLE_STRIP 0 4\n"
	for _, r := range []mesaref.Renderer{mesaref.Softpipe, mesaref.Llvmpipe} {
		res, err := mesaref.Replay([]byte(tr), r)
		require.NoError(t, err)
		for x := 0; x < 16; x++ {
			assert.Equal(t, uint8(255), res.Image.Pix[4*(8*16+x)], "%s, x %d", r, x)
		}
	}
}

// TestSoftpipeSpriteShift pins a Mesa softpipe deviation the differential
// tester works around (docs/differential.md): it samples point sprite
// coordinates 1/8 pixel to the left of where GL ES 1.1 section 3.3 puts
// them, so a LINEAR ramp across a size-8 sprite comes out 8 lower than
// s = 1/2 + (x + 1/2 - 8)/8 gives; llvmpipe matches the specification. If
// this test fails, Debian's Mesa changed: the workaround (sprite scenes
// compared with llvmpipe) can go.
func TestSoftpipeSpriteShift(t *testing.T) {
	testenv.Need(t, mesaref.Package, mesaref.Available())
	tr := spriteTrace + "PointSize 8\nVertexPointer 2 FLOAT 0 [8]AAAAAAAAAAA=\nDrawArrays POINTS 0 1\n"
	row := func(r mesaref.Renderer) []uint8 {
		res, err := mesaref.Replay([]byte(tr), r)
		require.NoError(t, err)
		var out []uint8
		for x := 6; x < 10; x++ {
			out = append(out, res.Image.Pix[4*(8*16+x)])
		}
		return out
	}
	assert.Equal(t, []uint8{32, 96, 159, 223}, row(mesaref.Llvmpipe), "the specification's values")
	assert.Equal(t, []uint8{24, 88, 151, 215}, row(mesaref.Softpipe), "softpipe's")
}

// TestColorMaterialOnEnable: enabling COLOR_MATERIAL makes the ambient and
// diffuse material the current colour (GL ES 1.1 section 2.12.3). Mesa
// 22.3 keeps the earlier material until the current colour changes; the
// replayer applies it (see capability), so a white current colour under a
// white light at N.L = 1 lights the quad white, not with the material
// given before.
func TestColorMaterialOnEnable(t *testing.T) {
	testenv.Need(t, mesaref.Package, mesaref.Available())
	tr := `retrogl-trace 1
Surface 16 16 0 0
ClearColor 0 0 0 1
Clear COLOR_BUFFER_BIT
Enable LIGHTING
Enable LIGHT0
Materialfv FRONT_AND_BACK AMBIENT_AND_DIFFUSE {0.5 0.25 0.75 1}
Enable COLOR_MATERIAL
EnableClientState VERTEX_ARRAY
VertexPointer 2 FLOAT 0 [32]AACAvwAAgL8AAIA/AACAvwAAgL8AAIA/AACAPwAAgD8=
DrawArrays TRIANGLE_STRIP 0 4
`
	res, err := mesaref.Replay([]byte(tr), mesaref.Softpipe)
	require.NoError(t, err)
	assert.Equal(t, []uint8{255, 255, 255, 255}, res.Image.Pix[4*(8*16+8):4*(8*16+8)+4])
}

// pointRow draws one white point of size at eye (x, y, z) on a 32x32
// surface with Orthof(-16, 16, -16, 16, -10, 10) (window = eye + 16) and
// attenuation att, and returns which pixels of window row y + 16 are lit,
// as the x range covered.
func pointRow(t *testing.T, r mesaref.Renderer, size float32, pos [3]float32, att [3]float32) [2]int {
	t.Helper()
	var b [12]byte
	for i, v := range pos {
		binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(v))
	}
	tr := fmt.Sprintf(`retrogl-trace 1
Surface 32 32 0 0
ClearColor 0 0 0 1
Clear COLOR_BUFFER_BIT
MatrixMode PROJECTION
Orthof -16 16 -16 16 -10 10
MatrixMode MODELVIEW
Color4f 1 1 1 1
PointSize %v
PointParameterfv POINT_DISTANCE_ATTENUATION {%v %v %v}
EnableClientState VERTEX_ARRAY
VertexPointer 3 FLOAT 0 [12]%s
DrawArrays POINTS 0 1
`, size, att[0], att[1], att[2], base64.StdEncoding.EncodeToString(b[:]))
	res, err := mesaref.Replay([]byte(tr), r)
	require.NoError(t, err)
	row := 31 - int(math.Floor(float64(pos[1]+16)))
	span := [2]int{-1, -1}
	for x := 0; x < 32; x++ {
		if res.Image.Pix[4*(row*32+x)] > 128 {
			if span[0] < 0 {
				span[0] = x
			}
			span[1] = x
		}
	}
	return span
}

// TestPointSizeDeviations pins three Mesa 22.3 deviations in the square of
// an aliased point (GL ES 1.1 section 3.3; gles TestAliasedPointSquare
// pins the backends on the same points) and the replayer's workarounds
// (see draw_points; the differential tester compares point scenes with
// llvmpipe). With MESAREF_MESA_POINT_SIZE=1 the replayer leaves the size
// to Mesa. If a "Mesa's own" value fails, Debian's Mesa changed: the
// workaround can go.
func TestPointSizeDeviations(t *testing.T) {
	testenv.Need(t, mesaref.Package, mesaref.Available())
	// Attenuation (0, 0, 1), size 20, at eye (3.25, 0.25, -4): the eye
	// distance is 5.16 and the size 3.88, rounded 4, covering 17-20 around
	// x_w 19.25; Mesa divides by |z_eye| = 4: size 5, 17-21.
	atPos, atAtt := [3]float32{3.25, 0.25, -4}, [3]float32{0, 0, 1}
	assert.Equal(t, [2]int{17, 20}, pointRow(t, mesaref.Llvmpipe, 20, atPos, atAtt), "the specification's attenuation")
	// Size 3.6 at x_w 8.1: rounded to 4, 6-9; softpipe truncates to 3,
	// 7-9 (llvmpipe rounds).
	rdPos, none := [3]float32{-7.9, 0.1, 0}, [3]float32{1, 0, 0}
	assert.Equal(t, [2]int{6, 9}, pointRow(t, mesaref.Softpipe, 3.6, rdPos, none), "the specification's rounding, worked around on softpipe")
	assert.Equal(t, [2]int{6, 9}, pointRow(t, mesaref.Llvmpipe, 3.6, rdPos, none), "llvmpipe's rounding")
	// Size 5 at x_w 8.8: the square is centred at 8.5, 6-10; softpipe
	// places it at x_w + 1/4, 7-11 (not worked around: point scenes are
	// compared with llvmpipe).
	odPos := [3]float32{-7.2, 0.1, 0}
	assert.Equal(t, [2]int{6, 10}, pointRow(t, mesaref.Llvmpipe, 5, odPos, none), "llvmpipe's placement, the specification's")
	assert.Equal(t, [2]int{7, 11}, pointRow(t, mesaref.Softpipe, 5, odPos, none), "softpipe's own placement")

	t.Setenv("MESAREF_MESA_POINT_SIZE", "1")
	assert.Equal(t, [2]int{17, 21}, pointRow(t, mesaref.Llvmpipe, 20, atPos, atAtt), "Mesa's own attenuation, by |z_eye|")
	assert.Equal(t, [2]int{7, 9}, pointRow(t, mesaref.Softpipe, 3.6, rdPos, none), "softpipe's own truncation")
}

// spotSpecularScene is an 8x8 quad facing the viewer under a directional
// light 45 degrees off its normal with a spot cone around the light's own
// direction (spot factor 1), specular material and light 1 and nothing
// else, with the material line shininess (a Materialf call or nothing: GL's
// default 0) before the draw. Its centre pixel's red is the specular
// factor.
func spotSpecularScene(shininess string) []byte {
	return []byte(`retrogl-trace 1
Surface 8 8 0 0
ClearColor 0 0 1 1
Clear COLOR_BUFFER_BIT
Enable LIGHTING
Enable LIGHT0
LightModelfv LIGHT_MODEL_AMBIENT {0 0 0 1}
Lightfv LIGHT0 POSITION {0.70710677 0 0.70710677 0}
Lightfv LIGHT0 SPOT_DIRECTION {-0.70710677 0 -0.70710677}
Lightf LIGHT0 SPOT_CUTOFF 90
Materialfv FRONT_AND_BACK AMBIENT_AND_DIFFUSE {0 0 0 1}
Materialfv FRONT_AND_BACK SPECULAR {1 1 1 1}
` + shininess + `Normal3f 0 0 1
VertexPointer 2 FLOAT 0 [32]AACAvwAAgL8AAIA/AACAvwAAgL8AAIA/AACAPwAAgD8=
EnableClientState VERTEX_ARRAY
DrawArrays TRIANGLE_STRIP 0 4
`)
}

// TestShininessZeroDeviation pins a Mesa 22.3 deviation and the replayer's
// workaround (see shininess in mesaref.c): with shininess 0 and a light
// with a spot cone, Mesa's specular factor is (n.VP)^(n.VP), 0.707^0.707 =
// 0.78 (200) for a directional light 45 degrees off the normal, where GL
// ES 1.1 section 2.12.1 gives (n.h)^0 = 1 (255; gles TestSpecularExponentZero
// pins the backends on the same scene). With MESAREF_MESA_SHININESS=1 the
// replayer leaves the 0 to Mesa. If the second value fails, Debian's Mesa
// changed: the workaround can go.
func TestShininessZeroDeviation(t *testing.T) {
	testenv.Need(t, mesaref.Package, mesaref.Available())
	tr := spotSpecularScene("Materialf FRONT_AND_BACK SHININESS 0\n")
	grey := func() uint8 {
		res, err := mesaref.Replay(tr, mesaref.Softpipe)
		require.NoError(t, err)
		return res.Image.Pix[4*(4*8+4)]
	}
	assert.Equal(t, uint8(255), grey(), "the specification's (n.h)^0, worked around")
	t.Setenv("MESAREF_MESA_SHININESS", "1")
	assert.Equal(t, uint8(200), grey(), "Mesa's own (n.VP)^(n.VP)")
}

// TestServerForgetsShininess replays, on one Server, a trace that sets a
// shininess of 64 and then a trace that leaves it at GL's default 0: the
// second trace's image is the same as on a fresh server (the replayer's
// record of the trace's shininess, which its shininess-0 workaround reads,
// starts from 0 for every trace; it once leaked from one scene into the
// next and failed rgldiff scenes on every backend).
func TestServerForgetsShininess(t *testing.T) {
	testenv.Need(t, mesaref.Package, mesaref.Available())
	scene := spotSpecularScene
	s, err := mesaref.NewServer(mesaref.Softpipe)
	require.NoError(t, err)
	defer s.Close()
	first, err := s.Replay(scene("Materialf FRONT_AND_BACK SHININESS 64\n"))
	require.NoError(t, err)
	assert.Less(t, first.Image.Pix[4*(4*8+4)], uint8(8), "(n.h)^64 at 22.5 degrees")
	second, err := s.Replay(scene(""))
	require.NoError(t, err)
	assert.Equal(t, uint8(255), second.Image.Pix[4*(4*8+4)], "the default shininess 0: (n.h)^0")
}

// TestSoftpipeWideLineShift pins a Mesa softpipe deviation the differential
// tester works around (scenes with wide lines are compared with llvmpipe):
// on a line of width 3, softpipe gives the fragments of a column the colour
// half a pixel further along the line than their centres. A red ramp from
// 0 at window (4.5, 8.5) to 1 at (12.5, 9.5): the column at x = 7 has
// t = 0.369 at its centre by ES 1.1 section 3.4.1's formula (red 94),
// llvmpipe takes the centre's x (t = 3/8, 96), softpipe t = 3.5/8 (112).
func TestSoftpipeWideLineShift(t *testing.T) {
	testenv.Need(t, mesaref.Package, mesaref.Available())
	ndc := func(w float32) float32 { return (w - 16) / 16 }
	var v [16]byte
	for i, f := range []float32{ndc(4.5), ndc(8.5), ndc(12.5), ndc(9.5)} {
		binary.LittleEndian.PutUint32(v[4*i:], math.Float32bits(f))
	}
	tr := fmt.Sprintf(`retrogl-trace 1
Surface 32 32 0 0
ClearColor 0 0 1 1
Clear COLOR_BUFFER_BIT
LineWidth 3
VertexPointer 2 FLOAT 0 [16]%s
EnableClientState VERTEX_ARRAY
ColorPointer 4 FLOAT 0 [32]AAAAAAAAAAAAAAAAAACAPwAAgD8AAAAAAAAAAAAAgD8=
EnableClientState COLOR_ARRAY
DrawArrays LINES 0 2
`, base64.StdEncoding.EncodeToString(v[:]))
	column := func(r mesaref.Renderer) []uint8 {
		res, err := mesaref.Replay([]byte(tr), r)
		require.NoError(t, err)
		var out []uint8
		for y := 8; y <= 9; y++ { // rows both put in the column
			out = append(out, res.Image.Pix[4*((31-y)*32+7)])
		}
		return out
	}
	assert.Equal(t, []uint8{96, 96}, column(mesaref.Llvmpipe), "llvmpipe: the fragment centres")
	assert.Equal(t, []uint8{112, 112}, column(mesaref.Softpipe), "softpipe: half a pixel along the line")
}

// TestZeroShininessAttenuated: with a shininess of 0 the specular factor
// is (N.H)^0 = 1 wherever N.L > 0 (GL ES 1.1 section 2.12.1). Mesa 22.3
// computes (N.L)^(N.L) for a light with distance attenuation; the replayer
// sends a shininess of 0 as 1e-20 before draws with one-sided lighting
// (prepare_shininess in mesaref.c). A quad at z = 0 under a
// light at (0, 0, 2) with quadratic attenuation 0.25: every corner is at
// distance sqrt(6), so att = 1/2.5 = 0.4 and N.L = 2/sqrt(6) = 0.8165, and
// with the default material (ambient 0.2, diffuse 0.8) and specular
// (0.5, 0.25, 0) the colour is 0.04 + 0.4·(0.8·0.8165 + s) = (127.8, 102.3,
// 76.8); Mesa's own factor 0.8475 would give (120, 98, 77).
func TestZeroShininessAttenuated(t *testing.T) {
	testenv.Need(t, mesaref.Package, mesaref.Available())
	tr := `retrogl-trace 1
Surface 16 16 0 0
ClearColor 0 0 0 1
Clear COLOR_BUFFER_BIT
MatrixMode PROJECTION
Orthof -1 1 -1 1 -10 10
MatrixMode MODELVIEW
Enable LIGHTING
Enable LIGHT0
Lightfv LIGHT0 POSITION {0 0 2 1}
Lightf LIGHT0 QUADRATIC_ATTENUATION 0.25
Materialfv FRONT_AND_BACK SPECULAR {0.5 0.25 0 1}
Materialf FRONT_AND_BACK SHININESS 0
EnableClientState VERTEX_ARRAY
VertexPointer 3 FLOAT 0 [48]AACAvwAAgL8AAAAAAACAPwAAgL8AAAAAAACAPwAAgD8AAAAAAACAvwAAgD8AAAAA
DrawArrays TRIANGLE_FAN 0 4
`
	for _, r := range []mesaref.Renderer{mesaref.Softpipe, mesaref.Llvmpipe} {
		res, err := mesaref.Replay([]byte(tr), r)
		require.NoError(t, err)
		px := res.Image.Pix[4*(8*16+8) : 4*(8*16+8)+3]
		for i, want := range []float64{127.8, 102.3, 76.8} {
			assert.InDelta(t, want, float64(px[i]), 1, "%s, channel %d: %v", r, i, px)
		}
	}
}
