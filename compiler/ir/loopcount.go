package ir

import "fmt"

// CountPrograms returns, for each bgnloop of p in order, a program that
// computes its count: the instructions the count operand depends on,
// copied out, ending with a move of the count to output 0 ("count").
// Back ends whose loop unit takes its count from a register the driver
// writes (the R3xx PVS, the PICA200's integer uniforms) run these before
// each draw. A count may depend on uniforms and constants only: one read
// from vertex data, or computed inside another loop, is an error.
// Temporaries the copied instructions read before writing are zero, as in
// p.
func CountPrograms(p *Program) ([]*Program, error) {
	ends := LoopEnds(p)
	inLoop := make([]bool, len(p.Insts))
	for b, e := range ends {
		for i := b; i <= e; i++ {
			inLoop[i] = true
		}
	}
	var out []*Program
	for b := range p.Insts {
		in := &p.Insts[b]
		if in.Op != BGNLOOP {
			continue
		}
		n := len(out)
		cp := &Program{Stage: p.Stage, Consts: p.Consts, Outputs: []Var{{Name: "count"}}}
		src := in.Src[0]
		if src.File == Input {
			return nil, fmt.Errorf("loop %d: its count depends on vertex data (the loop unit's count is a register the driver writes)", n)
		}
		need := map[int]Mask{}
		if src.File == Temp {
			need[src.Index] = 1 << src.Swz[0]
		}
		var slice []Inst
		for i := b - 1; i >= 0 && len(need) > 0; i-- {
			w := &p.Insts[i]
			if w.Dst.File != Temp || need[w.Dst.Index]&w.WriteMask() == 0 {
				continue
			}
			if inLoop[i] {
				return nil, fmt.Errorf("loop %d: its count is computed in a loop", n)
			}
			need[w.Dst.Index] &^= w.WriteMask()
			if need[w.Dst.Index] == 0 {
				delete(need, w.Dst.Index)
			}
			slice = append(slice, *w)
			for k := 0; k < w.Op.Info().NumSrc; k++ {
				s := w.Src[k]
				switch s.File {
				case Input:
					return nil, fmt.Errorf("loop %d: its count depends on vertex data (the loop unit's count is a register the driver writes)", n)
				case Temp:
					need[s.Index] |= w.SrcChannels(k)
				}
			}
		}
		for i := len(slice) - 1; i >= 0; i-- {
			cp.Insts = append(cp.Insts, slice[i])
		}
		cp.Insts = append(cp.Insts, Inst{Op: MOV, Dst: Dst{Reg: Reg{File: Output}, Mask: MaskXYZW}, Src: [3]Src{src}})
		if err := cp.Verify(); err != nil {
			return nil, err
		}
		out = append(out, cp)
	}
	return out, nil
}

// LoopCount runs a count program of CountPrograms with the uniforms'
// values and returns the count as bgnloop takes it (truncated towards
// zero, 0 when negative or NaN), at most limit+1.
func LoopCount(count *Program, uniforms map[string][4]float32, limit int) (int, error) {
	r, err := Run(count, &Env{Uniforms: uniforms})
	if err != nil {
		return 0, err
	}
	x := r.Outputs[0][0]
	if !(x > 0) {
		return 0, nil
	}
	return int(min(float64(x), float64(limit+1))), nil
}
