package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"image"
	"image/png"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/retrogl/retrogl/examples/scenes"
	"github.com/retrogl/retrogl/gles"
	"github.com/retrogl/retrogl/hal"
	"github.com/retrogl/retrogl/internal/testenv"
	"github.com/retrogl/retrogl/tools/frame"
	"github.com/retrogl/retrogl/tools/mesaref"
	"github.com/retrogl/retrogl/trace"
)

var allBackends = []string{"glamo3365", "pspge", "pica200", "unichrome", "r300"}

// triangleCapture renders the triangle scene on a backend with a device
// capture and returns the capture.
func triangleCapture(t testing.TB, backend string) []byte {
	t.Helper()
	s := scenes.Triangle()
	var buf bytes.Buffer
	cfg := s.Config
	cfg.Capture = &buf
	ctx, err := gles.NewContext(backend, cfg)
	require.NoError(t, err)
	require.NoError(t, s.Draw(ctx))
	require.NoError(t, ctx.Err())
	require.NoError(t, ctx.Close())
	return buf.Bytes()
}

// triangleTrace records the triangle scene's GL calls.
func triangleTrace(t testing.TB) []byte {
	t.Helper()
	s := scenes.Triangle()
	ctx, err := gles.NewContext("pspge", s.Config)
	require.NoError(t, err)
	defer ctx.Close()
	var buf bytes.Buffer
	rec := trace.NewRecorder(ctx, &buf, s.Config)
	require.NoError(t, s.Draw(rec))
	require.NoError(t, rec.Close())
	return buf.Bytes()
}

// get fetches a path from the server and returns the status, content type
// and body.
func get(t testing.TB, srv *httptest.Server, path string) (int, string, []byte) {
	t.Helper()
	c := srv.Client()
	c.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	res, err := c.Get(srv.URL + path)
	require.NoError(t, err)
	defer res.Body.Close()
	body, err := io.ReadAll(res.Body)
	require.NoError(t, err)
	return res.StatusCode, res.Header.Get("Content-Type"), body
}

func decodePNG(t testing.TB, b []byte) image.Image {
	t.Helper()
	img, err := png.Decode(bytes.NewReader(b))
	require.NoError(t, err)
	return img
}

// sameImage asserts two images hold the same colours.
func sameImage(t testing.TB, want, got image.Image) {
	t.Helper()
	require.Equal(t, want.Bounds(), got.Bounds())
	b := want.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r1, g1, b1, a1 := want.At(x, y).RGBA()
			r2, g2, b2, a2 := got.At(x, y).RGBA()
			if r1 != r2 || g1 != g2 || b1 != b2 || a1 != a2 {
				t.Fatalf("pixel (%d, %d): want %v, got %v", x, y, want.At(x, y), got.At(x, y))
			}
		}
	}
}

