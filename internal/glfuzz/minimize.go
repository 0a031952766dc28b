package glfuzz

import "reflect"

// Oracle runs a program and says what it found.
type Oracle func(*Program) Result

// Same reports whether r is the failure want: the same class and
// signature.
func Same(r, want Result) bool { return r.Class == want.Class && r.Sig == want.Sig }

// Minimize shrinks p, which fails as want, to a program that fails the
// same way with as few calls and as simple arguments as it can find in at
// most budget runs: it drops the calls after the failing one, removes
// calls by delta debugging, then simplifies the surface and each
// argument in turn.
func Minimize(p *Program, want Result, run Oracle, budget int) *Program {
	m := &minimizer{run: run, want: want, budget: budget}
	best := p.Clone()
	if want.Call >= 0 && want.Call+1 < len(best.Calls) {
		q := best.Clone()
		q.Calls = q.Calls[:want.Call+1]
		if m.fails(q) {
			best = q
		}
	}
	best = m.ddmin(best)
	best = m.simplifyConfig(best)
	best = m.simplifyArgs(best)
	return best
}

type minimizer struct {
	run    Oracle
	want   Result
	budget int
}

func (m *minimizer) fails(p *Program) bool {
	if m.budget <= 0 {
		return false
	}
	m.budget--
	return Same(m.run(p), m.want)
}

// ddmin removes chunks of calls, halving the chunk size when no chunk
// can go.
func (m *minimizer) ddmin(p *Program) *Program {
	for chunk := max(len(p.Calls)/2, 1); chunk >= 1 && m.budget > 0; {
		removed := false
		for start := 0; start < len(p.Calls) && m.budget > 0; {
			end := min(start+chunk, len(p.Calls))
			q := p.Clone()
			q.Calls = append(q.Calls[:start:start], q.Calls[end:]...)
			if m.fails(q) {
				p, removed = q, true
				continue
			}
			start = end
		}
		if !removed {
			if chunk == 1 {
				break
			}
			chunk /= 2
		}
	}
	return p
}

func (m *minimizer) simplifyConfig(p *Program) *Program {
	try := func(f func(q *Program)) {
		q := p.Clone()
		f(q)
		if !reflect.DeepEqual(q.Config, p.Config) && m.fails(q) {
			p = q
		}
	}
	try(func(q *Program) { q.Config.Workers = 0 })
	try(func(q *Program) { q.Config.MemoryBudget = 0 })
	try(func(q *Program) { q.Config.Format = 0 })
	try(func(q *Program) { q.Config.StencilBits = 0 })
	try(func(q *Program) { q.Config.DepthBits = 0 })
	try(func(q *Program) { q.Config.Width, q.Config.Height = 32, 32 })
	return p
}

// simplifyArgs tries simpler values for every argument, last call first.
func (m *minimizer) simplifyArgs(p *Program) *Program {
	for ci := len(p.Calls) - 1; ci >= 0 && m.budget > 0; ci-- {
		for ai := range p.Calls[ci].Args {
			for _, cand := range simpler(p.Calls[ci].Args[ai]) {
				q := p.Clone()
				q.Calls[ci].Args[ai] = cand
				if m.fails(q) {
					p = q
					break
				}
			}
		}
	}
	return p
}

// simpler lists simpler forms of an argument, simplest first.
func simpler(a Arg) []Arg {
	var out []Arg
	switch {
	case isSlice(a.Type):
		n := a.sliceLen()
		if a.Fill == "" && n > 0 && a.Type != "[]string" {
			z := Arg{Type: a.Type, Len: n, Fill: FillZero}
			out = append(out, z)
		}
		for _, k := range []int{0, 1, n / 2} {
			if k < n {
				out = append(out, truncate(a, k))
			}
		}
	case a.Type == "float32" || a.Type == "float64":
		for _, v := range []float64{0, 1} {
			if a.Float != v {
				out = append(out, Arg{Type: a.Type, Float: v})
			}
		}
	case a.Type == "string":
		if a.Str != "" {
			out = append(out, Arg{Type: "string"})
		}
	case a.Type == "gles.Enum" || a.Type == "nil" || a.Type == "bool":
	default:
		for _, v := range []int64{0, 1} {
			if a.Int != v {
				out = append(out, Arg{Type: a.Type, Int: v})
			}
		}
	}
	return out
}

// truncate returns a slice argument with its first k elements.
func truncate(a Arg, k int) Arg {
	b := Arg{Type: a.Type}
	switch {
	case a.Fill != "":
		b.Fill, b.Len, b.Mod = a.Fill, k, a.Mod
		if k <= 16 && a.Fill == FillZero {
			b.Fill, b.Len = "", 0
			b.Elems = make([]float64, k)
		}
	case a.Type == "[]string":
		b.Strs = append([]string{}, a.Strs[:k]...)
	default:
		b.Elems = append([]float64{}, a.Elems[:k]...)
	}
	return b
}
