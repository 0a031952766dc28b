// Package app is the command-line shell the example programs share: the
// -backend, -o, -out and -trace flags, rendering on each backend, and PNG
// output.
package app

import (
	"errors"
	"flag"
	"fmt"
	"image"
	"image/png"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"

	"github.com/retrogl/retrogl/backends"
	"github.com/retrogl/retrogl/driver"
	"github.com/retrogl/retrogl/examples/scenes"
	"github.com/retrogl/retrogl/gles"
	"github.com/retrogl/retrogl/trace"
)

// Result is one scene rendered on one backend.
type Result struct {
	Scene   scenes.Scene
	Backend string
	// Image is the colour buffer after the scene, nil when no context
	// could be made.
	Image image.Image
	// Missing are the features the scene needs that the backend lacks.
	Missing []driver.Feature
	// Err holds the GL errors and device faults the scene raised, and any
	// failure to make the context or write the trace.
	Err error
}

// Failed reports a real failure: no image, or an error on a backend that
// has every feature the scene needs. Errors caused by a missing feature are
// expected: the image is partial and marked, not failed.
func (r *Result) Failed() bool {
	return r.Image == nil || (r.Err != nil && len(r.Missing) == 0)
}

// Render draws a scene once on a backend and returns the colour buffer. A
// GL error the scene raises (a missing feature, a device fault) comes back
// with the image, which holds whatever was drawn.
func Render(backend string, s scenes.Scene) (image.Image, error) {
	r := RenderWith(backend, s, Options{})
	return r.Image, r.Err
}

// RenderCapture is Render that also records a device capture to w (see
// hal.NewCapture) when w is not nil.
func RenderCapture(backend string, s scenes.Scene, w io.Writer) (image.Image, error) {
	r := RenderWith(backend, s, Options{Capture: w})
	return r.Image, r.Err
}

// RenderScene draws a scene on a backend, recording its GL calls to rec
// when rec is not nil.
func RenderScene(backend string, s scenes.Scene, rec io.Writer) Result {
	return RenderWith(backend, s, Options{Trace: rec})
}

// Options are the recordings a render can make.
type Options struct {
	// Trace, when set, receives the scene's GL calls (package trace).
	Trace io.Writer
	// Capture, when set, receives the device capture (hal.NewCapture).
	Capture io.Writer
}

// RenderWith draws a scene on a backend with the recordings opt asks for. A
// panic anywhere below is caught and reported as the result's error, so
// that one broken backend cannot stop a gallery.
func RenderWith(backend string, s scenes.Scene, opt Options) (res Result) {
	res = Result{Scene: s, Backend: backend}
	defer func() {
		if p := recover(); p != nil {
			res.Err = errors.Join(res.Err, fmt.Errorf("%s on %s: panic: %v\n%s", s.Name, backend, p, debug.Stack()))
		}
	}()
	rec := opt.Trace
	cfg := s.Config
	cfg.Capture = opt.Capture
	ctx, err := gles.NewContext(backend, cfg)
	if err != nil {
		res.Err = fmt.Errorf("%s on %s: %w", s.Name, backend, err)
		return res
	}
	closed := false
	defer func() {
		if !closed { // a panic in Draw: release the context all the same
			ctx.Close()
		}
	}()
	res.Missing = s.Missing(ctx.Caps())
	var gl trace.GL = ctx
	var r *trace.Recorder
	if rec != nil {
		r = trace.NewRecorder(ctx, rec, s.Config)
		r.Comment(fmt.Sprintf("%s, recorded on %s", s.Name, backend))
		gl = r
	}
	drawErr := s.Draw(gl)
	res.Image = ctx.Image()
	if err := ctx.Err(); err != nil {
		drawErr = errors.Join(drawErr, err)
	}
	if r != nil {
		if err := r.Close(); err != nil {
			drawErr = errors.Join(drawErr, err)
		}
	}
	closed = true
	if err := ctx.Close(); err != nil {
		drawErr = errors.Join(drawErr, err)
	}
	if drawErr != nil {
		res.Err = fmt.Errorf("%s on %s: %w", s.Name, backend, drawErr)
	}
	return res
}

// create creates a file and its directory.
func create(path string) (*os.File, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, err
	}
	return os.Create(path)
}

