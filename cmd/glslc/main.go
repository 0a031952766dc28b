// Command glslc checks GLSL ES 1.00 (and GLSL 1.10/1.20) shaders with the
// retrogl front end, prints errors or the checked tree, links a vertex and
// a fragment shader, and runs piglit-style compiler tests.
//
//	glslc shader.frag                 check; print diagnostics
//	glslc -tree shader.vert           print the checked tree
//	glslc -link a.vert b.frag         check both and link them
//	glslc -piglit DIR [-expect FILE]  run the compiler tests under DIR
//	glslc -shader-tests DIR           check the shaders of .shader_test files
//
// The stage comes from the file extension (.vert, .frag) unless -stage says
// otherwise; -version sets the version of sources without #version.
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/retrogl/retrogl/compiler/glsl"
	"github.com/retrogl/retrogl/compiler/glsl/conformance"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("glslc", flag.ContinueOnError)
	fs.SetOutput(stderr)
	stage := fs.String("stage", "", "shader stage: vert or frag (default: from the file extension)")
	version := fs.Int("version", 100, "version of sources without #version: 100, 110 or 120")
	tree := fs.Bool("tree", false, "print the checked tree")
	link := fs.Bool("link", false, "link the given vertex and fragment shaders")
	piglit := fs.String("piglit", "", "run the piglit-style compiler tests under this directory")
	shaderTests := fs.String("shader-tests", "", "check that the shaders of the .shader_test files under this directory compile and link")
	expect := fs.String("expect", "", "with -piglit: file of known failures (\"path: reason\" lines)")
	verbose := fs.Bool("v", false, "with -piglit: print every info log")
	appendixA := fs.Bool("appendix-a", false, "enforce GLSL ES 1.00 Appendix A limits as errors")
	exts := fs.String("extensions", "", "comma-separated extensions to support (e.g. GL_OES_standard_derivatives)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: glslc [flags] file...\n       glslc -piglit DIR [-expect FILE]")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return 2
	}
	var extensions []string
	if *exts != "" {
		extensions = strings.Split(*exts, ",")
	}
	copts := conformance.Options{Extensions: extensions, AppendixA: *appendixA}
	if *piglit != "" {
		return runSuite(conformance.RunDir, *piglit, *expect, *verbose, copts, stdout, stderr)
	}
	if *shaderTests != "" {
		return runSuite(conformance.RunShaderTests, *shaderTests, *expect, *verbose, copts, stdout, stderr)
	}
	if fs.NArg() == 0 {
		fs.Usage()
		return 2
	}
	var shaders []*glsl.Shader
	status := 0
	for _, path := range fs.Args() {
		st, err := stageOf(path, *stage)
		if err != nil {
			fmt.Fprintln(stderr, err)
			return 2
		}
		src, err := os.ReadFile(path)
		if err != nil {
			fmt.Fprintln(stderr, err)
			return 2
		}
		sh, err := glsl.Compile(string(src), glsl.Options{Stage: st, Version: *version, Extensions: extensions, AppendixA: *appendixA})
		if err != nil {
			fmt.Fprintf(stdout, "%s:\n%v\n", path, err)
			status = 1
			continue
		}
		for _, w := range sh.Warnings {
			fmt.Fprintf(stdout, "%s: %s\n", path, w)
		}
		if *tree {
			fmt.Fprint(stdout, sh)
		}
		shaders = append(shaders, sh)
	}
	if *link && status == 0 {
		var vs, frag *glsl.Shader
		for _, sh := range shaders {
			if sh.Stage == glsl.StageVertex {
				vs = sh
			} else {
				frag = sh
			}
		}
		prog, err := glsl.Link(vs, frag, glsl.LinkOptions{})
		if err != nil {
			fmt.Fprintf(stdout, "link:\n%v\n", err)
			return 1
		}
		printProgram(stdout, prog)
	}
	return status
}

func stageOf(path, flagStage string) (glsl.Stage, error) {
	s := flagStage
	if s == "" {
		s = strings.TrimPrefix(filepath.Ext(path), ".")
	}
	switch s {
	case "vert", "vs", "vertex":
		return glsl.StageVertex, nil
	case "frag", "fs", "fragment":
		return glsl.StageFragment, nil
	}
	return 0, fmt.Errorf("glslc: cannot tell the stage of %s; use -stage vert|frag", path)
}

func printProgram(w io.Writer, p *glsl.Program) {
	for _, a := range p.Attributes {
		fmt.Fprintf(w, "attribute %d %s %s\n", a.Location, a.Type, a.Name)
	}
	for _, u := range p.Uniforms {
		fmt.Fprintf(w, "uniform %d %s %s size %d\n", u.Location, u.Type, u.Name, u.Size)
	}
	for _, v := range p.Varyings {
		fmt.Fprintf(w, "varying %s %s\n", v.Type, v.Name)
	}
}

func runSuite(runner func(string, conformance.Options) ([]*conformance.Result, error), dir, expectFile string, verbose bool, opts conformance.Options, stdout, stderr io.Writer) int {
	results, err := runner(dir, opts)
	if err != nil {
		fmt.Fprintln(stderr, err)
		return 2
	}
	conformance.Report(stdout, results, verbose)
	if expectFile == "" {
		if conformance.Summarize(results, nil).Wrong > 0 {
			return 1
		}
		return 0
	}
	known, err := conformance.ReadExpectations(expectFile)
	if err != nil {
		fmt.Fprintln(stderr, err)
		return 2
	}
	s := conformance.Summarize(results, known)
	for _, r := range s.Regressions {
		fmt.Fprintf(stdout, "regression: %s\n", r.Path)
	}
	sort.Strings(s.Fixed)
	for _, f := range s.Fixed {
		fmt.Fprintf(stdout, "now right (remove from %s): %s\n", expectFile, f)
	}
	if len(s.Regressions) > 0 || len(s.Fixed) > 0 {
		return 1
	}
	return 0
}
