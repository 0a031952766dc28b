// Command rglconform runs piglit .shader_test files on a retrogl backend
// in a GL ES 2.0 context and prints one line per file, then
// "N passed, N failed, N skipped".
//
//	rglconform [-backend r300] [-size 250] [-glob 'fs-*'] [-expect FILE] [-base DIR] PATH...
//
// PATHs are files or directories (searched for *.shader_test). With
// -expect, files listed there (relative to -base) are expected to fail or
// skip; the exit status is 1 when a file not listed fails and 0 otherwise
// (a listed file that passes is reported as "XPASS" so the list can be
// kept exact). GLSL 1.10/1.20 files run in a compatibility mode (see
// conform.Runner). Without piglit installed, try
// testdata/conformance/tests.
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"

	_ "github.com/retrogl/retrogl/backends"
	"github.com/retrogl/retrogl/conform"
)

func main() {
	backend := flag.String("backend", "r300", "backend name")
	size := flag.Int("size", 250, "window width and height")
	glob := flag.String("glob", "", "only files whose base name matches this pattern")
	expect := flag.String("expect", "", "expected-results file")
	base := flag.String("base", "", "directory the expected-results paths are relative to")
	quiet := flag.Bool("q", false, "print only failures and the summary")
	flag.Parse()
	os.Exit(run(*backend, *size, *glob, *expect, *base, *quiet, flag.Args()))
}

func run(backend string, size int, glob, expect, base string, quiet bool, roots []string) int {
	if len(roots) == 0 {
		fmt.Fprintln(os.Stderr, "rglconform: no files or directories given")
		return 2
	}
	exp := conform.Expectations{}
	if expect != "" {
		f, err := os.Open(expect)
		if err != nil {
			fmt.Fprintln(os.Stderr, "rglconform:", err)
			return 2
		}
		exp, err = conform.ReadExpectations(f)
		f.Close()
		if err != nil {
			fmt.Fprintln(os.Stderr, "rglconform:", err)
			return 2
		}
	}
	files, err := conform.Find(roots, glob)
	if err != nil {
		fmt.Fprintln(os.Stderr, "rglconform:", err)
		return 2
	}
	r := &conform.Runner{Backend: backend, Width: size, Height: size}
	var pass, fail, skip, unexpected int
	for _, p := range files {
		name := p
		if base != "" {
			if rel, err := filepath.Rel(base, p); err == nil {
				name = rel
			}
		}
		res := r.RunFile(p)
		_, listed := exp[name]
		switch res.Status {
		case conform.Pass:
			pass++
			if listed {
				fmt.Printf("XPASS %s\n", name)
			} else if !quiet {
				fmt.Printf("PASS %s\n", name)
			}
		case conform.Fail:
			fail++
			if !listed {
				unexpected++
			}
			fmt.Printf("FAIL %s: %s\n", name, res.Reason)
		case conform.Skip:
			skip++
			fmt.Printf("SKIP %s: %s\n", name, res.Reason)
		}
	}
	fmt.Printf("%d passed, %d failed, %d skipped\n", pass, fail, skip)
	if unexpected > 0 {
		return 1
	}
	return 0
}
