// Command r300fp compiles fragment programs in the compiler/ir text form
// for the R3xx fragment unit and prints, per program, its statistics (ALU
// and TEX instructions, temporaries, indirection levels, constants,
// pre-subtracts and output modifiers used) and the disassembly of the
// emitted microcode.
//
// Usage:
//
//	r300fp [-stats] [-noopt] [-dump pass] file.ir...
//	r300fp < file.ir
//	r300fp -shader-tests DIR -mesa testdata/conformance/mesa-r300-fs-builtins.txt [-v] [-run regexp] [-dump pass]
//
// The last form compiles the fragment shader of every fs-*.shader_test in
// DIR (piglit's generated built-in tests) as the r300 driver does, with
// and without the preshader, and compares the programs' sizes with Mesa's
// r300 compiler on the same tests.
//
// -dump prints the program after the named pass (or "all"). A program
// that does not fit the unit reports the limit it exceeds and the command
// exits with status 1.
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"regexp"
	"strings"

	"github.com/retrogl/retrogl/compiler/ir"
	rc "github.com/retrogl/retrogl/compiler/r300"
)

func main() {
	stats := flag.Bool("stats", false, "print only the statistics line")
	noopt := flag.Bool("noopt", false, "skip the optional passes")
	dump := flag.String("dump", "", `print the program after this pass ("all" for every pass)`)
	tests := flag.String("shader-tests", "", "compile every fs-*.shader_test in this directory and compare with -mesa")
	verbose := flag.Bool("v", false, "with -shader-tests: one line per test (ALU, temps, consts against Mesa's)")
	run := flag.String("run", "", "with -shader-tests: only the tests whose names match this regular expression")
	mesa := flag.String("mesa", "", "Mesa r300 statistics file (testdata/conformance/mesa-r300-fs-builtins.txt) for -shader-tests")
	flag.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: r300fp [-stats] [-noopt] [-dump pass] [file.ir...]")
		flag.PrintDefaults()
	}
	flag.Parse()
	if *tests != "" {
		cfg := compareConfig{verbose: *verbose}
		if *run != "" {
			re, err := regexp.Compile(*run)
			if err != nil {
				fmt.Fprintln(os.Stderr, "r300fp: -run:", err)
				os.Exit(2)
			}
			cfg.run = re
		}
		if *dump != "" {
			cfg.dump = func(pass, text string) {
				if *dump == "all" || *dump == pass {
					fmt.Fprintf(os.Stdout, "; ---- after %s\n%s", pass, text)
				}
			}
		}
		if err := compareMesa(os.Stdout, *tests, *mesa, cfg); err != nil {
			fmt.Fprintln(os.Stderr, "r300fp:", err)
			os.Exit(1)
		}
		return
	}
	files := flag.Args()
	if len(files) == 0 {
		files = []string{"-"}
	}
	failed := false
	for _, f := range files {
		if err := compileFile(os.Stdout, f, *stats, *noopt, *dump); err != nil {
			fmt.Fprintf(os.Stderr, "%s: %v\n", f, err)
			failed = true
		}
	}
	if failed {
		os.Exit(1)
	}
}

func compileFile(w io.Writer, name string, statsOnly, noopt bool, dump string) error {
	var src []byte
	var err error
	if name == "-" {
		src, err = io.ReadAll(os.Stdin)
	} else {
		src, err = os.ReadFile(name)
	}
	if err != nil {
		return err
	}
	p, err := ir.Parse(string(src))
	if err != nil {
		return err
	}
	opts := rc.Options{NoOpt: noopt}
	if dump != "" {
		opts.Dump = func(pass, text string) {
			if dump == "all" || dump == pass {
				fmt.Fprintf(w, "; ---- after %s\n%s", pass, text)
			}
		}
	}
	prog, err := rc.Compile(p, opts)
	if err != nil {
		return err
	}
	lines := prog.Disassemble()
	fmt.Fprintf(w, "%s: %s\n", name, strings.TrimPrefix(lines[0], "; "))
	if !statsOnly {
		for _, l := range lines[1:] {
			fmt.Fprintln(w, l)
		}
	}
	return nil
}
