package lower

import (
	"fmt"

	"github.com/retrogl/retrogl/compiler/ir"
)

// Preshader splits off the part of a program that depends on constants
// only (uniforms and literals): pre computes it once per draw (a driver
// runs it with ir.Run, in float32 on the CPU) and main reads its results
// as uniform constants named "pre:K" (output K of pre). This is the
// preshader of Direct3D 9 era compilers: uniform-only arithmetic costs no
// fragment instructions and is computed at float32 precision instead of
// the fragment unit's. A program without such arithmetic returns pre nil
// and main unchanged.
//
// Per temporary component the pass tracks whether its current value is
// uniform. An instruction whose read components are all uniform (and that
// is no texture lookup, KIL or output write) moves to pre; when main reads
// a uniform value, pre exports the register at that point (one output per
// register version) and main reads the export instead.
func Preshader(p *ir.Program) (pre, main *ir.Program) {
	n := p.NumTemps()
	uni := make([][4]bool, n)
	for i := range uni {
		uni[i] = [4]bool{true, true, true, true} // unwritten temps read 0
	}
	version := make([]int, n)
	pre = &ir.Program{Stage: ir.Vertex, Consts: append([]ir.ConstVal(nil), p.Consts...)}
	main = p.Clone()
	main.Insts = nil
	type key struct{ reg, ver int }
	exported := map[key]int{}
	export := func(t int) ir.Reg {
		k := key{t, version[t]}
		idx, ok := exported[k]
		if !ok {
			out := len(pre.Outputs)
			pre.Outputs = append(pre.Outputs, ir.Var{Name: fmt.Sprintf("pre:%d", out)})
			pre.Insts = append(pre.Insts, ir.Inst{Op: ir.MOV, Dst: ir.Dst{Reg: ir.Reg{File: ir.Output, Index: out}, Mask: ir.MaskXYZW},
				Src: [3]ir.Src{ir.S(ir.Reg{File: ir.Temp, Index: t})}})
			main.Consts = append(main.Consts, ir.ConstVal{Uniform: pre.Outputs[out].Name})
			idx = len(main.Consts) - 1
			exported[k] = idx
		}
		return ir.Reg{File: ir.Const, Index: idx}
	}
	moved := 0
	for _, in := range p.Insts {
		info := in.Op.Info()
		all := info.Kind != ir.Texture && info.Kind != ir.Kill && in.Dst.File == ir.Temp
		for k := 0; k < info.NumSrc; k++ {
			s := in.Src[k]
			if s.File == ir.Input {
				all = false
			}
			if s.File == ir.Temp {
				ch := in.SrcChannels(k)
				for c := 0; c < 4; c++ {
					if ch.Has(c) && !uni[s.Index][c] {
						all = false
					}
				}
			}
		}
		if all {
			pre.Insts = append(pre.Insts, in)
			moved++
			t := in.Dst.Index
			version[t]++
			for c := 0; c < 4; c++ {
				if in.Dst.Mask.Has(c) {
					uni[t][c] = true
				}
			}
			continue
		}
		// main keeps the instruction: uniform temp reads become exports.
		for k := 0; k < info.NumSrc; k++ {
			s := in.Src[k]
			if s.File != ir.Temp {
				continue
			}
			ch := in.SrcChannels(k)
			var u, nu ir.Mask
			for c := 0; c < 4; c++ {
				if ch.Has(c) {
					if uni[s.Index][c] {
						u |= 1 << c
					} else {
						nu |= 1 << c
					}
				}
			}
			if u == 0 {
				continue
			}
			if nu == 0 {
				in.Src[k].Reg = export(s.Index)
				continue
			}
			// Mixed: materialise the uniform components in main.
			main.Insts = append(main.Insts, ir.Inst{Op: ir.MOV, Dst: ir.Dst{Reg: s.Reg, Mask: u}, Src: [3]ir.Src{ir.S(export(s.Index))}})
			for c := 0; c < 4; c++ {
				if u.Has(c) {
					uni[s.Index][c] = false
				}
			}
		}
		main.Insts = append(main.Insts, in)
		if in.Dst.File == ir.Temp {
			for c := 0; c < 4; c++ {
				if in.WriteMask().Has(c) {
					uni[in.Dst.Index][c] = false
				}
			}
		}
	}
	if moved == 0 {
		return nil, p
	}
	ir.DeadCode(main)
	return pre, main
}