// WritePNG writes an image to path, creating its directory.
func WritePNG(path string, img image.Image) error {
	if dir := filepath.Dir(path); dir != "" {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return err
		}
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := png.Encode(f, img); err != nil {
		f.Close()
		return fmt.Errorf("encode %s: %w", path, err)
	}
	return f.Close()
}

// MissingText names missing features for a label: "missing: fog, blend".
func MissingText(fs []driver.Feature) string {
	names := make([]string, len(fs))
	for i, f := range fs {
		names[i] = f.String()
	}
	return "missing: " + strings.Join(names, ", ")
}

// TracePath returns where -trace FILE (or -capture FILE) puts the
// recording of scene s when its command draws several scenes: FILE with the part of the scene's name after
// the command's before the extension (gears.trace: gears-0.trace, ...).
func TracePath(file string, s scenes.Scene, several bool) string {
	if !several {
		return file
	}
	ext := filepath.Ext(file)
	suffix := strings.TrimPrefix(s.Name, s.Command())
	if suffix == s.Name {
		suffix = "-" + s.Name
	}
	return strings.TrimSuffix(file, ext) + suffix + ext
}

// Main runs an example command: it renders its scenes on the backends the
// flags select and prints every file written. It exits 1 on a real failure
// (see Result.Failed), not when a backend lacks a feature the scene needs;
// that is reported on stderr and the partial image is written.
func Main(ss ...scenes.Scene) {
	backend := flag.String("backend", "", "backend to render on (default: every registered backend)")
	out := flag.String("o", "", "output PNG file (only with -backend, for a single-image example)")
	dir := flag.String("out", "out", "output directory: one NAME-BACKEND.png per backend")
	traceFile := flag.String("trace", "", "record the GL calls to this trace file (on the first backend); replay with trace.Player or tools/mesaref")
	capture := flag.String("capture", "", "record a device capture to this file (only with -backend); replay with rglreplay, decode with rgldis")
	flag.Parse()
	names := backends.Names()
	if *backend != "" {
		names = []string{*backend}
	}
	if *out != "" && (len(names) != 1 || len(ss) != 1) {
		fmt.Fprintln(os.Stderr, "-o needs -backend and a single-image example; use -out DIR")
		os.Exit(2)
	}
	if *capture != "" && len(names) != 1 {
		fmt.Fprintln(os.Stderr, "-capture needs -backend")
		os.Exit(2)
	}
	failed := false
	for _, s := range ss {
		for i, b := range names {
			var rec io.Writer
			var tf *os.File
			if *traceFile != "" && i == 0 {
				path := TracePath(*traceFile, s, len(ss) > 1)
				f, err := create(path)
				if err != nil {
					fmt.Fprintln(os.Stderr, err)
					os.Exit(1)
				}
				tf, rec = f, f
			}
			var capw io.Writer
			var cf *os.File
			if *capture != "" {
				f, err := create(TracePath(*capture, s, len(ss) > 1))
				if err != nil {
					fmt.Fprintln(os.Stderr, err)
					os.Exit(1)
				}
				cf, capw = f, f
			}
			res := RenderWith(b, s, Options{Trace: rec, Capture: capw})
			if cf != nil {
				if err := cf.Close(); err != nil {
					res.Err = errors.Join(res.Err, err)
				} else {
					fmt.Println(cf.Name())
				}
			}
			if tf != nil {
				if err := tf.Close(); err != nil {
					res.Err = errors.Join(res.Err, err)
				} else {
					fmt.Println(tf.Name())
				}
			}
			if res.Err != nil {
				if res.Failed() {
					fmt.Fprintln(os.Stderr, res.Err)
					failed = true
				} else {
					fmt.Fprintf(os.Stderr, "%s on %s: %s (partial image)\n", s.Name, b, MissingText(res.Missing))
				}
			}
			if res.Image == nil {
				continue
			}
			path := *out
			if path == "" {
				path = filepath.Join(*dir, fmt.Sprintf("%s-%s.png", s.Name, b))
			}
			if err := WritePNG(path, res.Image); err != nil {
				fmt.Fprintln(os.Stderr, err)
				failed = true
				continue
			}
			fmt.Println(path)
		}
	}
	if failed {
		os.Exit(1)
	}
}
