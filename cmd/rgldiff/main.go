// Command rgldiff is the differential tester (package tools/difftest): it
// generates random valid GL ES 1.1 scenes from seeds, replays each on every
// backend and on Mesa's softpipe, and prints per backend and per feature
// family the share of scenes rendered without a GL error and the share
// within the backend's tolerance of Mesa (examples/compare). Failures are
// reduced to minimal traces, one per failure class, written to -out:
//
//	go run ./cmd/rgldiff -seeds 1000 -out out/rgldiff
//	go run ./cmd/rgldiff -seed 36 -backend pica200 -v   # one scene
//	go run ./cmd/rgldiff -seed 36 -print > s36.trace    # its trace
//	go run ./cmd/rgldiff -trace s36.trace -out img      # judge a trace file, write its images
//	go run ./cmd/rgldiff -trace s36.trace -reduce 1     # and reduce it
//
// Results depend only on the seeds (any -j gives the same table); it needs
// Debian's libosmesa6-dev, gcc and pkg-config.
package main

import (
	"flag"
	"fmt"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"github.com/retrogl/retrogl/backends"
	"github.com/retrogl/retrogl/tools/difftest"
	"github.com/retrogl/retrogl/tools/mesaref"
)

func main() {
	seeds := flag.Int("seeds", 100, "number of scenes")
	first := flag.Uint64("first", 1, "first seed")
	seed := flag.Uint64("seed", 0, "run only this seed (same as -first S -seeds 1)")
	backend := flag.String("backend", "", "comma-separated backends (default: all)")
	jobs := flag.Int("j", runtime.NumCPU(), "scenes replayed in parallel")
	out := flag.String("out", "", "directory for one minimal reproducer trace per failure class (and, with -images, the images)")
	reduce := flag.Int("reduce", 5, "differing scenes reduced per backend (errors: one per signature); 0: none")
	budget := flag.Int("budget", 250, "candidate traces tested per reduction")
	images := flag.Bool("images", false, "with -out: write every failing scene's images (Mesa's and the backend's)")
	verbose := flag.Bool("v", false, "print every scene's verdicts")
	print := flag.Bool("print", false, "print the trace of -seed and exit")
	traceFile := flag.String("trace", "", "judge this trace file (a reproducer) instead of generated scenes; -out DIR writes its images")
	flag.Parse()
	if *seed != 0 {
		*first, *seeds = *seed, 1
	}
	if *print {
		os.Stdout.Write(difftest.Generate(*first).Text)
		return
	}
	names := backends.Names()
	if *backend != "" {
		names = strings.Split(*backend, ",")
	}
	if err := mesaref.Available(); err != nil {
		fmt.Fprintln(os.Stderr, "rgldiff:", err)
		os.Exit(1)
	}
	t := difftest.NewTester(names, *jobs)
	defer t.Close()
	if *traceFile != "" {
		// A trace is reduced only when -reduce is given.
		n := 0
		flag.Visit(func(f *flag.Flag) {
			if f.Name == "reduce" {
				n = *reduce
			}
		})
		os.Exit(judgeFile(t, *traceFile, *out, n, *budget))
	}
	t.KeepImages = *images && *out != ""
	t.Log = func(format string, args ...any) { fmt.Fprintf(os.Stderr, "rgldiff: "+format+"\n", args...) }
	start := time.Now()
	results := t.RunSeeds(*first, *seeds, *jobs, func(done int) {
		if done%50 == 0 {
			fmt.Fprintf(os.Stderr, "rgldiff: %d/%d scenes, %s\n", done, *seeds, time.Since(start).Round(time.Second))
		}
	})
	rep := difftest.NewReport(names)
	for _, res := range results {
		rep.Add(res)
		if *verbose {
			printResult(res)
		}
		if res.MesaErr != nil {
			fmt.Fprintf(os.Stderr, "rgldiff: seed %d: Mesa: %v\n", res.Scene.Seed, res.MesaErr)
		}
	}
	fmt.Printf("# go run ./cmd/rgldiff -first %d -seeds %d (softpipe; %s)\n\n", *first, *seeds, time.Since(start).Round(time.Second))
	rep.WriteTable(os.Stdout)
	fmt.Println()
	rep.WriteSeeds(os.Stdout)
	if *out != "" {
		if err := os.MkdirAll(*out, 0o755); err != nil {
			fmt.Fprintln(os.Stderr, "rgldiff:", err)
			os.Exit(1)
		}
		if t.KeepImages {
			writeImages(*out, results)
		}
	}
	if *reduce <= 0 {
		return
	}
	classes := t.Classify(results, *reduce, *budget, *jobs)
	if len(classes) == 0 {
		return
	}
	writeClasses(classes, *out)
}

