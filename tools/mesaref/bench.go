package mesaref

import (
	"bytes"
	_ "embed"
	"fmt"
	"image"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

//go:embed bench.c
var benchSrc []byte

// BenchScenes are the standard benchmark scenes the Mesa benchmark program
// (bench.c) draws, in package bench's order.
var BenchScenes = []string{"fill-tex-blend", "fill-flat", "fill-gouraud", "tiny-tris"}

// BenchOptions says how long one benchmark run lasts.
type BenchOptions struct {
	// Frames is the least number of timed frames (at least 1).
	Frames int
	// MinTime is the least time the timed frames take together.
	MinTime time.Duration
	// Image asks for the last frame's colour buffer.
	Image bool
}

// BenchRun is what one run of a scene on Mesa measured. Only the frames
// after the untimed setup and warm-up frame are counted.
type BenchRun struct {
	// Renderer is Mesa's GL_RENDERER.
	Renderer string
	// Frames is the number of timed frames.
	Frames int
	// CPU is the process's CPU time over those frames (every thread:
	// llvmpipe's rasterizer thread too); Wall is the elapsed time.
	CPU, Wall time.Duration
	// Image is the last frame's colour buffer (with BenchOptions.Image).
	Image *image.NRGBA
}

// BenchProgram returns the path of the compiled benchmark program.
func BenchProgram() (string, error) {
	return Build("bench", benchSrc, nil)
}

// Bench runs a standard scene at w x h on renderer, with one rasterizer
// thread (LP_NUM_THREADS=1), and returns what it measured.
func Bench(renderer Renderer, scene string, w, h int, opt BenchOptions) (*BenchRun, error) {
	bin, err := BenchProgram()
	if err != nil {
		return nil, err
	}
	frames := max(opt.Frames, 1)
	args := []string{scene, strconv.Itoa(w), strconv.Itoa(h), strconv.Itoa(frames), strconv.FormatInt(opt.MinTime.Milliseconds(), 10)}
	var pam string
	if opt.Image {
		tmp, err := os.MkdirTemp("", "mesabench")
		if err != nil {
			return nil, fmt.Errorf("mesaref: bench: %w", err)
		}
		defer os.RemoveAll(tmp)
		pam = filepath.Join(tmp, "out.pam")
		args = append(args, pam)
	}
	cmd := exec.Command(bin, args...)
	cmd.Env = append(os.Environ(), "GALLIUM_DRIVER="+string(renderer), "LIBGL_ALWAYS_SOFTWARE=1", "LP_NUM_THREADS=1")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("mesaref: bench %s on %s: %w\n%s", scene, renderer, err, stderr.String())
	}
	run, err := parseBench(stdout.String())
	if err != nil {
		return nil, fmt.Errorf("mesaref: bench %s on %s: %w", scene, renderer, err)
	}
	if !strings.HasPrefix(run.Renderer, string(renderer)) {
		return nil, fmt.Errorf("mesaref: asked for %s, Mesa ran on %q", renderer, run.Renderer)
	}
	if opt.Image {
		if run.Image, err = ReadPAM(pam); err != nil {
			return nil, err
		}
	}
	return run, nil
}

// parseBench reads the program's two lines: the renderer, then
// "frames N cpu S wall S".
func parseBench(out string) (*BenchRun, error) {
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 2 {
		return nil, fmt.Errorf("want 2 lines of output, got %q", out)
	}
	run := &BenchRun{Renderer: strings.TrimSpace(lines[0])}
	var cpu, wall float64
	if _, err := fmt.Sscanf(lines[1], "frames %d cpu %g wall %g", &run.Frames, &cpu, &wall); err != nil {
		return nil, fmt.Errorf("bad figures %q: %w", lines[1], err)
	}
	if run.Frames < 1 || cpu < 0 || wall <= 0 {
		return nil, fmt.Errorf("bad figures %q", lines[1])
	}
	run.CPU = time.Duration(cpu * float64(time.Second))
	run.Wall = time.Duration(wall * float64(time.Second))
	return run, nil
}
