// Command rglbench runs the standard benchmark scenes (package bench,
// DESIGN.md "The standard scenes") on every backend at its chip's natural
// screen size and prints pixels/s and triangles/s:
//
//	go run ./cmd/rglbench                       # every backend and scene
//	go run ./cmd/rglbench -backend r300 -scene fill-flat -frames 50
//
// Figures depend on the machine; compare them as ratios.
package main

import (
	"flag"
	"fmt"
	"os"
	"runtime"
	"time"

	"github.com/retrogl/retrogl/backends"
	"github.com/retrogl/retrogl/bench"
	"github.com/retrogl/retrogl/gles"
)

func main() {
	backend := flag.String("backend", "", "backend (default: all)")
	scene := flag.String("scene", "", "scene (default: all)")
	frames := flag.Int("frames", 20, "frames per measurement (after one warm-up frame)")
	flag.Parse()
	names := backends.Names()
	if *backend != "" {
		names = []string{*backend}
	}
	scenes := bench.Scenes()
	if *scene != "" {
		s, err := bench.Lookup(*scene)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
		scenes = []bench.Scene{s}
	}
	fmt.Printf("# %s/%s, %d CPUs, %d frames per scene\n", runtime.GOOS, runtime.GOARCH, runtime.NumCPU(), *frames)
	fmt.Printf("%-10s %-15s %9s %10s %14s %12s\n", "backend", "scene", "size", "ms/frame", "Mpixels/s", "Ktris/s")
	failed := false
	for _, b := range names {
		w, h := bench.NaturalSize(b)
		for _, s := range scenes {
			ctx, err := gles.NewContext(b, gles.Config{Width: w, Height: h, DepthBits: 16})
			if err != nil {
				fmt.Fprintln(os.Stderr, err)
				failed = true
				continue
			}
			if f, missing := s.Missing(ctx.Caps()); missing {
				fmt.Printf("%-10s %-15s %4dx%-4d  skipped: %v missing\n", b, s.Name, w, h, f)
				ctx.Close()
				continue
			}
			s.Setup(ctx)
			s.Frame(ctx)
			start := time.Now()
			for i := 0; i < *frames; i++ {
				s.Frame(ctx)
			}
			el := time.Since(start).Seconds()
			if err := ctx.Err(); err != nil {
				fmt.Printf("%-10s %-15s %4dx%-4d  error: %v\n", b, s.Name, w, h, err)
				failed = true
			} else {
				n := float64(*frames)
				fmt.Printf("%-10s %-15s %4dx%-4d %10.2f %14.2f %12.1f\n", b, s.Name, w, h, 1000*el/n,
					float64(s.Pixels(w, h))*n/el/1e6, float64(s.Triangles)*n/el/1e3)
			}
			ctx.Close()
		}
	}
	if failed {
		os.Exit(1)
	}
}
