package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"image"
	"image/png"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/retrogl/retrogl/backends"
	"github.com/retrogl/retrogl/examples/compare"
	"github.com/retrogl/retrogl/gles"
	"github.com/retrogl/retrogl/tools/mesaref"
	"github.com/retrogl/retrogl/trace"
)

// load reads and parses a trace file.
func load(path string) ([]byte, *trace.Trace, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, nil, err
	}
	tr, err := trace.Parse(bytes.NewReader(data))
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", path, err)
	}
	return data, tr, nil
}

// defaultBackend is the backend a trace plays on when none is named.
func defaultBackend(tr *trace.Trace) string {
	if tr.ES2 {
		return "r300"
	}
	return "pspge"
}

// oneArg parses a subcommand's flags and returns its one file argument.
func oneArg(fs *flag.FlagSet, args []string) (string, error) {
	if err := fs.Parse(args); err != nil {
		return "", err
	}
	if fs.NArg() != 1 {
		fs.Usage()
		return "", flag.ErrHelp
	}
	return fs.Arg(0), nil
}

func playCmd(w io.Writer, args []string) error {
	fs := flag.NewFlagSet("play", flag.ContinueOnError)
	backend := fs.String("backend", "", "backend to play on (default pspge for ES 1.1, r300 for ES 2.0): "+strings.Join(backends.Names(), ", "))
	out := fs.String("out", ".", "directory for the PNG files")
	path, err := oneArg(fs, args)
	if err != nil {
		return err
	}
	_, tr, err := load(path)
	if err != nil {
		return err
	}
	if *backend == "" {
		*backend = defaultBackend(tr)
	}
	base := strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
	files, err := play(tr, *backend, *out, base)
	for _, f := range files {
		fmt.Fprintln(w, f)
	}
	return err
}

// play plays a trace on a backend and writes the colour buffer after each
// Finish (or at the end, when there is none) to dir/base-backend-N.png; it
// returns the files written.
func play(tr *trace.Trace, backend, dir, base string) (files []string, err error) {
	ctx, err := gles.NewContext(backend, tr.Config())
	if err != nil {
		return nil, err
	}
	defer func() { err = errors.Join(err, ctx.Close()) }()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	p := trace.NewPlayer(ctx)
	write := func() error {
		name := filepath.Join(dir, fmt.Sprintf("%s-%s-%d.png", base, backend, len(files)+1))
		if err := writePNG(name, ctx.Image()); err != nil {
			return err
		}
		files = append(files, name)
		return nil
	}
	for i := range tr.Calls {
		c := &tr.Calls[i]
		if err := p.Call(c); err != nil {
			return files, err
		}
		if c.Name == "Finish" {
			if err := write(); err != nil {
				return files, err
			}
		}
	}
	if len(files) == 0 {
		if err := write(); err != nil {
			return files, err
		}
	}
	if err := ctx.Err(); err != nil {
		return files, fmt.Errorf("%s: GL errors while playing: %w", backend, err)
	}
	return files, nil
}

func writePNG(name string, img image.Image) error {
	f, err := os.Create(name)
	if err != nil {
		return err
	}
	if err := png.Encode(f, img); err != nil {
		f.Close()
		return fmt.Errorf("%s: %w", name, err)
	}
	return f.Close()
}

// finalImage plays a whole trace on a backend and returns its last colour
// buffer.
func finalImage(tr *trace.Trace, backend string) (img image.Image, err error) {
	ctx, err := gles.NewContext(backend, tr.Config())
	if err != nil {
		return nil, err
	}
	defer func() { err = errors.Join(err, ctx.Close()) }()
	if err := trace.NewPlayer(ctx).Play(tr); err != nil {
		return nil, err
	}
	return ctx.Image(), ctx.Err()
}

// row is one backend's comparison with Mesa.
type row struct {
	backend string
	err     error
	res     compare.Result
	tol     compare.Tolerance
	pass    bool
}

func compareCmd(w io.Writer, args []string) error {
	fs := flag.NewFlagSet("compare", flag.ContinueOnError)
	out := fs.String("out", "", "directory for each backend's image and difference image (none when empty)")
	renderer := fs.String("renderer", string(mesaref.Softpipe), "Mesa's rasterizer: softpipe or llvmpipe")
	path, err := oneArg(fs, args)
	if err != nil {
		return err
	}
	data, tr, err := load(path)
	if err != nil {
		return err
	}
	ref, err := mesaref.Replay(data, mesaref.Renderer(*renderer))
	if err != nil {
		return fmt.Errorf("the Mesa reference: %w", err)
	}
	fmt.Fprintf(w, "reference: Mesa %s\n", ref.Renderer)
	base := strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
	if *out != "" {
		if err := os.MkdirAll(*out, 0o755); err != nil {
			return err
		}
		if err := writePNG(filepath.Join(*out, base+"-mesa.png"), ref.Image); err != nil {
			return err
		}
	}
	rows := compareAll(tr, ref.Image, *out, base)
	fails := 0
	for _, r := range rows {
		switch {
		case r.err != nil:
			fmt.Fprintf(w, "%-10s  not played: %v\n", r.backend, r.err)
		case r.pass:
			fmt.Fprintf(w, "%-10s  pass  %s (T=%d, at most %.1f%% bad)\n", r.backend, r.res, r.tol.Threshold, 100*r.tol.MaxBad)
		default:
			fails++
			fmt.Fprintf(w, "%-10s  FAIL  %s (T=%d, at most %.1f%% bad)\n", r.backend, r.res, r.tol.Threshold, 100*r.tol.MaxBad)
		}
	}
	if fails > 0 {
		return &failError{fails}
	}
	return nil
}