// TestCaptureEveryBackend opens the triangle capture of every backend:
// the page lists every draw the chip's inspector found, each draw's page
// shows its commands, the surface images are the replayed ones, and the
// JSON endpoints agree.
func TestCaptureEveryBackend(t *testing.T) {
	for _, b := range allBackends {
		t.Run(b, func(t *testing.T) {
			data := triangleCapture(t, b)
			f, err := frame.Load(data)
			require.NoError(t, err)
			require.GreaterOrEqual(t, len(f.Draws), 2, "the triangle scene clears and draws")
			srv := httptest.NewServer(newServer("tri.cap", data, ""))
			defer srv.Close()

			code, ctype, body := get(t, srv, "/")
			require.Equal(t, http.StatusOK, code, string(body))
			assert.Equal(t, "text/html; charset=utf-8", ctype)
			page := string(body)
			assert.Contains(t, page, `<span class="chip" id="chip">`+f.Info.Chip+`</span>`)
			for i := range f.Draws {
				assert.Contains(t, page, fmt.Sprintf(`id="draw-%d" href="/?draw=%d"`, i, i))
			}

			last := len(f.Draws) - 1
			code, _, body = get(t, srv, fmt.Sprintf("/?draw=%d", last))
			require.Equal(t, http.StatusOK, code, string(body))
			page = string(body)
			d := f.Draws[last]
			sub := f.Subs[d.Sub]
			// The draw's last command line is on its page, escaped.
			lines := sub.Lines(d.First, d.Last)
			require.NotEmpty(t, lines)
			assert.Contains(t, page, strings.ReplaceAll(strings.ReplaceAll(lines[len(lines)-1], "&", "&amp;"), "<", "&lt;"))
			assert.Contains(t, page, `id="prev" href="/?draw=`+fmt.Sprint(last-1))
			assert.NotContains(t, page, `id="next"`)

			snap, err := f.After(last)
			require.NoError(t, err)
			for i, sv := range snap.Surfaces {
				if sv.Err != nil {
					continue
				}
				code, ctype, body = get(t, srv, fmt.Sprintf("/surface/%d/%d", last, i))
				require.Equal(t, http.StatusOK, code, string(body))
				assert.Equal(t, "image/png", ctype)
				sameImage(t, surfaceImage(&sv), decodePNG(t, body))
			}

			code, ctype, body = get(t, srv, "/api/frame")
			require.Equal(t, http.StatusOK, code)
			assert.Equal(t, "application/json", ctype)
			var fr struct {
				Chip  string
				Kind  string
				Draws []struct{ Index, Submission int }
			}
			require.NoError(t, json.Unmarshal(body, &fr))
			assert.Equal(t, f.Info.Chip, fr.Chip)
			assert.Equal(t, "capture", fr.Kind)
			assert.Len(t, fr.Draws, len(f.Draws))

			code, _, body = get(t, srv, fmt.Sprintf("/api/draw/%d", last))
			require.Equal(t, http.StatusOK, code)
			var dv struct {
				Index     int
				Lines     []string
				Registers []hal.RegisterValue
				Surfaces  []struct{ Kind, Image string }
			}
			require.NoError(t, json.Unmarshal(body, &dv))
			assert.Equal(t, last, dv.Index)
			assert.Equal(t, lines, dv.Lines)
			assert.Equal(t, snap.Registers, dv.Registers)
			require.NotEmpty(t, dv.Surfaces)
			assert.Equal(t, "colour", dv.Surfaces[0].Kind)
		})
	}
}

// TestPick clicks the middle of the triangle: the redirect carries the
// pixel, and the page lists the draws frame.History finds, with their
// colours.
func TestPick(t *testing.T) {
	data := triangleCapture(t, "r300")
	f, err := frame.Load(data)
	require.NoError(t, err)
	srv := httptest.NewServer(newServer("tri.cap", data, ""))
	defer srv.Close()

	code, _, _ := get(t, srv, "/pick/1/2?320,260")
	assert.Equal(t, http.StatusSeeOther, code)
	c := srv.Client()
	c.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	res, err := c.Get(srv.URL + "/pick/1/2?320,260")
	require.NoError(t, err)
	res.Body.Close()
	assert.Equal(t, "/?draw=1&zoom=2&x=160&y=130#pixel", res.Header.Get("Location"))

	h, err := f.History(1, 160, 130)
	require.NoError(t, err)
	require.NotEmpty(t, h.Writes)
	code, _, body := get(t, srv, "/?draw=1&zoom=2&x=160&y=130")
	require.Equal(t, http.StatusOK, code)
	page := string(body)
	assert.Contains(t, page, "Pixel (160, 130)")
	assert.Equal(t, len(h.Writes), strings.Count(page, `<tr class="write"`))
	for _, w := range h.Writes {
		assert.Contains(t, page, fmt.Sprintf(`data-draw="%d"`, w.Draw))
		assert.Contains(t, page, fmt.Sprintf("<code>%#08x</code>", w.Color))
	}

	code, _, body = get(t, srv, "/api/pixel/1?x=160&y=130")
	require.Equal(t, http.StatusOK, code)
	var got frame.PixelHistory
	require.NoError(t, json.Unmarshal(body, &got))
	assert.Equal(t, *h, got)
}

