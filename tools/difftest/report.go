package difftest

import (
	"fmt"
	"io"
	"strings"
)

// Tally counts verdicts.
type Tally struct {
	// Judged scenes (not NotJudged), those drawn without a GL error, and
	// those within tolerance.
	Judged, NoError, Pass int
}

func (t *Tally) add(v Verdict) {
	if v == NotJudged {
		return
	}
	t.Judged++
	if v != Failed {
		t.NoError++
	}
	if v == Pass {
		t.Pass++
	}
}

func pct(n, d int) string {
	if d == 0 {
		return "-"
	}
	return fmt.Sprintf("%.1f%%", 100*float64(n)/float64(d))
}

// Report aggregates results per backend and per family.
type Report struct {
	Backends []string
	// Scenes counts every scene, MesaErrors those Mesa could not replay
	// (generator bugs; not judged).
	Scenes, MesaErrors int
	// Total holds a tally per backend; ByFamily one per family and
	// backend.
	Total    map[string]*Tally
	ByFamily map[Family]map[string]*Tally
	// Seeds of every scene per backend and verdict.
	Seeds map[string]map[Verdict][]uint64
}

// NewReport returns an empty report over backends.
func NewReport(backends []string) *Report {
	r := &Report{Backends: backends, Total: map[string]*Tally{}, ByFamily: map[Family]map[string]*Tally{},
		Seeds: map[string]map[Verdict][]uint64{}}
	for _, b := range backends {
		r.Total[b] = &Tally{}
		r.Seeds[b] = map[Verdict][]uint64{}
	}
	return r
}

// Add counts one result (add results in seed order for ordered seed lists).
func (r *Report) Add(res *Result) {
	r.Scenes++
	if res.MesaErr != nil {
		r.MesaErrors++
		return
	}
	fams := res.Scene.Families.List()
	for _, br := range res.Backends {
		r.Total[br.Backend].add(br.Verdict)
		r.Seeds[br.Backend][br.Verdict] = append(r.Seeds[br.Backend][br.Verdict], res.Scene.Seed)
		for _, f := range fams {
			m := r.ByFamily[f]
			if m == nil {
				m = map[string]*Tally{}
				r.ByFamily[f] = m
			}
			t := m[br.Backend]
			if t == nil {
				t = &Tally{}
				m[br.Backend] = t
			}
			t.add(br.Verdict)
		}
	}
}

// WriteSeeds writes, per backend, the seeds of the scenes it failed (an
// error or outside tolerance), for rgldiff -seed N -v.
func (r *Report) WriteSeeds(w io.Writer) {
	for _, b := range r.Backends {
		for _, v := range []Verdict{Failed, Differs} {
			if s := r.Seeds[b][v]; len(s) > 0 {
				fmt.Fprintf(w, "%s %s: %v\n", b, v, s)
			}
		}
	}
}

// WriteTable writes the per-backend table and the per-family table as
// Markdown.
func (r *Report) WriteTable(w io.Writer) {
	fmt.Fprintf(w, "%d scenes", r.Scenes)
	if r.MesaErrors > 0 {
		fmt.Fprintf(w, " (%d not replayed by Mesa: not judged)", r.MesaErrors)
	}
	fmt.Fprintf(w, "\n\n| backend | judged | rendered without error | within tolerance of Mesa |\n|---|---|---|---|\n")
	for _, b := range r.Backends {
		t := r.Total[b]
		fmt.Fprintf(w, "| %s | %d | %s | %s |\n", b, t.Judged, pct(t.NoError, t.Judged), pct(t.Pass, t.Judged))
	}
	fmt.Fprintf(w, "\nPer feature family: scenes whose draws used it; without error / within tolerance.\n\n| family | scenes |")
	for _, b := range r.Backends {
		fmt.Fprintf(w, " %s |", b)
	}
	fmt.Fprintf(w, "\n|---|---|%s\n", strings.Repeat("---|", len(r.Backends)))
	for _, f := range AllFamilies() {
		m := r.ByFamily[f]
		if m == nil {
			continue
		}
		n := 0
		for _, t := range m {
			n = max(n, t.Judged)
		}
		fmt.Fprintf(w, "| %s | %d |", f, n)
		for _, b := range r.Backends {
			t := m[b]
			if t == nil {
				fmt.Fprintf(w, " - |")
				continue
			}
			fmt.Fprintf(w, " %s / %s |", pct(t.NoError, t.Judged), pct(t.Pass, t.Judged))
		}
		fmt.Fprintln(w)
	}
}
