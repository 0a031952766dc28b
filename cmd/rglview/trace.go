package main

import (
	"bytes"
	"errors"
	"fmt"
	"image"
	"net/http"
	"strings"
	"sync"

	"github.com/retrogl/retrogl/backends"
	"github.com/retrogl/retrogl/examples/compare"
	"github.com/retrogl/retrogl/gles"
	"github.com/retrogl/retrogl/tools/frame"
	"github.com/retrogl/retrogl/tools/mesaref"
	"github.com/retrogl/retrogl/trace"
)

// isTrace reports whether a file is a GL call trace (package trace) rather
// than a device capture.
func isTrace(data []byte) bool { return bytes.HasPrefix(data, []byte(trace.Magic)) }

// traceView is a trace and, made on demand, its comparison across every
// backend and Mesa.
type traceView struct {
	backend string
	data    []byte
	tr      *trace.Trace

	once    sync.Once
	compare *compareView
}

// loadTrace parses a trace and plays it on backend for the frame.
func loadTrace(data []byte, backend string) (*traceView, *frame.Frame, error) {
	tr, err := trace.Parse(bytes.NewReader(data))
	if err != nil {
		return nil, nil, err
	}
	if backend == "" {
		backend = "r300"
		if !tr.ES2 {
			backend = "pspge"
		}
	}
	tv := &traceView{backend: backend, data: data, tr: tr}
	f, err := frame.FromTrace(tr, backend)
	if f == nil {
		return nil, nil, fmt.Errorf("playing the trace on %s: %w", backend, err)
	}
	return tv, f, err
}

// compareView is the trace's final image on every backend and on Mesa.
type compareView struct {
	Reference string
	RefErr    string
	Rows      []compareRow
}

type compareRow struct {
	Name      string
	Err       string
	Result    string
	Tolerance string
	Pass      bool
	Compared  bool
	image     image.Image
	diff      image.Image
}

// reference is Mesa's image of the trace: softpipe through OSMesa
// (tools/mesaref), the reference examples/compare's tolerances are for.
var reference = func(data []byte) (image.Image, string, error) {
	res, err := mesaref.Replay(data, mesaref.Softpipe)
	if res == nil {
		return nil, "", err
	}
	// GL errors Mesa raised still leave an image; they are shown.
	return res.Image, res.Renderer, err
}

// comparison plays the trace on every backend and on Mesa (once) and
// compares each image with Mesa's.
func (tv *traceView) comparison() *compareView {
	tv.once.Do(func() {
		cv := &compareView{Reference: "Mesa softpipe"}
		ref, renderer, err := reference(tv.data)
		if renderer != "" {
			cv.Reference = "Mesa " + renderer
		}
		if err != nil {
			cv.RefErr = err.Error()
		}
		if ref != nil {
			cv.Rows = append(cv.Rows, compareRow{Name: "mesa", image: ref})
		}
		for _, b := range backends.Names() {
			row := compareRow{Name: b}
			img, err := playImage(tv.tr, b)
			if err != nil {
				row.Err = err.Error()
			}
			row.image = img
			if img != nil && ref != nil {
				tol := compare.For(b)
				res, diff, err := compare.DiffImage(img, ref, tol.Threshold)
				if err != nil {
					row.Err = strings.TrimSpace(row.Err + "\n" + err.Error())
				} else {
					row.Compared, row.diff = true, diff
					row.Result, row.Pass = res.String(), res.Pass(tol)
					row.Tolerance = fmt.Sprintf("T=%d, at most %.1f%% bad: %s", tol.Threshold, 100*tol.MaxBad, tol.Why)
				}
			}
			cv.Rows = append(cv.Rows, row)
		}
		tv.compare = cv
	})
	return tv.compare
}

// playImage plays a trace on a backend (no capture, no extra flushes) and
// returns the colour buffer it ends with.
func playImage(tr *trace.Trace, backend string) (image.Image, error) {
	ctx, err := gles.NewContext(backend, tr.Config())
	if err != nil {
		return nil, err
	}
	perr := trace.NewPlayer(ctx).Play(tr)
	img := ctx.Image()
	return img, errors.Join(perr, ctx.Err(), ctx.Close())
}

// comparePage serves the comparison of a trace across backends and Mesa.
func (s *Server) comparePage(w http.ResponseWriter, r *http.Request) {
	if err := s.usable(); err != nil {
		s.errorPage(w, err)
		return
	}
	if s.trace == nil {
		s.errorPage(w, notFound("a capture has one backend: the comparison is for traces"))
		return
	}
	data := s.base()
	data.Title = "rglview: " + s.file + " on every backend"
	data.Compare = s.trace.comparison()
	s.render(w, data)
}

// compareImage serves /compare/NAME.png (the image) and
// /compare/NAME.diff.png (its difference from Mesa's).
func (s *Server) compareImage(w http.ResponseWriter, r *http.Request) {
	if s.trace == nil {
		http.Error(w, "not a trace", http.StatusNotFound)
		return
	}
	name, ok := strings.CutSuffix(r.PathValue("name"), ".png")
	if !ok {
		http.Error(w, "want NAME.png or NAME.diff.png", http.StatusNotFound)
		return
	}
	name, diff := strings.CutSuffix(name, ".diff")
	cv := s.trace.comparison()
	for _, row := range cv.Rows {
		if row.Name != name {
			continue
		}
		img := row.image
		if diff {
			img = row.diff
		}
		if img == nil {
			http.Error(w, fmt.Sprintf("%s has no such image", name), http.StatusNotFound)
			return
		}
		b, err := encodePNG(img)
		if err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		w.Header().Set("Content-Type", "image/png")
		w.Write(b)
		return
	}
	http.Error(w, fmt.Sprintf("no image %q", name), http.StatusNotFound)
}
