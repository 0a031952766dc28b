// Package conformance runs piglit-style GLSL compiler tests: shader files
// (.vert, .frag) whose header comment holds a "[config]" block with the
// expected verdict, as in piglit's tests/spec/glsl-es-1.00/compiler:
//
//	// [config]
//	// expect_result: pass
//	// glsl_version: 1.00
//	// check_link: true
//	// [end config]
//
// The same format serves the repository's own tests under testdata/glsl.
package conformance

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/retrogl/retrogl/compiler/glsl"
)

// Config is a test's header.
type Config struct {
	ExpectPass bool
	Version    int // from glsl_version: 100, 110, 120, 130, ...
	CheckLink  bool
	Extensions []string // require_extensions (a leading '!' means "must be absent")
	AppendixA  bool     // appendix_a: true (retrogl's own key): enforce Appendix A
}

// ParseConfig reads the [config] block of a test file.
func ParseConfig(src string) (Config, error) {
	var cfg Config
	in, done, sawResult := false, false, false
	for _, raw := range strings.Split(src, "\n") {
		line := strings.TrimSpace(raw)
		line = strings.TrimLeft(line, "/*")
		line = strings.TrimSpace(line)
		switch {
		case line == "[config]":
			in = true
			continue
		case line == "[end config]":
			done = true
		}
		if done {
			break
		}
		if !in {
			continue
		}
		key, val, ok := strings.Cut(line, ":")
		if !ok {
			continue
		}
		val = strings.TrimSpace(val)
		switch strings.TrimSpace(key) {
		case "expect_result":
			switch val {
			case "pass":
				cfg.ExpectPass = true
			case "fail":
			default:
				return cfg, fmt.Errorf("bad expect_result %q", val)
			}
			sawResult = true
		case "glsl_version":
			v, err := parseVersion(val)
			if err != nil {
				return cfg, err
			}
			cfg.Version = v
		case "check_link":
			cfg.CheckLink = val == "true"
		case "require_extensions":
			cfg.Extensions = strings.Fields(val)
		case "appendix_a":
			cfg.AppendixA = val == "true"
		}
	}
	if !done || !sawResult || cfg.Version == 0 {
		return cfg, fmt.Errorf("no complete [config] block (expect_result and glsl_version)")
	}
	return cfg, nil
}

// parseVersion turns "1.00" or "1.00 es" into 100.
func parseVersion(s string) (int, error) {
	f := strings.Fields(s)
	if len(f) == 0 {
		return 0, fmt.Errorf("empty glsl_version")
	}
	var major, minor int
	if _, err := fmt.Sscanf(f[0], "%d.%d", &major, &minor); err != nil {
		return 0, fmt.Errorf("bad glsl_version %q", s)
	}
	return major*100 + minor, nil
}

// Result is the outcome of one test file.
type Result struct {
	Path     string // relative to the suite root
	Expected bool   // expect_result: pass
	Passed   bool   // the shader compiled (and linked, with check_link)
	Skip     string // why the test did not run
	Log      string // the compiler's info log
}

// Right reports whether the verdict matched the expectation.
func (r *Result) Right() bool { return r.Skip == "" && r.Expected == r.Passed }

// Options configure a run.
type Options struct {
	// Extensions the implementation supports (see glsl.Options).
	Extensions []string
	// AppendixA enforces Appendix A (see glsl.Options).
	AppendixA bool
}

// supportedVersions are the versions the front end implements.
var supportedVersions = map[int]bool{100: true, 110: true, 120: true}