// writeClasses prints the failure classes and writes their reproducers to
// dir (when set).
func writeClasses(classes []*difftest.Class, dir string) {
	if len(classes) == 0 {
		return
	}
	fmt.Printf("\nFailure classes (minimal reproducers%s):\n\n", map[bool]string{true: " in " + dir, false: ""}[dir != ""])
	count := map[string]int{}
	for _, c := range classes {
		count[c.Failure.Backend]++
		name := fmt.Sprintf("%s-%s-%d.trace", c.Failure.Backend, c.Failure.Verdict, count[c.Failure.Backend])
		fmt.Printf("- %s, %s, %d calls, seeds %v", c.Failure.Backend, c.Failure.Verdict, len(c.Trace.Calls), short(c.Seeds))
		if c.Failure.Signature != "" {
			fmt.Printf(": %s", c.Failure.Signature)
		}
		fmt.Printf(" [%s]", c.Families)
		if dir != "" {
			path := filepath.Join(dir, name)
			if err := os.WriteFile(path, c.Text(), 0o644); err != nil {
				fmt.Fprintln(os.Stderr, "rgldiff:", err)
				os.Exit(1)
			}
			fmt.Printf(" -> %s", path)
		}
		fmt.Println()
	}
}

func short(s []uint64) string {
	if len(s) <= 8 {
		return fmt.Sprint(s)
	}
	return fmt.Sprintf("%v... (%d)", s[:8], len(s))
}

func printResult(res *difftest.Result) {
	fmt.Printf("seed %d [%s]", res.Scene.Seed, res.Scene.Families)
	if res.MesaErr != nil {
		fmt.Printf(" Mesa failed\n")
		return
	}
	for _, br := range res.Backends {
		fmt.Printf("\n  %-10s %-7s", br.Backend, br.Verdict)
		switch br.Verdict {
		case difftest.Pass, difftest.Differs:
			fmt.Printf(" %v", br.Cmp)
		case difftest.Failed:
			fmt.Printf(" %s", difftest.Signature(br.Err))
		default:
			fmt.Printf(" %v", br.Err)
		}
	}
	fmt.Println()
}

func writeImages(dir string, results []*difftest.Result) {
	for _, res := range results {
		if res.Mesa == nil {
			continue
		}
		failing := false
		for _, br := range res.Backends {
			if br.Verdict == difftest.Differs || br.Verdict == difftest.Failed {
				failing = true
				if br.Image != nil {
					writePNG(filepath.Join(dir, fmt.Sprintf("seed%d-%s.png", res.Scene.Seed, br.Backend)), br.Image)
				}
			}
		}
		if failing {
			writePNG(filepath.Join(dir, fmt.Sprintf("seed%d-mesa.png", res.Scene.Seed)), res.Mesa)
		}
	}
}

func writePNG(path string, img image.Image) {
	f, err := os.Create(path)
	if err == nil {
		err = png.Encode(f, img)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "rgldiff:", err)
	}
}

// judgeFile judges one trace file on every backend, printing the verdicts
// and writing the images to dir (when set): exit status 1 when a backend
// fails.
func judgeFile(t *difftest.Tester, path, dir string, reduce, budget int) int {
	text, err := os.ReadFile(path)
	if err == nil {
		var s *difftest.Scene
		if s, err = difftest.SceneOf(text); err == nil {
			t.KeepImages = dir != ""
			res := t.Run(s)
			if res.MesaErr != nil {
				err = fmt.Errorf("mesa: %w", res.MesaErr)
			} else {
				printResult(res)
				if dir != "" {
					if err = os.MkdirAll(dir, 0o755); err == nil {
						base := strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
						writePNG(filepath.Join(dir, base+"-mesa.png"), res.Mesa)
						for _, br := range res.Backends {
							if br.Image != nil {
								writePNG(filepath.Join(dir, base+"-"+br.Backend+".png"), br.Image)
							}
						}
					}
				}
				failed := false
				for _, br := range res.Backends {
					failed = failed || br.Verdict == difftest.Differs || br.Verdict == difftest.Failed
				}
				if failed && reduce > 0 {
					writeClasses(t.Classify([]*difftest.Result{res}, reduce, budget, 1), dir)
				}
				if failed {
					return 1
				}
			}
		}
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "rgldiff:", err)
		return 1
	}
	return 0
}
