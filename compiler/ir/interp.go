package ir

import "fmt"

// Sampler performs a texture lookup for Run: op is TEX, TXP or TXB and
// coord the swizzled source (the divide of TXP and the bias of TXB are the
// sampler's business).
type Sampler func(unit int, target TexTarget, op Op, coord [4]float32) [4]float32

// Env is what a program reads when it runs.
type Env struct {
	// Inputs holds one value per declared input.
	Inputs [][4]float32
	// Uniforms holds the values of uniform constants by name.
	Uniforms map[string][4]float32
	// Sample performs lookups; nil samples (0, 0, 0, 0).
	Sample Sampler
	// Round rounds every input, constant and result component; nil rounds
	// to float32. Use r300.RoundFP24 to evaluate as the R3xx US does.
	Round Rounder
}

// Result is what a program produced.
type Result struct {
	// Outputs holds one value per declared output; components never
	// written are 0.
	Outputs [][4]float32
	// Written holds the components of each output that were written.
	Written []Mask
	// Killed is set when a KIL discarded the fragment.
	Killed bool
}

func roundF32(x float64) float32 { return float32(x) }

// Run evaluates the program once. It fails only for programs Verify
// rejects or when an input or uniform is missing.
func Run(p *Program, env *Env) (*Result, error) {
	if err := p.Verify(); err != nil {
		return nil, err
	}
	round := env.Round
	if round == nil {
		round = roundF32
	}
	if len(env.Inputs) < len(p.Inputs) {
		return nil, fmt.Errorf("ir: run: %d inputs given, program has %d", len(env.Inputs), len(p.Inputs))
	}
	rv := func(v [4]float32) [4]float32 {
		for i := range v {
			v[i] = round(float64(v[i]))
		}
		return v
	}
	consts := make([][4]float32, len(p.Consts))
	for i, c := range p.Consts {
		v := c.Value
		if c.Uniform != "" {
			u, ok := env.Uniforms[c.Uniform]
			if !ok {
				return nil, fmt.Errorf("ir: run: no value for uniform %q", c.Uniform)
			}
			v = u
		}
		consts[i] = rv(v)
	}
	inputs := make([][4]float32, len(p.Inputs))
	for i := range inputs {
		inputs[i] = rv(env.Inputs[i])
	}
	temps := make([][4]float32, p.NumTemps())
	var a0 [4]int32
	res := &Result{Outputs: make([][4]float32, len(p.Outputs)), Written: make([]Mask, len(p.Outputs))}

	read := func(s Src) [4]float64 {
		var reg [4]float32
		switch s.File {
		case Temp:
			reg = temps[s.Index]
		case Input:
			reg = inputs[s.Index]
		case Const:
			k := s.Index
			if s.Rel {
				k += int(a0[s.RelComp&3])
			}
			if k >= 0 && k < len(consts) {
				reg = consts[k]
			}
		}
		var out [4]float64
		for i, c := range s.Swz {
			var x float64
			switch {
			case c < 4:
				x = float64(reg[c])
			case c == SwzOne:
				x = 1
			}
			if s.Abs && x < 0 {
				x = -x
			}
			if s.Neg {
				x = -x
			}
			out[i] = x
		}
		return out
	}
	ends := loopEnds(p)
	type active struct{ start, left int }
	var loops []active
	steps := 0
	for i := 0; i < len(p.Insts); i++ {
		in := &p.Insts[i]
		info := in.Op.Info()
		var src [3][4]float64
		for k := 0; k < info.NumSrc; k++ {
			src[k] = read(in.Src[k])
		}
		if steps++; steps > maxSteps {
			return nil, fmt.Errorf("ir: run: more than %d instructions executed", maxSteps)
		}
		var val [4]float32
		switch info.Kind {
		case Flow:
			if in.Op == ENDLOOP {
				top := &loops[len(loops)-1]
				if top.left--; top.left > 0 {
					i = top.start
				} else {
					loops = loops[:len(loops)-1]
				}
				continue
			}
			n := loopCount(float32(src[0][0]))
			if n > MaxLoopCount {
				return nil, fmt.Errorf("ir: run: a loop of %d iterations, more than %d", n, MaxLoopCount)
			}
			if n == 0 {
				i = ends[i]
				continue
			}
			loops = append(loops, active{i, n})
			continue
		case Kill:
			for c := 0; c < 4; c++ {
				if src[0][c] < 0 {
					res.Killed = true
				}
			}
			continue
		case Texture:
			var coord [4]float32
			for c := range coord {
				coord[c] = float32(src[0][c])
			}
			if env.Sample != nil {
				val = rv(env.Sample(in.Unit, in.Target, in.Op, coord))
			}
		case Dot:
			a, b := src[0], src[1]
			if in.Op == DPH {
				a[3] = 1
			}
			sum := float64(a[0] * b[0])
			for c := 1; c < info.Width; c++ {
				sum += float64(a[c] * b[c])
			}
			r := round(sum)
			val = [4]float32{r, r, r, r}
		case Scalar:
			r := round(info.Eval(src[0][0], src[1][0], src[2][0], round))
			val = [4]float32{r, r, r, r}
		case CompWise:
			for c := 0; c < 4; c++ {
				if in.Dst.Mask.Has(c) {
					val[c] = round(info.Eval(src[0][c], src[1][c], src[2][c], round))
				}
			}
		}
		if in.Sat {
			for c := range val {
				val[c] = sat(val[c])
			}
		}
		for c := 0; c < 4; c++ {
			if !in.Dst.Mask.Has(c) {
				continue
			}
			switch in.Dst.File {
			case Addr:
				a0[c] = addrValue(val[c])
			case Temp:
				temps[in.Dst.Index][c] = val[c]
			case Output:
				res.Outputs[in.Dst.Index][c] = val[c]
				res.Written[in.Dst.Index] |= 1 << c
			}
		}
	}
	return res, nil
}

// maxSteps bounds the instructions one Run executes.
const maxSteps = 1 << 26

// loopCount is a bgnloop's count: x truncated towards zero, 0 for
// negative values and NaN, saturated beyond MaxLoopCount.
func loopCount(x float32) int {
	switch {
	case !(x > 0):
		return 0
	case x > MaxLoopCount+1:
		return MaxLoopCount + 1
	}
	return int(x)
}

// loopEnds maps each bgnloop to its endloop (the program is verified).
func loopEnds(p *Program) map[int]int {
	ends := map[int]int{}
	var open []int
	for i := range p.Insts {
		switch p.Insts[i].Op {
		case BGNLOOP:
			open = append(open, i)
		case ENDLOOP:
			ends[open[len(open)-1]] = i
			open = open[:len(open)-1]
		}
	}
	return ends
}

// LoopEnds maps each bgnloop of a verified program to its endloop.
func LoopEnds(p *Program) map[int]int { return loopEnds(p) }

// HasLoops reports whether a program has a loop.
func (p *Program) HasLoops() bool {
	for i := range p.Insts {
		if p.Insts[i].Op == BGNLOOP {
			return true
		}
	}
	return false
}

// addrValue converts an ARL result (already floored) to a0: clamped to
// [-32768, 32767], NaN 0.
func addrValue(x float32) int32 {
	switch {
	case x != x:
		return 0
	case x > 32767:
		return 32767
	case x < -32768:
		return -32768
	}
	return int32(x)
}

// sat clamps to [0, 1]; NaN becomes 0.
func sat(x float32) float32 {
	if !(x > 0) {
		return 0
	}
	if x > 1 {
		return 1
	}
	return x
}
