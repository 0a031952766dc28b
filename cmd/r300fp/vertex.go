package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/retrogl/retrogl/compiler/glsl"
	"github.com/retrogl/retrogl/conform"
	dr "github.com/retrogl/retrogl/driver/r300"
)

// linkTest compiles and links a .shader_test's shaders as the conformance
// runner does.
func linkTest(path string) (*glsl.Program, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	t, err := conform.Parse(filepath.Base(path), f)
	if err != nil {
		return nil, err
	}
	if t.VertexShader == "" || t.FragmentShader == "" {
		return nil, errNoProgram
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
		return nil, err
	}
	fs, err := glsl.Compile(src(t.FragmentShader), glsl.Options{Stage: glsl.StageFragment})
	if err != nil {
		return nil, err
	}
	return glsl.Link(vs, fs, glsl.LinkOptions{})
}

var errNoProgram = fmt.Errorf("no vertex and fragment shader")

// vertexReport compiles every .shader_test under dirs as the r300 driver
// does with TCL and summarises the vertex programs.
func vertexReport(w io.Writer, dirs []string, mesaFile string, cfg compareConfig) error {
	var mesa map[string]map[string]int
	if mesaFile != "" {
		var err error
		if mesa, err = mesaStats(mesaFile); err != nil {
			return err
		}
	}
	files, err := conform.Find(dirs, "")
	if err != nil {
		return err
	}
	var (
		n, pvs, loops, cpu, failed, skipped int
		insts, temps, consts, movs          []int
		shorter, same, longer, mesaN        int
		ours, theirs                        int
		cpuWhy                              = map[string]int{}
	)
	for _, path := range files {
		name := strings.TrimSuffix(filepath.Base(path), ".shader_test")
		if cfg.run != nil && !cfg.run.MatchString(name) {
			continue
		}
		prog, err := linkTest(path)
		if err == errNoProgram {
			skipped++
			continue
		}
		n++
		var log string
		if err == nil {
			_, vp, l, err2 := dr.Programs(prog, true)
			err, log = err2, l
			if err == nil && vp == nil {
				cpu++
				why := strings.TrimSpace(log)
				if i := strings.Index(why, "needs"); i >= 0 {
					why = why[i:]
				}
				cpuWhy[why]++
				if cfg.verbose {
					fmt.Fprintf(w, "%-50s cpu: %s\n", name, strings.TrimSpace(log))
				}
				continue
			}
			if err == nil {
				pvs++
				st := vp.Stats
				if st.Loops > 0 {
					loops++
				}
				insts = append(insts, st.Insts)
				temps = append(temps, st.Temps)
				consts = append(consts, st.Consts)
				movs = append(movs, st.Movs)
				m, ok := mesa[name]
				if ok && m["vs_inst"] > 0 {
					mesaN++
					ours += st.Insts
					theirs += m["vs_inst"]
					switch {
					case st.Insts < m["vs_inst"]:
						shorter++
					case st.Insts == m["vs_inst"]:
						same++
					default:
						longer++
					}
				}
				if cfg.verbose {
					fmt.Fprintf(w, "%-50s insts %3d temps %2d consts %3d movs %2d loops %d", name, st.Insts, st.Temps, st.Consts, st.Movs, st.Loops)
					if ok {
						fmt.Fprintf(w, " mesa %d", m["vs_inst"])
					}
					fmt.Fprintln(w)
				}
				continue
			}
		}
		failed++
		if cfg.verbose {
			fmt.Fprintf(w, "%-50s error: %v\n", name, strings.TrimSpace(err.Error()))
		}
	}
	stat := func(v []int) (float64, int, int) {
		if len(v) == 0 {
			return 0, 0, 0
		}
		s := append([]int(nil), v...)
		sort.Ints(s)
		sum := 0
		for _, x := range s {
			sum += x
		}
		return float64(sum) / float64(len(s)), s[len(s)/2], s[len(s)-1]
	}
	fmt.Fprintf(w, "shader tests %d (without a vertex and fragment shader: %d); link errors %d\n", n, skipped, failed)
	fmt.Fprintf(w, "vertex programs on the PVS %d (with PVS loops %d), on the CPU %d\n", pvs, loops, cpu)
	for why, k := range cpuWhy {
		fmt.Fprintf(w, "  on the CPU, %d: %s\n", k, why)
	}
	for _, r := range []struct {
		label string
		v     []int
	}{{"instructions", insts}, {"temporaries", temps}, {"constants", consts}, {"conflict moves", movs}} {
		a, m, mx := stat(r.v)
		fmt.Fprintf(w, "  %-15s avg %6.2f median %3d max %3d\n", r.label, a, m, mx)
	}
	if mesaN > 0 {
		fmt.Fprintf(w, "against Mesa's vs_inst on %d tests: instructions %d vs %d, shorter/same/longer %d/%d/%d\n", mesaN, ours, theirs, shorter, same, longer)
	}
	return nil
}
