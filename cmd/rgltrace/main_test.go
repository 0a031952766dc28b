package main

import (
	"bytes"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/retrogl/retrogl/examples/scenes"
	"github.com/retrogl/retrogl/gles"
	"github.com/retrogl/retrogl/internal/testenv"
	"github.com/retrogl/retrogl/tools/mesaref"
	"github.com/retrogl/retrogl/trace"
)

// recordTriangle records the triangle scene's trace on pspge, twice over
// (two frames), and returns the trace file and the image of the first.
func recordTriangle(t *testing.T) (string, []byte) {
	t.Helper()
	s := scenes.Triangle()
	ctx, err := gles.NewContext("pspge", s.Config)
	require.NoError(t, err)
	defer ctx.Close()
	var buf bytes.Buffer
	rec := trace.NewRecorder(ctx, &buf, s.Config)
	require.NoError(t, s.Draw(rec)) // ends with Finish
	var first bytes.Buffer
	require.NoError(t, png.Encode(&first, ctx.Image()))
	rec.ClearColor(1, 1, 1, 1)
	rec.Clear(gles.COLOR_BUFFER_BIT)
	rec.Finish()
	require.NoError(t, rec.Close())
	path := filepath.Join(t.TempDir(), "tri.trace")
	require.NoError(t, os.WriteFile(path, buf.Bytes(), 0o644))
	return path, first.Bytes()
}

// TestPlay writes one PNG per Finish, named as printed: the first is the
// scene's image, the second the white frame.
func TestPlay(t *testing.T) {
	path, first := recordTriangle(t)
	out := t.TempDir()
	var w bytes.Buffer
	require.NoError(t, playCmd(&w, []string{"-backend", "pspge", "-out", out, path}))
	want := []string{filepath.Join(out, "tri-pspge-1.png"), filepath.Join(out, "tri-pspge-2.png")}
	assert.Equal(t, strings.Join(want, "\n")+"\n", w.String())
	got, err := os.ReadFile(want[0])
	require.NoError(t, err)
	img1, err := png.Decode(bytes.NewReader(got))
	require.NoError(t, err)
	ref, err := png.Decode(bytes.NewReader(first))
	require.NoError(t, err)
	assert.Equal(t, ref, img1)
	f, err := os.Open(want[1])
	require.NoError(t, err)
	defer f.Close()
	img2, err := png.Decode(f)
	require.NoError(t, err)
	r, g, b, _ := img2.At(5, 5).RGBA()
	assert.Equal(t, [3]uint32{0xffff, 0xffff, 0xffff}, [3]uint32{r, g, b})
}

// TestPlayErrors: a missing file, a file that is not a trace, a trace with
// a bad call and an unknown backend each give an error naming the problem.
func TestPlayErrors(t *testing.T) {
	dir := t.TempDir()
	notTrace := filepath.Join(dir, "x.trace")
	require.NoError(t, os.WriteFile(notTrace, []byte("hello\n"), 0o644))
	badCall := filepath.Join(dir, "y.trace")
	require.NoError(t, os.WriteFile(badCall, []byte("retrogl-trace 1\nSurface 8 8 0 0\nFinish\nEnable 7.5\n"), 0o644))
	tests := []struct {
		args []string
		want string
	}{
		{[]string{filepath.Join(dir, "none.trace")}, "no such file"},
		{[]string{notTrace}, `want "retrogl-trace 1"`},
		{[]string{"-out", dir, badCall}, `trace: line 4: Enable: argument 1: want an enum, got "7.5"`},
		{[]string{"-backend", "voodoo", "-out", dir, badCall}, "voodoo"},
	}
	for _, tc := range tests {
		var w bytes.Buffer
		err := playCmd(&w, tc.args)
		assert.ErrorContains(t, err, tc.want, tc.args)
	}
}

// TestStat counts a hand-written trace.
func TestStat(t *testing.T) {
	tr, err := trace.Parse(strings.NewReader("retrogl-trace 1\nSurface 64 32 16 0 ES2\n" +
		"GenTextures 2 = {1 2}\nBindTexture TEXTURE_2D 1\n" +
		"TexImage2D TEXTURE_2D 0 RGBA 1 1 0 RGBA UNSIGNED_BYTE [4]AQIDBA==\n" +
		"TexSubImage2D TEXTURE_2D 0 0 0 1 1 RGBA UNSIGNED_BYTE [4]AQIDBA==\n" +
		"CreateShader VERTEX_SHADER = 1\nCreateShader FRAGMENT_SHADER = 2\nCreateProgram = 3\n" +
		"DrawArrays TRIANGLES 0 3\nDrawArrays TRIANGLES 3 3\nFinish\nDrawElements TRIANGLES 3 UNSIGNED_SHORT nil\nFinish\n"))
	require.NoError(t, err)
	s := stats(tr)
	assert.Equal(t, Stats{Width: 64, Height: 32, ES2: true, Calls: 12,
		ByName: map[string]int{"GenTextures": 1, "BindTexture": 1, "TexImage2D": 1, "TexSubImage2D": 1, "CreateShader": 2,
			"CreateProgram": 1, "DrawArrays": 2, "Finish": 2, "DrawElements": 1},
		Draws: 3, Frames: 2, Textures: 2, Uploads: 2, UploadBytes: 8, Shaders: 2, Programs: 1}, s)
	var w bytes.Buffer
	writeStats(&w, s)
	assert.Contains(t, w.String(), "surface   64x32, GL ES 2.0\ncalls     12\ndraws     3\nframes    2 (Finish calls)\ntextures  2 names, 2 image uploads, 8 bytes\nshaders   2, programs 1\n")
	assert.Contains(t, w.String(), "       2  CreateShader\n       2  DrawArrays\n       2  Finish\n")
}

// TestCompare compares the triangle on every backend with Mesa: every
// backend plays it, and each line gives the metric.
func TestCompare(t *testing.T) {
	testenv.Need(t, mesaref.Package, mesaref.Available())
	path, _ := recordTriangle(t)
	out := t.TempDir()
	var w bytes.Buffer
	err := compareCmd(&w, []string{"-out", out, path})
	text := w.String()
	require.NoError(t, err, text)
	assert.True(t, strings.HasPrefix(text, "reference: Mesa softpipe"), text)
	for _, b := range []string{"glamo3365", "pspge", "pica200", "unichrome", "r300"} {
		assert.Regexp(t, "(?m)^"+b+` +pass  bad \d+\.\d+%, mean`, text)
		for _, f := range []string{"tri-" + b + ".png", "tri-" + b + ".diff.png"} {
			_, err := os.Stat(filepath.Join(out, f))
			assert.NoError(t, err)
		}
	}
	_, err = os.Stat(filepath.Join(out, "tri-mesa.png"))
	assert.NoError(t, err)
}