// compareAll plays the trace on every backend and compares each last image
// with ref; with dir set it writes the images and difference images.
func compareAll(tr *trace.Trace, ref image.Image, dir, base string) []row {
	var rows []row
	for _, b := range backends.Names() {
		r := row{backend: b, tol: compare.For(b)}
		img, err := finalImage(tr, b)
		if err != nil {
			r.err = err
			rows = append(rows, r)
			continue
		}
		res, diff, err := compare.DiffImage(img, ref, r.tol.Threshold)
		if err != nil {
			r.err = err
			rows = append(rows, r)
			continue
		}
		r.res, r.pass = res, res.Pass(r.tol)
		if dir != "" {
			r.err = errors.Join(writePNG(filepath.Join(dir, fmt.Sprintf("%s-%s.png", base, b)), img),
				writePNG(filepath.Join(dir, fmt.Sprintf("%s-%s.diff.png", base, b)), diff))
		}
		rows = append(rows, r)
	}
	return rows
}

// Stats are what stat counts.
type Stats struct {
	Width, Height int
	ES2           bool
	// Calls counts every call; ByName each entry point.
	Calls  int
	ByName map[string]int
	// Draws counts DrawArrays, DrawElements and DrawTex calls; Frames the
	// Finish calls.
	Draws, Frames int
	// Textures counts the texture names generated; Uploads the texture
	// image calls and UploadBytes their data.
	Textures, Uploads, UploadBytes int
	// Shaders and Programs count the objects created.
	Shaders, Programs int
}

func stats(tr *trace.Trace) Stats {
	s := Stats{Width: tr.Width, Height: tr.Height, ES2: tr.ES2, ByName: map[string]int{}}
	for i := range tr.Calls {
		c := &tr.Calls[i]
		s.Calls++
		s.ByName[c.Name]++
		switch {
		case c.Name == "DrawArrays" || c.Name == "DrawElements" || strings.HasPrefix(c.Name, "DrawTex"):
			s.Draws++
		case c.Name == "Finish":
			s.Frames++
		case c.Name == "GenTextures" && c.Result != nil:
			s.Textures += len(c.Result.Elems)
		case c.Name == "CreateShader":
			s.Shaders++
		case c.Name == "CreateProgram":
			s.Programs++
		case strings.Contains(c.Name, "TexImage2D") || strings.Contains(c.Name, "TexSubImage2D"):
			s.Uploads++
			for _, a := range c.Args {
				if a.Kind == trace.Data {
					s.UploadBytes += len(a.Bytes)
				}
			}
		}
	}
	return s
}

func statCmd(w io.Writer, args []string) error {
	fs := flag.NewFlagSet("stat", flag.ContinueOnError)
	path, err := oneArg(fs, args)
	if err != nil {
		return err
	}
	_, tr, err := load(path)
	if err != nil {
		return err
	}
	writeStats(w, stats(tr))
	return nil
}

func writeStats(w io.Writer, s Stats) {
	api := "GL ES 1.1"
	if s.ES2 {
		api = "GL ES 2.0"
	}
	fmt.Fprintf(w, "surface   %dx%d, %s\n", s.Width, s.Height, api)
	fmt.Fprintf(w, "calls     %d\n", s.Calls)
	fmt.Fprintf(w, "draws     %d\n", s.Draws)
	fmt.Fprintf(w, "frames    %d (Finish calls)\n", s.Frames)
	fmt.Fprintf(w, "textures  %d names, %d image uploads, %d bytes\n", s.Textures, s.Uploads, s.UploadBytes)
	if s.ES2 {
		fmt.Fprintf(w, "shaders   %d, programs %d\n", s.Shaders, s.Programs)
	}
	names := make([]string, 0, len(s.ByName))
	for n := range s.ByName {
		names = append(names, n)
	}
	sort.Slice(names, func(i, j int) bool {
		if s.ByName[names[i]] != s.ByName[names[j]] {
			return s.ByName[names[i]] > s.ByName[names[j]]
		}
		return names[i] < names[j]
	})
	for _, n := range names {
		fmt.Fprintf(w, "  %6d  %s\n", s.ByName[n], n)
	}
}
