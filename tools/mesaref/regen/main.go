// Command regen rebuilds the Mesa reference images of the examples: it
// records a trace of every scene (testdata/reference/NAME.trace), builds
// tools/mesaref/mesaref.c against OSMesa, replays each trace on Mesa's
// softpipe rasterizer and writes NAME.png beside the trace, plus a README
// naming the Mesa version. Run it from the repository root:
//
//	apt-get install -y libosmesa6-dev gcc pkg-config
//	go run ./tools/mesaref/regen
//
// Only regeneration needs Mesa; the comparison tests read the committed
// files.
package main

import (
	"bufio"
	"bytes"
	"flag"
	"fmt"
	"image"
	"image/png"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/retrogl/retrogl/backends"
	"github.com/retrogl/retrogl/examples/scenes"
	"github.com/retrogl/retrogl/gles"
	"github.com/retrogl/retrogl/trace"
)

func main() {
	dir := flag.String("dir", "testdata/reference", "directory for the traces and reference PNGs")
	src := flag.String("src", "tools/mesaref/mesaref.c", "the replayer's C source")
	only := flag.String("scene", "", "regenerate only this scene")
	flag.Parse()
	if err := run(*dir, *src, *only); err != nil {
		fmt.Fprintln(os.Stderr, "regen:", err)
		os.Exit(1)
	}
}

func run(dir, src, only string) error {
	names := backends.Names()
	if len(names) == 0 {
		return fmt.Errorf("no backend registered to record on")
	}
	tmp, err := os.MkdirTemp("", "mesaref")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	bin := filepath.Join(tmp, "mesaref")
	if err := build(src, bin); err != nil {
		return err
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
		pam := filepath.Join(tmp, s.Name+".pam")
		cmd := exec.Command(bin, tracePath, pam)
		cmd.Env = append(os.Environ(), "GALLIUM_DRIVER=softpipe", "LIBGL_ALWAYS_SOFTWARE=1")
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		if err := cmd.Run(); err != nil {
			return fmt.Errorf("mesaref %s: %w\n%s", tracePath, err, stderr.String())
		}
		if stderr.Len() > 0 {
			return fmt.Errorf("mesaref %s reported GL errors:\n%s", tracePath, stderr.String())
		}
		renderer = strings.Join(strings.Fields(stdout.String()), " ")
		if !strings.HasPrefix(renderer, "softpipe") {
			return fmt.Errorf("mesaref ran on %q, not softpipe", renderer)
		}
		img, err := readPAM(pam)
		if err != nil {
			return err
		}
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

// build compiles the replayer with the compiler and the flags pkg-config
// gives for osmesa.
func build(src, bin string) error {
	flags, err := exec.Command("pkg-config", "--cflags", "--libs", "osmesa").Output()
	if err != nil {
		return fmt.Errorf("pkg-config osmesa (apt-get install libosmesa6-dev pkg-config): %w", err)
	}
	args := append([]string{"-O2", "-o", bin, src}, strings.Fields(string(flags))...)
	out, err := exec.Command("cc", args...).CombinedOutput()
	if err != nil {
		return fmt.Errorf("cc %s: %w\n%s", src, err, out)
	}
	return nil
}

// readPAM reads the P7 RGB_ALPHA image mesaref writes.
func readPAM(path string) (image.Image, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	r := bufio.NewReader(f)
	w, h := 0, 0
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			return nil, fmt.Errorf("%s: header: %w", path, err)
		}
		line = strings.TrimSpace(line)
		if line == "ENDHDR" {
			break
		}
		fmt.Sscanf(line, "WIDTH %d", &w)
		fmt.Sscanf(line, "HEIGHT %d", &h)
	}
	if w <= 0 || h <= 0 {
		return nil, fmt.Errorf("%s: no size in header", path)
	}
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	if _, err := io.ReadFull(r, img.Pix); err != nil {
		return nil, fmt.Errorf("%s: pixels: %w", path, err)
	}
	return img, nil
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