// TestBadRequests asks for what is not there: each answer names it, with
// its status, and nothing panics.
func TestBadRequests(t *testing.T) {
	data := triangleCapture(t, "pspge")
	srv := httptest.NewServer(newServer("tri.cap", data, ""))
	defer srv.Close()
	tests := []struct {
		path string
		code int
		want string
	}{
		{"/?draw=99", http.StatusNotFound, "no draw 99: the capture has"},
		{"/?draw=x", http.StatusBadRequest, `draw &#34;x&#34; is not a number`},
		{"/?draw=-1", http.StatusNotFound, "no draw -1"},
		{"/?draw=0&zoom=z", http.StatusBadRequest, `zoom=&#34;z&#34; is not a number`},
		{"/?draw=0&x=a&y=1", http.StatusBadRequest, `x=&#34;a&#34; is not a number`},
		{"/surface/99/0", http.StatusNotFound, "no draw 99"},
		{"/surface/0/99", http.StatusNotFound, `draw 0 has no surface "99"`},
		{"/pick/0/1?nonsense", http.StatusBadRequest, `pick &#34;nonsense&#34;: want ?x,y`},
		{"/pick/0/99?1,1", http.StatusBadRequest, `zoom &#34;99&#34; is not 1 to 8`},
		{"/api/draw/7x", http.StatusBadRequest, `draw \"7x\" is not a number`},
		{"/api/pixel/0?x=-5&y=0", http.StatusBadRequest, "outside"},
		{"/compare", http.StatusNotFound, "the comparison is for traces"},
		{"/compare/r300.png", http.StatusNotFound, "not a trace"},
		{"/nothing", http.StatusNotFound, "404 page not found"},
	}
	for _, tc := range tests {
		code, _, body := get(t, srv, tc.path)
		assert.Equal(t, tc.code, code, tc.path)
		assert.Contains(t, string(body), tc.want, tc.path)
	}
	// The pixel picked in the page outside the buffer is said there.
	code, _, body := get(t, srv, "/?draw=0&x=5000&y=0")
	assert.Equal(t, http.StatusOK, code)
	assert.Contains(t, string(body), `<div class="error" id="pixel">`)
}

// TestBadFiles opens files that are not captures or traces, or are
// damaged: every page is a clear error page (422 with the reason), the
// JSON says it too, and nothing panics.
func TestBadFiles(t *testing.T) {
	good := triangleCapture(t, "glamo3365")
	tests := []struct {
		name string
		data []byte
		want string
	}{
		{"empty", nil, "empty.cap: "},
		{"text", []byte("hello, world\n"), "text.cap: "},
		{"truncated", good[:len(good)/2], "truncated.cap: "},
		{"bad trace", []byte("retrogl-trace 1\nSurface 1 1 0\n"), "the Surface line takes 4 numbers"},
		{"unplayable trace", []byte("retrogl-trace 1\nSurface 8 8 0 0\nNoSuchCall 1\n"), `unknown call &#34;NoSuchCall&#34;`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			file := strings.ReplaceAll(tc.name, " ", "") + ".cap"
			s := newServer(file, tc.data, "")
			srv := httptest.NewServer(s)
			defer srv.Close()
			if s.frame != nil {
				// A damaged file whose readable part is shown: the
				// warning is on the page.
				code, _, body := get(t, srv, "/")
				assert.Equal(t, http.StatusOK, code)
				assert.Contains(t, string(body), tc.want)
				return
			}
			for _, p := range []string{"/", "/?draw=0", "/pick/0/1?1,1", "/compare"} {
				code, ctype, body := get(t, srv, p)
				assert.Equal(t, http.StatusUnprocessableEntity, code, p)
				assert.Equal(t, "text/html; charset=utf-8", ctype, p)
				assert.Contains(t, string(body), "Cannot show this file", p)
				assert.Contains(t, string(body), tc.want, p)
			}
			code, _, body := get(t, srv, "/api/frame")
			assert.Equal(t, http.StatusUnprocessableEntity, code)
			var e map[string]string
			require.NoError(t, json.Unmarshal(body, &e))
			assert.Contains(t, e["error"], file)
			code, _, _ = get(t, srv, "/surface/0/0")
			assert.Equal(t, http.StatusUnprocessableEntity, code)
		})
	}
}

