// Package app is the command-line shell the example programs share: the
// -backend, -o and -out flags, rendering on each backend, and PNG output.
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

	"github.com/retrogl/retrogl/backends"
	"github.com/retrogl/retrogl/examples/scenes"
	"github.com/retrogl/retrogl/gles"
)

// Render draws a scene once on a backend and returns the colour buffer. A
// GL error the scene raises (a missing feature, a device fault) comes back
// with the image, which holds whatever was drawn.
func Render(backend string, s scenes.Scene) (image.Image, error) {
	return RenderCapture(backend, s, nil)
}

// RenderCapture is Render that also records a device capture to w (see
// hal.NewCapture) when w is not nil.
func RenderCapture(backend string, s scenes.Scene, w io.Writer) (image.Image, error) {
	cfg := s.Config
	cfg.Capture = w
	ctx, err := gles.NewContext(backend, cfg)
	if err != nil {
		return nil, fmt.Errorf("%s on %s: %w", s.Name, backend, err)
	}
	drawErr := s.Draw(ctx)
	img := ctx.Image()
	if err := ctx.Err(); err != nil {
		drawErr = errors.Join(drawErr, err)
	}
	if err := ctx.Close(); err != nil {
		drawErr = errors.Join(drawErr, err)
	}
	if drawErr != nil {
		return img, fmt.Errorf("%s on %s: %w", s.Name, backend, drawErr)
	}
	return img, nil
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

// Main runs an example command: it renders the scene on the backends the
// flags select and prints every file written.
func Main(s scenes.Scene) {
	backend := flag.String("backend", "", "backend to render on (default: every registered backend)")
	out := flag.String("o", "", "output PNG file (only with -backend)")
	dir := flag.String("out", "out", "output directory: one NAME-BACKEND.png per backend")
	capture := flag.String("capture", "", "record a device capture to this file (only with -backend); replay with rglreplay, decode with rgldis")
	flag.Parse()
	names := backends.Names()
	if *backend != "" {
		names = []string{*backend}
	}
	if (*out != "" || *capture != "") && len(names) != 1 {
		fmt.Fprintln(os.Stderr, "-o and -capture need -backend; use -out DIR for several backends")
		os.Exit(2)
	}
	var capFile *os.File
	if *capture != "" {
		f, err := os.Create(*capture)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		capFile = f
	}
	failed := false
	for _, b := range names {
		var w io.Writer
		if capFile != nil {
			w = capFile
		}
		img, err := RenderCapture(b, s, w)
		if capFile != nil {
			if cerr := capFile.Close(); cerr != nil {
				fmt.Fprintln(os.Stderr, cerr)
				failed = true
			} else {
				fmt.Println(*capture)
			}
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			failed = true
			if img == nil {
				continue
			}
		}
		path := *out
		if path == "" {
			path = filepath.Join(*dir, fmt.Sprintf("%s-%s.png", s.Name, b))
		}
		if err := WritePNG(path, img); err != nil {
			fmt.Fprintln(os.Stderr, err)
			failed = true
			continue
		}
		fmt.Println(path)
	}
	if failed {
		os.Exit(1)
	}
}
