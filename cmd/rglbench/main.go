// Command rglbench runs the standard benchmark scenes (package bench,
// DESIGN.md "The standard scenes") on every backend at its chip's natural
// screen size and prints pixels/s and triangles/s:
//
//	go run ./cmd/rglbench                        # every backend and scene
//	go run ./cmd/rglbench -backend r300 -scene fill-flat -frames 50
//	go run ./cmd/rglbench -mesa -workers 1       # beside Mesa, one core each
//	go run ./cmd/rglbench -mesa -json            # the same as JSON
//
// With -mesa each scene also runs, in the same process tree and with the
// rounds interleaved (ours, softpipe, llvmpipe, ours, ...), on Mesa's
// softpipe and on llvmpipe with one rasterizer thread, through the OSMesa
// program of tools/mesaref (bench.c) built on first use: the same size,
// quads, texture, filter, blend and depth function. It prints, per backend
// and scene, each renderer's figures (medians over the rounds) and our
// speed as a ratio of each Mesa renderer's (the minimum and the median of
// the rounds' ratios). Where OSMesa cannot be built (libosmesa6-dev
// missing) it says so and prints our figures alone.
//
// A measurement sets the scene up, draws one untimed frame, then draws
// frames until both -frames frames and -time have passed. Mpix/s and
// triangles/s come from the elapsed (wall) time; CPU time, every thread of
// the process, is given beside it. Figures depend on the machine and its
// load; compare them as ratios of interleaved runs.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/pprof"
	"slices"
	"time"

	"github.com/retrogl/retrogl/backends"
	"github.com/retrogl/retrogl/bench"
	"github.com/retrogl/retrogl/gles"
	"github.com/retrogl/retrogl/tools/mesaref"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr, osMesa{}))
}

// mesaBench is the Mesa side of the benchmark; tests replace it.
type mesaBench interface {
	Available() error
	Bench(r mesaref.Renderer, scene string, w, h int, opt mesaref.BenchOptions) (*mesaref.BenchRun, error)
}

type osMesa struct{}

func (osMesa) Available() error { return mesaref.Available() }

func (osMesa) Bench(r mesaref.Renderer, scene string, w, h int, opt mesaref.BenchOptions) (*mesaref.BenchRun, error) {
	return mesaref.Bench(r, scene, w, h, opt)
}

// The renderers a result row names, ours first.
const (
	ours      = 0
	softpipe  = 1
	llvmpipe1 = 2
)

var rendererNames = [3]string{"", "softpipe", "llvmpipe1"}

var mesaRenderers = [3]mesaref.Renderer{"", mesaref.Softpipe, mesaref.Llvmpipe}

// sample is one measurement: frames drawn in wall time, using cpu time.
type sample struct {
	frames    int
	wall, cpu time.Duration
}

func (s sample) fps() float64 { return float64(s.frames) / s.wall.Seconds() }

// entry gathers the rounds of one (backend, scene).
type entry struct {
	backend string
	scene   bench.Scene
	w, h    int
	skipped string
	failed  bool
	// samples[renderer] holds one sample per round; a Mesa renderer's
	// slice stays empty when Mesa is not run.
	samples [3][]sample
}

// Result is one (backend, scene) of the -json output. Figures are medians
// over the rounds; the Mesa keys are absent when Mesa did not run.
type Result struct {
	Backend string `json:"backend"`
	Scene   string `json:"scene"`
	Width   int    `json:"width"`
	Height  int    `json:"height"`
	Workers int    `json:"workers"`
	Rounds  int    `json:"rounds"`
	// Skipped names why the backend could not run the scene.
	Skipped string `json:"skipped,omitempty"`
	// Mpix is millions of covered pixels per second, Tris triangles per
	// second, CPUPerFrame and WallPerFrame seconds per frame.
	Mpix         *float64 `json:"mpix,omitempty"`
	Tris         *float64 `json:"tris,omitempty"`
	CPUPerFrame  *float64 `json:"cpu_per_frame,omitempty"`
	WallPerFrame *float64 `json:"wall_per_frame,omitempty"`
	// Softpipe and Llvmpipe1 are Mesa's Mpix/s (llvmpipe with one
	// rasterizer thread); the CPU keys their seconds per frame.
	Softpipe     *float64 `json:"softpipe,omitempty"`
	SoftpipeCPU  *float64 `json:"softpipe_cpu_per_frame,omitempty"`
	Llvmpipe1    *float64 `json:"llvmpipe1,omitempty"`
	Llvmpipe1CPU *float64 `json:"llvmpipe1_cpu_per_frame,omitempty"`
	// VsSoftpipe and VsLlvmpipe1 are our speed over Mesa's: the median of
	// the rounds' ratios, and the smallest.
	VsSoftpipe     *float64 `json:"vs_softpipe,omitempty"`
	VsSoftpipeMin  *float64 `json:"vs_softpipe_min,omitempty"`
	VsLlvmpipe1    *float64 `json:"vs_llvmpipe1,omitempty"`
	VsLlvmpipe1Min *float64 `json:"vs_llvmpipe1_min,omitempty"`
}

