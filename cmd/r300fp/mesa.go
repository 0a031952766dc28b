package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/retrogl/retrogl/compiler/glsl"
	"github.com/retrogl/retrogl/compiler/lower"
	rc "github.com/retrogl/retrogl/compiler/r300"
	"github.com/retrogl/retrogl/conform"
)

// mesaStats reads testdata/conformance/mesa-r300-fs-builtins.txt: per test
// "name OK alu=N tex=N temps=N ... consts=N ...".
func mesaStats(path string) (map[string]map[string]int, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	out := map[string]map[string]int{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fs := strings.Fields(sc.Text())
		if len(fs) < 3 || strings.HasPrefix(fs[0], "#") || fs[1] != "OK" {
			continue
		}
		m := map[string]int{}
		for _, kv := range fs[2:] {
			k, v, ok := strings.Cut(kv, "=")
			if n, err := strconv.Atoi(v); ok && err == nil {
				m[k] = n
			}
		}
		out[fs[0]] = m
	}
	return out, sc.Err()
}

// compileTest compiles a .shader_test's fragment program as the r300
// driver does, with or without the preshader, and returns its statistics.
func compileTest(path string, preshader bool, opts rc.Options) (rc.Stats, error) {
	f, err := os.Open(path)
	if err != nil {
		return rc.Stats{}, err
	}
	defer f.Close()
	t, err := conform.Parse(filepath.Base(path), f)
	if err != nil {
		return rc.Stats{}, err
	}
	v, _ := t.GLSLVersion()
	src := func(s string) string {
		if strings.Contains(s, "#version") || v == 0 {
			return s
		}
		return fmt.Sprintf("#version %d\n#line 0\n%s", v, s)
	}
	vs, err := glsl.Compile(src(t.VertexShader), glsl.Options{Stage: glsl.StageVertex})
	if err != nil {
		return rc.Stats{}, err
	}
	fs, err := glsl.Compile(src(t.FragmentShader), glsl.Options{Stage: glsl.StageFragment})
	if err != nil {
		return rc.Stats{}, err
	}
	prog, err := glsl.Link(vs, fs, glsl.LinkOptions{})
	if err != nil {
		return rc.Stats{}, err
	}
	res, err := lower.Lower(prog, lower.Options{MaxAttribs: 16})
	if err != nil {
		return rc.Stats{}, err
	}
	frag := res.Fragment
	if preshader {
		_, frag = lower.Preshader(frag)
	}
	if opts.Dump != nil {
		opts.Dump("ir", frag.String())
	}
	p, err := rc.Compile(frag, opts)
	if err != nil {
		return rc.Stats{}, err
	}
	return p.Stats, nil
}

// compareConfig selects what compareMesa prints: one line per test,
// only the tests whose names match run, and the passes' output.
type compareConfig struct {
	verbose bool
	run     *regexp.Regexp
	dump    func(pass, text string)
}

// compareMesa compiles every fs-*.shader_test in dir and compares the
// fragment programs with Mesa's r300 compiler's statistics for the same
// tests, without and with the preshader.
func compareMesa(w io.Writer, dir, mesaFile string, cfg compareConfig) error {
	mesa, err := mesaStats(mesaFile)
	if err != nil {
		return err
	}
	files, err := filepath.Glob(filepath.Join(dir, "fs-*.shader_test"))
	if err != nil {
		return err
	}
	if len(files) == 0 {
		return fmt.Errorf("no fs-*.shader_test files in %s", dir)
	}
	type agg struct {
		n, failed, alu, temps, consts, shorter, same, longer int
		alus                                                 []int
	}
	var aggs [2]agg
	var mesaALU, mesaTemps, mesaConsts, mesaN int
	var mesaALUs []int
	for _, path := range files {
		name := strings.TrimSuffix(filepath.Base(path), ".shader_test")
		if cfg.run != nil && !cfg.run.MatchString(name) {
			continue
		}
		m, ok := mesa[name]
		if ok {
			mesaN++
			mesaALU += m["alu"]
			mesaALUs = append(mesaALUs, m["alu"])
			mesaTemps += m["temps"]
			mesaConsts += m["consts"]
		}
		for i, pre := range []bool{false, true} {
			a := &aggs[i]
			var opts rc.Options
			if !pre {
				opts.Dump = cfg.dump
			}
			st, err := compileTest(path, pre, opts)
			if err != nil {
				a.failed++
				fmt.Fprintf(w, "%s: %v\n", name, err)
				continue
			}
			a.n++
			a.alu += st.ALU
			a.temps += st.Temps
			a.consts += st.Consts
			a.alus = append(a.alus, st.ALU)
			if cfg.verbose && !pre {
				fmt.Fprintf(w, "%-40s alu %3d mesa %3d %+3d temps %2d mesa %2d consts %2d mesa %2d\n", name, st.ALU, m["alu"], st.ALU-m["alu"],
					st.Temps, m["temps"], st.Consts, m["consts"])
			}
			if ok {
				switch {
				case st.ALU < m["alu"]:
					a.shorter++
				case st.ALU == m["alu"]:
					a.same++
				default:
					a.longer++
				}
			}
		}
	}
	avg := func(sum, n int) float64 { return float64(sum) / float64(max(n, 1)) }
	fmt.Fprintf(w, "%-22s %8s %8s %8s %8s %8s %s\n", "fragment programs", "compiled", "ALU avg", "ALU med", "temps", "consts", "vs Mesa (ALU shorter/same/longer)")
	sort.Ints(mesaALUs)
	mesaMed := 0
	if len(mesaALUs) > 0 {
		mesaMed = mesaALUs[len(mesaALUs)/2]
	}
	fmt.Fprintf(w, "%-22s %8d %8.2f %8d %8.2f %8.2f\n", "Mesa 23.3.6 r300", mesaN, avg(mesaALU, mesaN), mesaMed, avg(mesaTemps, mesaN), avg(mesaConsts, mesaN))
	for i, label := range []string{"retrogl, FP24 only", "retrogl, preshader"} {
		a := aggs[i]
		sort.Ints(a.alus)
		med := 0
		if len(a.alus) > 0 {
			med = a.alus[len(a.alus)/2]
		}
		fmt.Fprintf(w, "%-22s %8d %8.2f %8d %8.2f %8.2f %d/%d/%d (%d failed)\n", label, a.n, avg(a.alu, a.n), med,
			avg(a.temps, a.n), avg(a.consts, a.n), a.shorter, a.same, a.longer, a.failed)
	}
	return nil
}