// TestTrace opens the triangle's trace: it plays on the backend asked
// for, each draw lists the GL calls that produced it, and /compare shows
// every backend beside Mesa.
func TestTrace(t *testing.T) {
	data := triangleTrace(t)
	srv := httptest.NewServer(newServer("tri.trace", data, "unichrome"))
	defer srv.Close()
	code, _, body := get(t, srv, "/")
	require.Equal(t, http.StatusOK, code, string(body))
	page := string(body)
	assert.Contains(t, page, `<b id="backend">unichrome</b>`)
	assert.Contains(t, page, `<span class="chip" id="chip">unichrome</span>`)
	assert.Contains(t, page, `href="/compare"`)

	tr, err := trace.Parse(bytes.NewReader(data))
	require.NoError(t, err)
	f, err := frame.FromTrace(tr, "unichrome")
	require.NoError(t, err)
	last := len(f.Draws) - 1
	code, _, body = get(t, srv, fmt.Sprintf("/?draw=%d", last))
	require.Equal(t, http.StatusOK, code)
	page = string(body)
	require.NotEmpty(t, f.Draws[last].Calls)
	assert.Contains(t, page, `<ol class="calls" id="calls">`)
	assert.Contains(t, page, "DrawArrays TRIANGLES")
}

// es2Trace records a small GL ES 2.0 program: a uniform-coloured triangle
// over a clear.
func es2Trace(t testing.TB) []byte {
	t.Helper()
	cfg := gles.Config{Width: 64, Height: 48, DepthBits: 16, ES2: true}
	ctx, err := gles.NewContext("r300", cfg)
	require.NoError(t, err)
	defer ctx.Close()
	var buf bytes.Buffer
	gl := trace.NewRecorder(ctx, &buf, cfg)
	vs := gl.CreateShader(gles.VERTEX_SHADER)
	gl.ShaderSource(vs, "attribute vec2 pos;\nvoid main() { gl_Position = vec4(pos, 0.0, 1.0); }\n")
	gl.CompileShader(vs)
	fs := gl.CreateShader(gles.FRAGMENT_SHADER)
	gl.ShaderSource(fs, "precision mediump float;\nuniform vec4 col;\nvoid main() { gl_FragColor = col * 0.5 + vec4(0.25); }\n")
	gl.CompileShader(fs)
	p := gl.CreateProgram()
	gl.AttachShader(p, vs)
	gl.AttachShader(p, fs)
	gl.LinkProgram(p)
	gl.UseProgram(p)
	gl.ClearColor(0, 0, 0.5, 1)
	gl.Clear(gles.COLOR_BUFFER_BIT)
	gl.Uniform4f(gl.GetUniformLocation(p, "col"), 1, 0.5, 0, 1)
	loc := gl.GetAttribLocation(p, "pos")
	gl.VertexAttribPointer(loc, 2, gles.FLOAT, false, 0, []float32{-1, -1, 1, -1, 0, 1})
	gl.EnableVertexAttribArray(loc)
	gl.DrawArrays(gles.TRIANGLES, 0, 3)
	gl.Finish()
	require.NoError(t, gl.Close())
	require.NoError(t, ctx.Err())
	return buf.Bytes()
}

// TestES2Trace opens a GL ES 2.0 trace: it plays on r300 by default, the
// draw lists its GL calls and the R3xx fragment program disassembled.
func TestES2Trace(t *testing.T) {
	srv := httptest.NewServer(newServer("es2.trace", es2Trace(t), ""))
	defer srv.Close()
	code, _, body := get(t, srv, "/")
	require.Equal(t, http.StatusOK, code, string(body))
	page := string(body)
	assert.Contains(t, page, `<b id="backend">r300</b>`)
	code, _, body = get(t, srv, "/api/frame")
	require.Equal(t, http.StatusOK, code)
	var fr struct{ Draws []struct{ Index int } }
	require.NoError(t, json.Unmarshal(body, &fr))
	require.NotEmpty(t, fr.Draws)
	last := len(fr.Draws) - 1
	code, _, body = get(t, srv, fmt.Sprintf("/?draw=%d", last))
	require.Equal(t, http.StatusOK, code)
	page = string(body)
	assert.Contains(t, page, "DrawArrays TRIANGLES 0 3")
	assert.Contains(t, page, "<h3>fragment program (US)</h3>")
	assert.Contains(t, page, "MAD")
}

