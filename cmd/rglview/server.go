package main

import (
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"html/template"
	"image/color"
	"io/fs"
	"log"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/retrogl/retrogl/hal"
	"github.com/retrogl/retrogl/tools/frame"
)

//go:embed assets
var assets embed.FS

var page = template.Must(template.New("page.html").Funcs(template.FuncMap{
	"hex": func(v uint32) string { return fmt.Sprintf("%#08x", v) },
	"add": func(a, b int) int { return a + b },
	"mul": func(a, b int) int { return a * b },
	"css": func(c color.NRGBA) template.CSS {
		return template.CSS(fmt.Sprintf("rgba(%d, %d, %d, %.3f)", c.R, c.G, c.B, float64(c.A)/255))
	},
	"zooms": func() []int { return []int{1, 2, 4, 8} },
}).ParseFS(assets, "assets/page.html"))

// Server serves one file's frame debugger.
type Server struct {
	file  string
	kind  string // "capture" or "trace"
	frame *frame.Frame
	// err is why the file could not be read (nothing to show), warn a
	// damage found after part of it was read.
	err, warn error
	trace     *traceView
	mux       *http.ServeMux
}

// newServer builds the server for a file's contents. A file that cannot be
// read gives a server whose every page says why.
func newServer(file string, data []byte, backend string) *Server {
	s := &Server{file: file}
	switch {
	case isTrace(data):
		s.kind = "trace"
		s.trace, s.frame, s.err = loadTrace(data, backend)
	default:
		s.kind = "capture"
		s.frame, s.err = frame.Load(data)
	}
	if s.err != nil {
		s.err = fmt.Errorf("%s: %w", file, s.err)
	}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /{$}", s.index)
	mux.HandleFunc("GET /pick/{draw}/{zoom}", s.pick)
	mux.HandleFunc("GET /surface/{draw}/{n}", s.surface)
	mux.HandleFunc("GET /api/frame", s.apiFrame)
	mux.HandleFunc("GET /api/draw/{draw}", s.apiDraw)
	mux.HandleFunc("GET /api/pixel/{draw}", s.apiPixel)
	mux.HandleFunc("GET /compare", s.comparePage)
	mux.HandleFunc("GET /compare/{name}", s.compareImage)
	static, _ := fs.Sub(assets, "assets")
	mux.Handle("GET /static/", http.StripPrefix("/static/", http.FileServerFS(static)))
	s.mux = mux
	return s
}

// ServeHTTP implements http.Handler: a handler that panics answers 500
// with the panic's text instead of dropping the connection.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	defer func() {
		if p := recover(); p != nil {
			log.Printf("rglview: %s: panic: %v", r.URL, p)
			http.Error(w, fmt.Sprintf("internal error: %v", p), http.StatusInternalServerError)
		}
	}()
	s.mux.ServeHTTP(w, r)
}

// httpError is an error with the status it answers.
type httpError struct {
	status int
	err    error
}

func (e *httpError) Error() string { return e.err.Error() }

func notFound(format string, a ...any) error {
	return &httpError{http.StatusNotFound, fmt.Errorf(format, a...)}
}

func badRequest(format string, a ...any) error {
	return &httpError{http.StatusBadRequest, fmt.Errorf(format, a...)}
}

func statusOf(err error) int {
	var h *httpError
	if errors.As(err, &h) {
		return h.status
	}
	return http.StatusInternalServerError
}

// usable reports an error page when the file could not be read.
func (s *Server) usable() error {
	if s.frame == nil {
		return &httpError{http.StatusUnprocessableEntity, s.err}
	}
	return nil
}

// drawIndex parses a draw number.
func (s *Server) drawIndex(v string) (int, error) {
	if err := s.usable(); err != nil {
		return 0, err
	}
	n, err := strconv.Atoi(v)
	if err != nil {
		return 0, badRequest("draw %q is not a number", v)
	}
	if n < 0 || n >= len(s.frame.Draws) {
		return 0, notFound("no draw %d: the %s has %d", n, s.kind, len(s.frame.Draws))
	}
	return n, nil
}

