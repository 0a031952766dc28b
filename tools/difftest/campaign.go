package difftest

import (
	"bytes"
	"fmt"
	"slices"
	"sync"

	"github.com/retrogl/retrogl/trace"
)

// RunSeeds generates and runs the scenes of seeds first..first+n-1 on
// workers goroutines and returns the results in seed order: the same
// results for any number of workers.
func (t *Tester) RunSeeds(first uint64, n, workers int, progress func(done int)) []*Result {
	out := make([]*Result, n)
	next := make(chan int)
	var wg sync.WaitGroup
	var mu sync.Mutex
	done := 0
	for w := 0; w < max(workers, 1); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				out[i] = t.Run(Generate(first + uint64(i)))
				if progress != nil {
					mu.Lock()
					done++
					progress(done)
					mu.Unlock()
				}
			}
		}()
	}
	for i := 0; i < n; i++ {
		next <- i
	}
	close(next)
	wg.Wait()
	return out
}

// Class is a group of failures with one minimal reproducer.
type Class struct {
	Failure Failure
	// Key names the class: the backend, the verdict and the error's
	// signature or the reduced trace's families.
	Key string
	// Seeds are the scenes in the class (reduced ones and, for errors,
	// every scene with the same signature).
	Seeds []uint64
	// Trace is the smallest reproducer found, from scene Seed.
	Trace *trace.Trace
	Seed  uint64
	// Families of the reproducer.
	Families Families
}

// Text is the reproducer as a trace file, with comment lines naming the
// class after the Surface line.
func (c *Class) Text() []byte {
	var b bytes.Buffer
	c.Trace.WriteTo(&b) // a bytes.Buffer does not fail
	head, rest, _ := bytes.Cut(b.Bytes(), []byte("\n"))
	surf, calls, _ := bytes.Cut(rest, []byte("\n"))
	var out bytes.Buffer
	fmt.Fprintf(&out, "%s\n%s\n# rgldiff: %s on %s, reduced from seed %d\n", head, surf, c.Failure.Verdict, c.Failure.Backend, c.Seed)
	if c.Failure.Signature != "" {
		fmt.Fprintf(&out, "# error: %s\n", c.Failure.Signature)
	}
	fmt.Fprintf(&out, "# families: %s\n# seeds: %v\n", c.Families, c.Seeds)
	out.Write(calls)
	return out.Bytes()
}

// Classify reduces failures to minimal traces and groups them: errors by
// their signature (one reduction per signature), differences by the
// families of their reduced trace (at most perBackend reductions per
// backend). Reductions run on workers goroutines; each tests at most
// budget candidates. Classes come back in a fixed order.
func (t *Tester) Classify(results []*Result, perBackend, budget, workers int) []*Class {
	type job struct {
		res *Result
		f   Failure
	}
	var jobs []job
	errClass := map[string]*Class{}
	var errKeys []string
	reduced := map[string]int{}
	for _, res := range results {
		if res.MesaErr != nil {
			continue
		}
		for _, br := range res.Backends {
			f, ok := FailureOf(br)
			if !ok {
				continue
			}
			if f.Verdict == Failed {
				key := f.Backend + " error: " + f.Signature
				if c, ok := errClass[key]; ok {
					c.Seeds = append(c.Seeds, res.Scene.Seed)
					continue
				}
				errClass[key] = &Class{Failure: f, Key: key, Seeds: []uint64{res.Scene.Seed}}
				errKeys = append(errKeys, key)
			} else {
				if reduced[f.Backend] >= perBackend {
					continue
				}
				reduced[f.Backend]++
			}
			jobs = append(jobs, job{res, f})
		}
	}
	traces := make([]*trace.Trace, len(jobs))
	next := make(chan int)
	var wg sync.WaitGroup
	var mu sync.Mutex
	done := 0
	for w := 0; w < max(workers, 1); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				j := jobs[i]
				tr, err := t.Reduce(j.res.Scene.Trace, j.f, budget)
				if err == nil {
					traces[i] = tr
				}
				if t.Log != nil {
					mu.Lock()
					done++
					n := -1
					if tr != nil {
						n = len(tr.Calls)
					}
					t.Log("reduced %d/%d: seed %d on %s (%s): %d calls -> %d", done, len(jobs), j.res.Scene.Seed, j.f.Backend, j.f.Verdict, len(j.res.Scene.Trace.Calls), n)
					mu.Unlock()
				}
			}
		}()
	}
	for i := range jobs {
		next <- i
	}
	close(next)
	wg.Wait()

	diffClass := map[string]*Class{}
	var diffKeys []string
	for i, j := range jobs {
		tr := traces[i]
		if tr == nil { // not reproduced: a flaky failure would show here
			tr = j.res.Scene.Trace
		}
		fams := TraceFamilies(tr)
		var c *Class
		if j.f.Verdict == Failed {
			c = errClass[j.f.Backend+" error: "+j.f.Signature]
		} else {
			key := j.f.Backend + " differs: " + fams.String()
			c = diffClass[key]
			if c == nil {
				c = &Class{Failure: j.f, Key: key}
				diffClass[key] = c
				diffKeys = append(diffKeys, key)
			}
			c.Seeds = append(c.Seeds, j.res.Scene.Seed)
		}
		if c.Trace == nil || len(tr.Calls) < len(c.Trace.Calls) {
			c.Trace, c.Seed, c.Families = tr, j.res.Scene.Seed, fams
		}
	}
	var out []*Class
	for _, k := range errKeys {
		out = append(out, errClass[k])
	}
	for _, k := range diffKeys {
		out = append(out, diffClass[k])
	}
	slices.SortStableFunc(out, func(a, b *Class) int {
		if a.Failure.Backend != b.Failure.Backend {
			return slices.Index(t.Backends, a.Failure.Backend) - slices.Index(t.Backends, b.Failure.Backend)
		}
		return len(b.Seeds) - len(a.Seeds)
	})
	return out
}