func run(args []string, stdout, stderr io.Writer, mesa mesaBench) int {
	fs := flag.NewFlagSet("rglbench", flag.ContinueOnError)
	fs.SetOutput(stderr)
	backend := fs.String("backend", "", "backend (default: all)")
	scene := fs.String("scene", "", "scene (default: all)")
	frames := fs.Int("frames", 2, "least number of timed frames per measurement (after one untimed frame)")
	minTime := fs.Duration("time", 500*time.Millisecond, "least time per measurement")
	rounds := fs.Int("rounds", 3, "rounds; with -mesa each round runs ours, softpipe and llvmpipe in turn")
	withMesa := fs.Bool("mesa", false, "run the same scenes on Mesa softpipe and llvmpipe (one thread) through OSMesa")
	asJSON := fs.Bool("json", false, "print a JSON array of results")
	workers := fs.Int("workers", runtime.GOMAXPROCS(0), "goroutines the simulated devices shade with")
	cpuprofile := fs.String("cpuprofile", "", "write a CPU profile of the run to this file")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() > 0 || *frames < 1 || *rounds < 1 || *workers < 1 || *minTime < 0 {
		fmt.Fprintln(stderr, "rglbench: -frames, -rounds and -workers must be at least 1, -time not negative, and no arguments")
		return 2
	}
	names := backends.Names()
	if *backend != "" {
		if !slices.Contains(names, *backend) {
			fmt.Fprintf(stderr, "rglbench: unknown backend %q (have %v)\n", *backend, names)
			return 2
		}
		names = []string{*backend}
	}
	scenes := bench.Scenes()
	if *scene != "" {
		s, err := bench.Lookup(*scene)
		if err != nil {
			fmt.Fprintln(stderr, "rglbench:", err)
			return 2
		}
		scenes = []bench.Scene{s}
	}
	mesaNote := ""
	if *withMesa {
		if err := mesa.Available(); err != nil {
			fmt.Fprintf(stderr, "rglbench: -mesa: Mesa is not available here (install %s): %v\nrglbench: printing retrogl's figures alone\n", mesaref.Package, err)
			*withMesa = false
			mesaNote = "Mesa not available (install " + mesaref.Package + ")"
		} else {
			mesaNote = "Mesa softpipe and llvmpipe (LP_NUM_THREADS=1) through OSMesa"
		}
	}
	if *cpuprofile != "" {
		f, err := os.Create(*cpuprofile)
		if err != nil {
			fmt.Fprintln(stderr, "rglbench:", err)
			return 1
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			fmt.Fprintln(stderr, "rglbench:", err)
			return 1
		}
		defer pprof.StopCPUProfile()
	}

	var entries []*entry
	for _, b := range names {
		w, h := bench.NaturalSize(b)
		for _, s := range scenes {
			entries = append(entries, &entry{backend: b, scene: s, w: w, h: h})
		}
	}
	opt := mesaref.BenchOptions{Frames: *frames, MinTime: *minTime}
	failed := false
	for r := 0; r < *rounds; r++ {
		for _, e := range entries {
			if e.skipped != "" || e.failed {
				continue
			}
			smp, skip, err := measure(e, *workers, *frames, *minTime)
			switch {
			case err != nil:
				fmt.Fprintf(stderr, "rglbench: %s %s: %v\n", e.backend, e.scene.Name, err)
				e.failed, failed = true, true
				continue
			case skip != "":
				e.skipped = skip
				continue
			}
			e.samples[ours] = append(e.samples[ours], smp)
			if !*withMesa {
				continue
			}
			for _, m := range []int{softpipe, llvmpipe1} {
				res, err := mesa.Bench(mesaRenderers[m], e.scene.Name, e.w, e.h, opt)
				if err != nil {
					fmt.Fprintf(stderr, "rglbench: %s %s: %v\n", e.backend, e.scene.Name, err)
					e.failed, failed = true, true
					break
				}
				e.samples[m] = append(e.samples[m], sample{frames: res.Frames, wall: res.Wall, cpu: res.CPU})
			}
		}
	}

	results := make([]Result, 0, len(entries))
	for _, e := range entries {
		if e.failed {
			continue
		}
		results = append(results, e.result(*workers))
	}
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(results); err != nil {
			fmt.Fprintln(stderr, "rglbench:", err)
			return 1
		}
	} else {
		printTable(stdout, results, *workers, *rounds, mesaNote, *withMesa)
	}
	if failed {
		return 1
	}
	return 0
}

