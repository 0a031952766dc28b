// Command rglconform runs piglit's tests on a retrogl backend in a GL ES
// 2.0 context, as piglit would, and prints one line per file, then a
// summary line with the count of each kind of file:
//
//	rglconform [-backend r300] [-size 250] [-glob 'fs-*'] [-expect FILE] [-base DIR]
//	           [-timeout 60s] [-json FILE] [-progress 5s] [-q] PATH...
//
// PATHs are files or directories. Three kinds of piglit file are judged
// (package conform): .shader_test files (shader_runner: shaders, uniforms,
// draws and probes), glslparsertest files (.vert, .frag, ... with a
// [config] block: expect_result, glsl_version, require_extensions,
// check_link) and built-in-constants files (minimum-maximums.txt). GLSL
// 1.10/1.20 files run in a compatibility mode (see conform.Runner).
//
// With -expect, files listed there (relative to -base) are expected to fail
// or skip; the exit status is 1 when a file not listed fails and 0
// otherwise (a listed file that passes is reported as "XPASS" so the list
// can be kept exact). -timeout bounds each file: one that runs longer (a
// hang) fails, naming the file, and the run goes on. -json writes every
// result as a JSON array of {file, kind, status, reason, seconds}. On runs
// longer than -progress, a progress line goes to stderr at that interval.
// Without piglit installed, try testdata/conformance/tests.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	_ "github.com/retrogl/retrogl/backends"
	"github.com/retrogl/retrogl/conform"
)

// options are the command's flags.
type options struct {
	backend     string
	size        int
	glob        string
	expect      string
	base        string
	quiet       bool
	timeout     time.Duration
	jsonFile    string
	progress    time.Duration
	stdout, log io.Writer
}

func main() {
	o := options{stdout: os.Stdout, log: os.Stderr}
	flag.StringVar(&o.backend, "backend", "r300", "backend name")
	flag.IntVar(&o.size, "size", 250, "window width and height for .shader_test files")
	flag.StringVar(&o.glob, "glob", "", "only files whose base name matches this pattern")
	flag.StringVar(&o.expect, "expect", "", "expected-results file")
	flag.StringVar(&o.base, "base", "", "directory the expected-results paths are relative to")
	flag.BoolVar(&o.quiet, "q", false, "print only failures, skips and the summary")
	flag.DurationVar(&o.timeout, "timeout", time.Minute, "time limit per file (0: none)")
	flag.StringVar(&o.jsonFile, "json", "", "write the results to this file as JSON")
	flag.DurationVar(&o.progress, "progress", 5*time.Second, "interval of progress lines on stderr (0: none)")
	flag.Parse()
	os.Exit(run(o, flag.Args()))
}

// fileResult is one judged file, as -json writes it.
type fileResult struct {
	File    string         `json:"file"`
	Kind    conform.Kind   `json:"kind"`
	Status  conform.Status `json:"status"`
	Reason  string         `json:"reason,omitempty"`
	Seconds float64        `json:"seconds"`
}

// tally counts the outcomes of one kind of file.
type tally struct{ pass, fail, skip int }