// TestCompare opens the comparison page of the triangle's trace: every
// backend beside Mesa softpipe, each with its image, its difference image
// and a passing metric; the ES 2.0 trace lists the backends without
// shaders with their error.
func TestCompare(t *testing.T) {
	testenv.Need(t, mesaref.Package, mesaref.Available())
	srv := httptest.NewServer(newServer("tri.trace", triangleTrace(t), ""))
	defer srv.Close()
	code, _, body := get(t, srv, "/compare")
	require.Equal(t, http.StatusOK, code, string(body))
	page := string(body)
	assert.Contains(t, page, "compared with Mesa softpipe")
	for _, b := range allBackends {
		assert.Contains(t, page, `<tr id="row-`+b+`">`)
		assert.Regexp(t, `(?s)<tr id="row-`+b+`">.*?<span class="pass">pass</span> bad \d`, page)
		for _, suffix := range []string{".png", ".diff.png"} {
			code, ctype, img := get(t, srv, "/compare/"+b+suffix)
			require.Equal(t, http.StatusOK, code, b+suffix)
			assert.Equal(t, "image/png", ctype)
			assert.Equal(t, image.Rect(0, 0, 320, 240), decodePNG(t, img).Bounds())
		}
	}
	code, _, _ = get(t, srv, "/compare/mesa.png")
	assert.Equal(t, http.StatusOK, code)
	code, _, body = get(t, srv, "/compare/voodoo.png")
	assert.Equal(t, http.StatusNotFound, code)
	assert.Contains(t, string(body), `no image "voodoo"`)

	srv2 := httptest.NewServer(newServer("es2.trace", es2Trace(t), ""))
	defer srv2.Close()
	code, _, body = get(t, srv2, "/compare")
	require.Equal(t, http.StatusOK, code)
	page = string(body)
	assert.Contains(t, page, "pspge: GL ES 2.0 contexts are not supported")
	assert.Regexp(t, `(?s)<tr id="row-r300">.*?<span class="pass">pass</span>`, page)
}

// TestEveryExample opens the capture of every example scene on every
// backend: the page lists every draw the chip's inspector found and the
// last draw's page shows its replayed colour buffer.
func TestEveryExample(t *testing.T) {
	if testing.Short() {
		t.Skip("every scene on every backend: not in -short")
	}
	for _, s := range scenes.All() {
		for _, b := range allBackends {
			t.Run(s.Name+"/"+b, func(t *testing.T) {
				var buf bytes.Buffer
				cfg := s.Config
				cfg.Capture = &buf
				ctx, err := gles.NewContext(b, cfg)
				require.NoError(t, err)
				// A backend lacking a feature the scene needs draws what
				// it can (the gallery's rule): GL errors are not this
				// test's concern.
				_ = s.Draw(ctx)
				require.NoError(t, ctx.Close())
				f, err := frame.Load(buf.Bytes())
				require.NoError(t, err)
				require.NotEmpty(t, f.Draws)
				srv := httptest.NewServer(newServer(s.Name+".cap", buf.Bytes(), ""))
				defer srv.Close()
				last := len(f.Draws) - 1
				code, _, body := get(t, srv, fmt.Sprintf("/?draw=%d", last))
				require.Equal(t, http.StatusOK, code, string(body))
				page := string(body)
				for i := range f.Draws {
					assert.Contains(t, page, fmt.Sprintf(`id="draw-%d"`, i))
				}
				assert.NotContains(t, page, `id="replay-error"`)
				code, ctype, _ := get(t, srv, fmt.Sprintf("/surface/%d/0", last))
				assert.Equal(t, http.StatusOK, code)
				assert.Equal(t, "image/png", ctype)
			})
		}
	}
}