// RunFile runs one test file.
func RunFile(path, rel string, opts Options) *Result {
	r := &Result{Path: rel}
	src, err := os.ReadFile(path)
	if err != nil {
		r.Skip = err.Error()
		return r
	}
	cfg, err := ParseConfig(string(src))
	if err != nil {
		r.Skip = err.Error()
		return r
	}
	r.Expected = cfg.ExpectPass
	var stage glsl.Stage
	switch filepath.Ext(path) {
	case ".vert":
		stage = glsl.StageVertex
	case ".frag":
		stage = glsl.StageFragment
	default:
		r.Skip = "stage " + filepath.Ext(path) + " not supported"
		return r
	}
	if !supportedVersions[cfg.Version] {
		r.Skip = fmt.Sprintf("requires GLSL %d.%02d", cfg.Version/100, cfg.Version%100)
		return r
	}
	for _, e := range cfg.Extensions {
		want := !strings.HasPrefix(e, "!")
		if has(opts.Extensions, strings.TrimPrefix(e, "!")) != want {
			r.Skip = "requires " + e
			return r
		}
	}
	// ES tests run with the ES minimum limits; desktop tests assume
	// desktop-class ones (8 texture coordinates and so on).
	var limits glsl.Limits
	if cfg.Version != 100 {
		limits = generousLimits
	}
	sh, err := glsl.Compile(string(src), glsl.Options{Stage: stage, Version: cfg.Version, Limits: limits, Extensions: opts.Extensions, AppendixA: opts.AppendixA || cfg.AppendixA})
	if err == nil && cfg.CheckLink {
		if stage == glsl.StageVertex {
			_, err = glsl.Link(sh, nil, glsl.LinkOptions{Limits: limits})
		} else {
			_, err = glsl.Link(nil, sh, glsl.LinkOptions{Limits: limits})
		}
	}
	r.Passed = err == nil
	if err != nil {
		r.Log = err.Error()
	}
	return r
}

func has(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// RunDir runs every .vert and .frag file under dir, in path order.
func RunDir(dir string, opts Options) ([]*Result, error) {
	var paths []string
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && (strings.HasSuffix(p, ".vert") || strings.HasSuffix(p, ".frag")) {
			paths = append(paths, p)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("conformance: walking %s: %w", dir, err)
	}
	sort.Strings(paths)
	out := make([]*Result, 0, len(paths))
	for _, p := range paths {
		rel, _ := filepath.Rel(dir, p)
		out = append(out, RunFile(p, filepath.ToSlash(rel), opts))
	}
	return out, nil
}

// Expectations lists the files a suite is known to get wrong, with reasons.
type Expectations map[string]string

// ReadExpectations reads "path: reason" lines; '#' starts a comment.
func ReadExpectations(path string) (Expectations, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("conformance: %w", err)
	}
	defer f.Close()
	e := Expectations{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		p, reason, _ := strings.Cut(line, ":")
		e[strings.TrimSpace(p)] = strings.TrimSpace(reason)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("conformance: reading %s: %w", path, err)
	}
	return e, nil
}

// Summary counts a run against the expectations.
type Summary struct {
	Right, Wrong, Skipped int
	Regressions           []*Result // wrong, and not listed as a known failure
	Fixed                 []string  // listed as known failures, but right now
}

// Lookup finds the entry for a result path: the same path, or an entry
// that ends with "/"+path (entries may be relative to a parent directory).
func (e Expectations) Lookup(path string) (string, bool) {
	if r, ok := e[path]; ok {
		return r, true
	}
	for k, r := range e {
		if strings.HasSuffix(k, "/"+path) {
			return r, true
		}
	}
	return "", false
}

// Summarize compares results with the expectations (nil: none).
func Summarize(results []*Result, known Expectations) Summary {
	var s Summary
	for _, r := range results {
		_, listed := known.Lookup(r.Path)
		switch {
		case r.Skip != "":
			s.Skipped++
		case r.Right():
			s.Right++
			if listed {
				s.Fixed = append(s.Fixed, r.Path)
			}
		default:
			s.Wrong++
			if !listed {
				s.Regressions = append(s.Regressions, r)
			}
		}
	}
	return s
}

// Report writes one line per file and the closing count.
func Report(w io.Writer, results []*Result, verbose bool) {
	for _, r := range results {
		exp := "fail"
		if r.Expected {
			exp = "pass"
		}
		switch {
		case r.Skip != "":
			fmt.Fprintf(w, "skip   %s (%s)\n", r.Path, r.Skip)
		case r.Right():
			fmt.Fprintf(w, "right  %s (expected %s)\n", r.Path, exp)
		default:
			fmt.Fprintf(w, "WRONG  %s (expected %s)\n", r.Path, exp)
		}
		if r.Log != "" && (verbose || !r.Right() && r.Skip == "") {
			for _, l := range strings.Split(r.Log, "\n") {
				fmt.Fprintf(w, "         %s\n", l)
			}
		}
	}
	s := Summarize(results, nil)
	fmt.Fprintf(w, "%d right, %d wrong, %d skipped\n", s.Right, s.Wrong, s.Skipped)
}