// errorPage writes an HTML page that says what went wrong.
func (s *Server) errorPage(w http.ResponseWriter, err error) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(statusOf(err))
	data := pageData{Title: "rglview: error", File: s.file, Kind: s.kind, Err: err.Error()}
	if e := page.Execute(w, data); e != nil {
		log.Printf("rglview: error page: %v", e)
	}
}

// jsonError writes {"error": text}.
func jsonError(w http.ResponseWriter, err error) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(statusOf(err))
	json.NewEncoder(w).Encode(map[string]string{"error": err.Error()})
}

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	enc := json.NewEncoder(w)
	enc.SetIndent("", " ")
	if err := enc.Encode(v); err != nil {
		log.Printf("rglview: json: %v", err)
	}
}

// queryInt reads an optional integer query parameter.
func queryInt(q url.Values, name string, def int) (int, error) {
	v := q.Get(name)
	if v == "" {
		return def, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil {
		return 0, badRequest("%s=%q is not a number", name, v)
	}
	return n, nil
}

// pageData is what page.html shows.
type pageData struct {
	Title, File, Kind, Chip, Backend string
	Err, Warn                        string
	Subs                             []subView
	Draws                            int
	Draw                             *drawView
	Prev, Next                       int
	Zoom                             int
	Pick                             *frame.PixelHistory
	PickErr                          string
	HasCompare                       bool
	Compare                          *compareView
}

type subView struct {
	Index      int
	Addr, Size uint32
	Draws      []drawLink
	Tail       int // commands after the last draw
}

type drawLink struct {
	Index    int
	Summary  string
	Selected bool
}

type drawView struct {
	Index, Sub     int
	Summary        string
	Lines          []string
	Calls          []frame.Call
	Registers      []hal.RegisterValue
	Programs       []hal.Program
	Surfaces       []surfaceView
	Err            string
	PickX, PickY   int
	HasPick        bool
	ColorSurface   int
	ColorW, ColorH int
}

type surfaceView struct {
	Index               int
	Kind, Name, Format  string
	Info                string
	Addr                uint32
	Width, Height       int
	Changed             int
	Target, Color       bool
	Err                 string
	Image, ChangedImage string
	DisplayW, DisplayH  int
}

// summary is the text of a draw's primitive command (its first line,
// without address and word).
func summary(sub *frame.Submission, d *frame.Draw) string {
	if d.Begin >= len(sub.Commands) || len(sub.Commands[d.Begin].Lines) == 0 {
		return ""
	}
	l := sub.Commands[d.Begin].Lines[0]
	if parts := strings.SplitN(strings.TrimSpace(l), "  ", 3); len(parts) == 3 {
		return strings.TrimSpace(parts[2])
	}
	return l
}

func (s *Server) base() pageData {
	d := pageData{Title: "rglview: " + s.file, File: s.file, Kind: s.kind, Prev: -1, Next: -1, Zoom: 1}
	if s.err != nil {
		d.Err = s.err.Error()
	}
	if s.warn != nil {
		d.Warn = s.warn.Error()
	}
	if s.frame != nil {
		d.Chip = s.frame.Info.Chip
		d.Draws = len(s.frame.Draws)
	}
	if s.trace != nil {
		d.Backend = s.trace.backend
		d.HasCompare = true
	}
	return d
}

func (s *Server) subs(selected int) []subView {
	var out []subView
	for _, sub := range s.frame.Subs {
		v := subView{Index: sub.Index, Addr: sub.Buffer.Addr, Size: sub.Buffer.Size, Tail: len(sub.Commands) - sub.Tail}
		for _, d := range sub.Draws {
			dr := s.frame.Draws[d]
			sum := summary(sub, dr)
			if s.frame.Calls != nil && len(dr.Calls) > 0 {
				sum = s.frame.Calls[dr.Calls[len(dr.Calls)-1]].Text
			}
			v.Draws = append(v.Draws, drawLink{Index: d, Summary: sum, Selected: d == selected})
		}
		out = append(out, v)
	}
	return out
}

// index serves the page: the draw list, and the selected draw (?draw=N,
// the first by default) with its surfaces, commands, registers and
// programs; ?x=&y= adds the history of that pixel.
func (s *Server) index(w http.ResponseWriter, r *http.Request) {
	if err := s.usable(); err != nil {
		s.errorPage(w, err)
		return
	}
	q := r.URL.Query()
	data := s.base()
	n := 0
	if v := q.Get("draw"); v != "" {
		var err error
		if n, err = s.drawIndex(v); err != nil {
			s.errorPage(w, err)
			return
		}
	}
	zoom, err := queryInt(q, "zoom", 1)
	if err != nil {
		s.errorPage(w, err)
		return
	}
	data.Zoom = min(max(zoom, 1), 8)
	data.Subs = s.subs(n)
	if len(s.frame.Draws) == 0 {
		s.render(w, data)
		return
	}
	if n > 0 {
		data.Prev = n - 1
	}
	if n+1 < len(s.frame.Draws) {
		data.Next = n + 1
	}
	dv, err := s.drawView(n, data.Zoom)
	if err != nil {
		s.errorPage(w, err)
		return
	}
	data.Draw = dv
	if q.Has("x") || q.Has("y") {
		x, err1 := queryInt(q, "x", -1)
		y, err2 := queryInt(q, "y", -1)
		if err := errors.Join(err1, err2); err != nil {
			s.errorPage(w, err)
			return
		}
		dv.PickX, dv.PickY, dv.HasPick = x, y, true
		h, err := s.frame.History(n, x, y)
		if err != nil {
			data.PickErr = err.Error()
		} else {
			data.Pick = h
		}
	}
	s.render(w, data)
}

func (s *Server) render(w http.ResponseWriter, data pageData) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	if err := page.Execute(w, data); err != nil {
		log.Printf("rglview: page: %v", err)
	}
}