// measure runs one measurement of our backend: setup and one frame
// untimed, then frames until both counts are reached. skip is not empty
// when the backend lacks a feature the scene needs.
func measure(e *entry, workers, frames int, minTime time.Duration) (s sample, skip string, err error) {
	ctx, err := gles.NewContext(e.backend, gles.Config{Width: e.w, Height: e.h, DepthBits: 16, Workers: workers})
	if err != nil {
		return s, "", err
	}
	defer ctx.Close()
	if f, missing := e.scene.Missing(ctx.Caps()); missing {
		return s, fmt.Sprintf("%v missing", f), nil
	}
	e.scene.Setup(ctx)
	e.scene.Frame(ctx)
	if err := ctx.Err(); err != nil {
		return s, "", err
	}
	runtime.GC()
	cpu0, start := cpuTime(), time.Now()
	for s.frames < frames || s.wall < minTime {
		e.scene.Frame(ctx)
		s.frames++
		s.wall = time.Since(start)
	}
	s.cpu = cpuTime() - cpu0
	if err := ctx.Err(); err != nil {
		return s, "", err
	}
	return s, "", nil
}

// result reduces the rounds to medians and ratios.
func (e *entry) result(workers int) Result {
	r := Result{Backend: e.backend, Scene: e.scene.Name, Width: e.w, Height: e.h, Workers: workers,
		Rounds: len(e.samples[ours]), Skipped: e.skipped}
	if len(e.samples[ours]) == 0 {
		return r
	}
	px := float64(e.scene.Pixels(e.w, e.h))
	mpix := func(m int) *float64 {
		return median(e.samples[m], func(s sample) float64 { return s.fps() * px / 1e6 })
	}
	cpu := func(m int) *float64 {
		return median(e.samples[m], func(s sample) float64 { return s.cpu.Seconds() / float64(s.frames) })
	}
	r.Mpix, r.CPUPerFrame = mpix(ours), cpu(ours)
	r.Tris = median(e.samples[ours], func(s sample) float64 { return s.fps() * float64(e.scene.Triangles) })
	r.WallPerFrame = median(e.samples[ours], func(s sample) float64 { return s.wall.Seconds() / float64(s.frames) })
	r.Softpipe, r.SoftpipeCPU = mpix(softpipe), cpu(softpipe)
	r.Llvmpipe1, r.Llvmpipe1CPU = mpix(llvmpipe1), cpu(llvmpipe1)
	r.VsSoftpipe, r.VsSoftpipeMin = e.ratios(softpipe)
	r.VsLlvmpipe1, r.VsLlvmpipe1Min = e.ratios(llvmpipe1)
	return r
}