func run(o options, roots []string) int {
	if len(roots) == 0 {
		fmt.Fprintln(o.log, "rglconform: no files or directories given")
		return 2
	}
	exp := conform.Expectations{}
	if o.expect != "" {
		f, err := os.Open(o.expect)
		if err != nil {
			fmt.Fprintln(o.log, "rglconform:", err)
			return 2
		}
		exp, err = conform.ReadExpectations(f)
		f.Close()
		if err != nil {
			fmt.Fprintln(o.log, "rglconform:", err)
			return 2
		}
	}
	files, err := conform.Find(roots, o.glob)
	if err != nil {
		fmt.Fprintln(o.log, "rglconform:", err)
		return 2
	}
	r := &conform.Runner{Backend: o.backend, Width: o.size, Height: o.size, Timeout: o.timeout}
	defer r.Close()
	tallies := map[conform.Kind]*tally{}
	var results []fileResult
	unexpected := 0
	prog := startProgress(o.log, o.progress, len(files))
	for i, p := range files {
		name := p
		if o.base != "" {
			if rel, err := filepath.Rel(o.base, p); err == nil {
				name = rel
			}
		}
		prog.at(i, name)
		kind, _ := conform.KindOf(p)
		t0 := time.Now()
		res := r.RunFile(p)
		results = append(results, fileResult{File: name, Kind: kind, Status: res.Status, Reason: res.Reason, Seconds: time.Since(t0).Seconds()})
		tl := tallies[kind]
		if tl == nil {
			tl = &tally{}
			tallies[kind] = tl
		}
		_, listed := exp[name]
		switch res.Status {
		case conform.Pass:
			tl.pass++
			if listed {
				fmt.Fprintf(o.stdout, "XPASS %s\n", name)
			} else if !o.quiet {
				fmt.Fprintf(o.stdout, "PASS %s\n", name)
			}
		case conform.Fail:
			tl.fail++
			if !listed {
				unexpected++
			}
			fmt.Fprintf(o.stdout, "FAIL %s: %s\n", name, res.Reason)
		case conform.Skip:
			tl.skip++
			fmt.Fprintf(o.stdout, "SKIP %s: %s\n", name, res.Reason)
		}
	}
	prog.end()
	fmt.Fprintln(o.stdout, summary(tallies))
	if o.jsonFile != "" {
		if results == nil {
			results = []fileResult{}
		}
		b, err := json.MarshalIndent(results, "", "  ")
		if err == nil {
			err = os.WriteFile(o.jsonFile, append(b, '\n'), 0o644)
		}
		if err != nil {
			fmt.Fprintln(o.log, "rglconform:", err)
			return 2
		}
	}
	if unexpected > 0 {
		return 1
	}
	return 0
}

// summary is "N passed, N failed, N skipped" over every file, followed by
// the same counts for each kind of file that occurred.
func summary(tallies map[conform.Kind]*tally) string {
	var all tally
	var kinds []string
	for _, k := range []conform.Kind{conform.ShaderTest, conform.ParserTest, conform.Constants, 0} {
		t := tallies[k]
		if t == nil {
			continue
		}
		all.pass, all.fail, all.skip = all.pass+t.pass, all.fail+t.fail, all.skip+t.skip
		kinds = append(kinds, fmt.Sprintf("%s %d passed, %d failed, %d skipped", k, t.pass, t.fail, t.skip))
	}
	return strings.Join(append([]string{fmt.Sprintf("%d passed, %d failed, %d skipped", all.pass, all.fail, all.skip)}, kinds...), "; ")
}

// progress prints a line to w every interval while a run lasts: how many
// files are done and which one runs (so a slow or hung file shows).
type progress struct {
	mu    sync.Mutex
	done  int
	name  string
	total int
	stop  chan struct{}
}

func startProgress(w io.Writer, interval time.Duration, total int) *progress {
	p := &progress{total: total, stop: make(chan struct{})}
	if interval <= 0 {
		return p
	}
	start := time.Now()
	go func() {
		t := time.NewTicker(interval)
		defer t.Stop()
		for {
			select {
			case <-p.stop:
				return
			case <-t.C:
				p.mu.Lock()
				fmt.Fprintf(w, "rglconform: %d of %d files done (%d%%), %.0f s, running %s\n",
					p.done, p.total, 100*p.done/max(p.total, 1), time.Since(start).Seconds(), p.name)
				p.mu.Unlock()
			}
		}
	}()
	return p
}

// at records that file i (named name) starts.
func (p *progress) at(i int, name string) {
	p.mu.Lock()
	p.done, p.name = i, name
	p.mu.Unlock()
}

func (p *progress) end() { close(p.stop) }