// drawView gathers what the page shows of draw n (a replay, cached).
func (s *Server) drawView(n, zoom int) (*drawView, error) {
	d := s.frame.Draws[n]
	sub := s.frame.Subs[d.Sub]
	v := &drawView{Index: n, Sub: d.Sub, Summary: summary(sub, d), Lines: sub.Lines(d.First, d.Last), ColorSurface: -1}
	for _, c := range d.Calls {
		v.Calls = append(v.Calls, s.frame.Calls[c])
	}
	snap, err := s.frame.After(n)
	if err != nil {
		v.Err = err.Error()
		return v, nil
	}
	v.Registers, v.Programs = snap.Registers, snap.Programs
	for i := range snap.Surfaces {
		sv := &snap.Surfaces[i]
		u := surfaceView{Index: i, Kind: sv.Kind.String(), Name: sv.Name, Format: sv.Format, Info: sv.Info, Addr: sv.Addr,
			Width: sv.Width, Height: sv.Height, Changed: sv.ChangedCount, Target: isTarget(sv.Kind),
			Image: fmt.Sprintf("/surface/%d/%d", n, i), DisplayW: sv.Width * zoom, DisplayH: sv.Height * zoom}
		if sv.Changed != nil {
			u.ChangedImage = u.Image + "?changed=1"
		}
		if sv.Err != nil {
			u.Err = sv.Err.Error()
		}
		if sv.Kind == hal.SurfaceColor && v.ColorSurface < 0 {
			u.Color = true
			v.ColorSurface, v.ColorW, v.ColorH = i, sv.Width, sv.Height
		}
		v.Surfaces = append(v.Surfaces, u)
	}
	return v, nil
}

// pick turns a click on the colour buffer (an ismap image: the browser
// appends "?x,y" in displayed pixels) into the page with that pixel's
// history.
func (s *Server) pick(w http.ResponseWriter, r *http.Request) {
	n, err := s.drawIndex(r.PathValue("draw"))
	if err != nil {
		s.errorPage(w, err)
		return
	}
	zoom, err := strconv.Atoi(r.PathValue("zoom"))
	if err != nil || zoom < 1 || zoom > 8 {
		s.errorPage(w, badRequest("zoom %q is not 1 to 8", r.PathValue("zoom")))
		return
	}
	xs, ys, ok := strings.Cut(r.URL.RawQuery, ",")
	x, errx := strconv.Atoi(xs)
	y, erry := strconv.Atoi(ys)
	if !ok || errx != nil || erry != nil {
		s.errorPage(w, badRequest("pick %q: want ?x,y", r.URL.RawQuery))
		return
	}
	http.Redirect(w, r, fmt.Sprintf("/?draw=%d&zoom=%d&x=%d&y=%d#pixel", n, zoom, x/zoom, y/zoom), http.StatusSeeOther)
}

