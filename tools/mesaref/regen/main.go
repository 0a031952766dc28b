// Command regen rebuilds the Mesa reference images of the examples: it
// records a trace of every scene (testdata/reference/NAME.trace), builds
// tools/mesaref/mesaref.c against OSMesa (package mesaref), replays each
// trace on Mesa's softpipe rasterizer and writes NAME.png beside the trace, plus a README
// naming the Mesa version. Run it from the repository root:
//
//	apt-get install -y libosmesa6-dev gcc pkg-config
//	go run ./tools/mesaref/regen
//
// Only regeneration needs Mesa; the comparison tests read the committed
// files.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"image"
	"image/png"
	"os"
	"path/filepath"

	"github.com/retrogl/retrogl/backends"
	"github.com/retrogl/retrogl/examples/scenes"
	"github.com/retrogl/retrogl/gles"
	"github.com/retrogl/retrogl/tools/mesaref"
	"github.com/retrogl/retrogl/trace"
)

func main() {
	dir := flag.String("dir", "testdata/reference", "directory for the traces and reference PNGs")
	only := flag.String("scene", "", "regenerate only this scene")
	flag.Parse()
	if err := run(*dir, *only); err != nil {
		fmt.Fprintln(os.Stderr, "regen:", err)
		os.Exit(1)
	}
}

func run(dir, only string) error {
	names := backends.Names()
	if len(names) == 0 {
		return fmt.Errorf("no backend registered to record on")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	var renderer string
	for _, s := range scenes.All() {
		if only != "" && s.Name != only {
			continue
		}
		// The trace holds the calls the scene makes, which are the same on
		// every backend; the first registered one provides the answers
		// (object names) a recording needs.
		tr, err := record(names[0], s)
		if err != nil {
			return err
		}
		tracePath := filepath.Join(dir, s.Name+".trace")
		if err := os.WriteFile(tracePath, tr.Bytes(), 0o644); err != nil {
			return err
		}
		res, err := mesaref.Replay(tr.Bytes(), mesaref.Softpipe)
		if err != nil {
			return fmt.Errorf("%s: %w", tracePath, err)
		}
		renderer = res.Renderer
		img := res.Image
		out := filepath.Join(dir, s.Name+".png")
		if err := writePNG(out, img); err != nil {
			return err
		}
		fmt.Println(out)
	}
	if only != "" {
		return nil
	}
	readme := fmt.Sprintf(`# Mesa reference images

Each NAME.png is the example scene NAME (examples/scenes) rendered by Mesa's
softpipe rasterizer (%s) through OSMesa, from the trace NAME.trace
recorded from the scene. The trace format and the comparison metric are in
docs/examples.md.

Regenerate (needs Debian's libosmesa6-dev, gcc and pkg-config):

    go run ./tools/mesaref/regen
`, renderer)
	return os.WriteFile(filepath.Join(dir, "README.md"), []byte(readme), 0o644)
}

// record draws s on backend through a Recorder and returns the trace. GL
// errors are expected (the backend may lack features the scene uses) and
// do not change the calls recorded.
func record(backend string, s scenes.Scene) (*bytes.Buffer, error) {
	ctx, err := gles.NewContext(backend, s.Config)
	if err != nil {
		return nil, fmt.Errorf("record %s: %w", s.Name, err)
	}
	defer ctx.Close()
	var tr bytes.Buffer
	r := trace.NewRecorder(ctx, &tr, s.Config)
	r.Comment(s.Name)
	_ = s.Draw(r)
	if err := r.Close(); err != nil {
		return nil, fmt.Errorf("record %s: %w", s.Name, err)
	}
	return &tr, nil
}

func writePNG(path string, img image.Image) error {
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		return fmt.Errorf("encode %s: %w", path, err)
	}
	return os.WriteFile(path, b.Bytes(), 0o644)
}