// ratios returns the median and the smallest of the rounds' ratios of our
// frame rate to Mesa renderer m's (the work per frame is the same), or
// nils when m did not run.
func (e *entry) ratios(m int) (med, low *float64) {
	n := min(len(e.samples[ours]), len(e.samples[m]))
	if n == 0 {
		return nil, nil
	}
	rs := make([]float64, n)
	for i := range rs {
		rs[i] = e.samples[ours][i].fps() / e.samples[m][i].fps()
	}
	med = median(rs, func(v float64) float64 { return v })
	lo := slices.Min(rs)
	return med, &lo
}

// median returns the median of f over xs (the mean of the middle two for
// an even count), or nil for none.
func median[T any](xs []T, f func(T) float64) *float64 {
	if len(xs) == 0 {
		return nil
	}
	v := make([]float64, len(xs))
	for i, x := range xs {
		v[i] = f(x)
	}
	slices.Sort(v)
	m := v[len(v)/2]
	if len(v)%2 == 0 {
		m = (v[len(v)/2-1] + m) / 2
	}
	return &m
}

func printTable(w io.Writer, results []Result, workers, rounds int, mesaNote string, withMesa bool) {
	fmt.Fprintf(w, "# %s/%s, %d CPUs, %d workers, %d rounds; medians over the rounds (ratios: min / median)\n",
		runtime.GOOS, runtime.GOARCH, runtime.NumCPU(), workers, rounds)
	if mesaNote != "" {
		fmt.Fprintf(w, "# %s\n", mesaNote)
	}
	head := fmt.Sprintf("%-10s %-15s %-8s %-10s %10s %10s %9s %9s", "backend", "scene", "size", "renderer", "Mpix/s", "Ktris/s", "ms/frame", "cpu ms/f")
	if withMesa {
		head += fmt.Sprintf(" %16s %16s", "vs softpipe", "vs llvmpipe1")
	}
	fmt.Fprintln(w, head)
	f := func(p *float64, scale float64, prec int) string {
		if p == nil {
			return "-"
		}
		return fmt.Sprintf("%.*f", prec, *p*scale)
	}
	ratio := func(lo, med *float64) string {
		if med == nil {
			return ""
		}
		return fmt.Sprintf("%.3f / %.3f", *lo, *med)
	}
	for _, r := range results {
		size := fmt.Sprintf("%dx%d", r.Width, r.Height)
		if r.Skipped != "" {
			fmt.Fprintf(w, "%-10s %-15s %-8s skipped: %s\n", r.Backend, r.Scene, size, r.Skipped)
			continue
		}
		line := fmt.Sprintf("%-10s %-15s %-8s %-10s %10s %10s %9s %9s", r.Backend, r.Scene, size, r.Backend,
			f(r.Mpix, 1, 2), f(r.Tris, 1e-3, 1), f(r.WallPerFrame, 1e3, 2), f(r.CPUPerFrame, 1e3, 2))
		if withMesa {
			line += fmt.Sprintf(" %16s %16s", ratio(r.VsSoftpipeMin, r.VsSoftpipe), ratio(r.VsLlvmpipe1Min, r.VsLlvmpipe1))
		}
		fmt.Fprintln(w, line)
		for _, m := range []struct {
			name      string
			mpix, cpu *float64
		}{{rendererNames[softpipe], r.Softpipe, r.SoftpipeCPU}, {rendererNames[llvmpipe1], r.Llvmpipe1, r.Llvmpipe1CPU}} {
			if m.mpix == nil {
				continue
			}
			// Mesa's triangles/s and ms/frame follow from its Mpix/s.
			fps := *m.mpix * 1e6 / float64(pixelsOf(r))
			tris := fps * float64(trianglesOf(r))
			fmt.Fprintf(w, "%-10s %-15s %-8s %-10s %10.2f %10.1f %9.2f %9s\n", "", "", "", m.name,
				*m.mpix, tris/1e3, 1e3/fps, f(m.cpu, 1e3, 2))
		}
	}
}

func pixelsOf(r Result) int {
	s, err := bench.Lookup(r.Scene)
	if err != nil {
		return 1
	}
	return s.Pixels(r.Width, r.Height)
}

func trianglesOf(r Result) int {
	s, err := bench.Lookup(r.Scene)
	if err != nil {
		return 0
	}
	return s.Triangles
}