// surface serves a surface of draw n's snapshot as PNG; ?changed=1 tints
// the pixels the draw changed.
func (s *Server) surface(w http.ResponseWriter, r *http.Request) {
	n, err := s.drawIndex(r.PathValue("draw"))
	if err != nil {
		http.Error(w, err.Error(), statusOf(err))
		return
	}
	snap, err := s.frame.After(n)
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	k, err := strconv.Atoi(strings.TrimSuffix(r.PathValue("n"), ".png"))
	if err != nil || k < 0 || k >= len(snap.Surfaces) {
		http.Error(w, fmt.Sprintf("draw %d has no surface %q", n, r.PathValue("n")), http.StatusNotFound)
		return
	}
	sv := &snap.Surfaces[k]
	if sv.Err != nil {
		http.Error(w, sv.Err.Error(), http.StatusInternalServerError)
		return
	}
	img := surfaceImage(sv)
	if r.URL.Query().Get("changed") == "1" {
		if sv.Changed == nil {
			http.Error(w, fmt.Sprintf("%s has no changed pixels to show (a texture)", sv.Name), http.StatusNotFound)
			return
		}
		img = changedImage(sv)
	}
	b, err := encodePNG(img)
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "image/png")
	w.Write(b)
}

// apiFrame serves the frame's structure as JSON.
func (s *Server) apiFrame(w http.ResponseWriter, r *http.Request) {
	if err := s.usable(); err != nil {
		jsonError(w, err)
		return
	}
	type sub struct {
		Index int    `json:"index"`
		Addr  uint32 `json:"addr"`
		Size  uint32 `json:"size"`
		Draws []int  `json:"draws"`
	}
	type draw struct {
		Index   int    `json:"index"`
		Sub     int    `json:"submission"`
		Summary string `json:"summary"`
		Calls   []int  `json:"calls,omitempty"`
	}
	out := struct {
		File  string       `json:"file"`
		Kind  string       `json:"kind"`
		Chip  string       `json:"chip"`
		Subs  []sub        `json:"submissions"`
		Draws []draw       `json:"draws"`
		Calls []frame.Call `json:"calls,omitempty"`
		Warn  string       `json:"warning,omitempty"`
	}{File: s.file, Kind: s.kind, Chip: s.frame.Info.Chip, Calls: s.frame.Calls}
	if s.warn != nil {
		out.Warn = s.warn.Error()
	}
	for _, sb := range s.frame.Subs {
		out.Subs = append(out.Subs, sub{sb.Index, sb.Buffer.Addr, sb.Buffer.Size, append([]int{}, sb.Draws...)})
	}
	for _, d := range s.frame.Draws {
		out.Draws = append(out.Draws, draw{d.Index, d.Sub, summary(s.frame.Subs[d.Sub], d), d.Calls})
	}
	writeJSON(w, out)
}

// apiDraw serves a draw's state as JSON.
func (s *Server) apiDraw(w http.ResponseWriter, r *http.Request) {
	n, err := s.drawIndex(r.PathValue("draw"))
	if err != nil {
		jsonError(w, err)
		return
	}
	v, err := s.drawView(n, 1)
	if err != nil {
		jsonError(w, err)
		return
	}
	writeJSON(w, v)
}

// apiPixel serves a pixel's history as JSON (?x=&y=).
func (s *Server) apiPixel(w http.ResponseWriter, r *http.Request) {
	n, err := s.drawIndex(r.PathValue("draw"))
	if err != nil {
		jsonError(w, err)
		return
	}
	q := r.URL.Query()
	x, err1 := queryInt(q, "x", -1)
	y, err2 := queryInt(q, "y", -1)
	if err := errors.Join(err1, err2); err != nil {
		jsonError(w, err)
		return
	}
	h, err := s.frame.History(n, x, y)
	if err != nil {
		jsonError(w, badRequest("%v", err))
		return
	}
	writeJSON(w, h)
}
