package ir

import (
	"fmt"
	"strconv"
	"strings"
)

// String prints the program in the text form (see the package doc).
func (p *Program) String() string {
	var b strings.Builder
	b.WriteString(p.Stage.String() + "\n")
	for i, v := range p.Inputs {
		fmt.Fprintf(&b, "in v%d %s\n", i, v.Name)
	}
	for i, v := range p.Outputs {
		fmt.Fprintf(&b, "out o%d %s\n", i, v.Name)
	}
	for i, c := range p.Consts {
		if c.Uniform != "" {
			fmt.Fprintf(&b, "uniform c%d %s\n", i, c.Uniform)
			continue
		}
		fmt.Fprintf(&b, "const c%d %s %s %s %s\n", i, ftoa(c.Value[0]), ftoa(c.Value[1]), ftoa(c.Value[2]), ftoa(c.Value[3]))
	}
	for i := range p.Insts {
		b.WriteString(p.Insts[i].String() + "\n")
	}
	return b.String()
}

func ftoa(f float32) string { return strconv.FormatFloat(float64(f), 'g', -1, 32) }

// String returns the source's text: "-|r0.xy|".
func (s Src) String() string {
	t := s.Reg.String() + s.Swz.String()
	if s.Rel {
		t = fmt.Sprintf("%s[a0.%c+%d]%s", filePrefix[s.File], "xyzw"[s.RelComp&3], s.Index, s.Swz.String())
	}
	if s.Abs {
		t = "|" + t + "|"
	}
	if s.Neg {
		t = "-" + t
	}
	return t
}

// String returns the destination's text: "r0.xz".
func (d Dst) String() string { return d.Reg.String() + d.Mask.String() }

// String returns the instruction's text.
func (in *Inst) String() string {
	info := in.Op.Info()
	var b strings.Builder
	b.WriteString(info.Name)
	if in.Sat {
		b.WriteString("_sat")
	}
	var ops []string
	if info.Kind != Kill && info.Kind != Flow {
		ops = append(ops, in.Dst.String())
	}
	for k := 0; k < info.NumSrc; k++ {
		ops = append(ops, in.Src[k].String())
	}
	if info.Kind == Texture {
		ops = append(ops, fmt.Sprintf("s%d", in.Unit))
		switch in.Target {
		case Tex3D:
			ops = append(ops, "3d")
		case TexCube:
			ops = append(ops, "cube")
		}
	}
	if len(ops) > 0 {
		b.WriteString(" " + strings.Join(ops, ", "))
	}
	return b.String()
}

// ParseError is a text-form syntax error.
type ParseError struct {
	Line int
	Msg  string
}

// Error implements error.
func (e *ParseError) Error() string { return fmt.Sprintf("ir: line %d: %s", e.Line, e.Msg) }

// Parse reads a program in the text form. Declarations (in, out, const,
// uniform) must use consecutive indices from 0.
func Parse(text string) (*Program, error) {
	p := &Program{}
	staged := false
	for n, raw := range strings.Split(text, "\n") {
		line := raw
		if i := strings.IndexAny(line, "#;"); i >= 0 {
			line = line[:i]
		}
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		fail := func(format string, args ...any) error {
			return &ParseError{Line: n + 1, Msg: fmt.Sprintf(format, args...)}
		}
		word, rest, _ := strings.Cut(line, " ")
		rest = strings.TrimSpace(rest)
		if !staged {
			switch word {
			case "fragment":
				p.Stage = Fragment
			case "vertex":
				p.Stage = Vertex
			default:
				return nil, fail("program must start with 'fragment' or 'vertex', not %q", word)
			}
			if rest != "" {
				return nil, fail("unexpected %q after %s", rest, word)
			}
			staged = true
			continue
		}
		switch word {
		case "in", "out", "uniform", "const":
			f := strings.Fields(rest)
			file, count := Input, len(p.Inputs)
			switch word {
			case "out":
				file, count = Output, len(p.Outputs)
			case "uniform", "const":
				file, count = Const, len(p.Consts)
			}
			if len(f) < 2 {
				return nil, fail("%s needs a register and a value", word)
			}
			r, err := parseReg(f[0])
			if err != nil || r.File != file || r.Index != count {
				return nil, fail("%s declares %s, want %s", word, f[0], Reg{file, count})
			}
			switch word {
			case "in":
				if len(f) != 2 {
					return nil, fail("in: want 'in vN name'")
				}
				p.Inputs = append(p.Inputs, Var{f[1]})
			case "out":
				if len(f) != 2 {
					return nil, fail("out: want 'out oN name'")
				}
				p.Outputs = append(p.Outputs, Var{f[1]})
			case "uniform":
				if len(f) != 2 {
					return nil, fail("uniform: want 'uniform cN name'")
				}
				p.Consts = append(p.Consts, ConstVal{Uniform: f[1]})
			case "const":
				if len(f) != 5 {
					return nil, fail("const: want four values")
				}
				var v [4]float32
				for i := range v {
					x, err := strconv.ParseFloat(f[i+1], 32)
					if err != nil {
						return nil, fail("const: %v", err)
					}
					v[i] = float32(x)
				}
				p.Consts = append(p.Consts, ConstVal{Value: v})
			}
			continue
		}
		in, err := parseInst(word, rest)
		if err != nil {
			return nil, fail("%v", err)
		}
		p.Insts = append(p.Insts, in)
	}
	if !staged {
		return nil, &ParseError{Line: 1, Msg: "empty program"}
	}
	if err := p.Verify(); err != nil {
		return nil, err
	}
	return p, nil
}

func parseReg(s string) (Reg, error) {
	if len(s) < 2 {
		return Reg{}, fmt.Errorf("bad register %q", s)
	}
	var f File
	switch s[0] {
	case 'r':
		f = Temp
	case 'v':
		f = Input
	case 'c':
		f = Const
	case 'o':
		f = Output
	case 'a':
		f = Addr
	default:
		return Reg{}, fmt.Errorf("bad register %q", s)
	}
	n, err := strconv.Atoi(s[1:])
	if err != nil || n < 0 || n > 1<<16 {
		return Reg{}, fmt.Errorf("bad register %q", s)
	}
	return Reg{f, n}, nil
}

func parseInst(word, rest string) (Inst, error) {
	var in Inst
	name, sat := strings.CutSuffix(word, "_sat")
	op, ok := OpByName(name)
	if !ok {
		return in, fmt.Errorf("unknown opcode %q", word)
	}
	in.Op, in.Sat = op, sat
	info := op.Info()
	var ops []string
	for _, s := range strings.Split(rest, ",") {
		if s = strings.TrimSpace(s); s != "" {
			ops = append(ops, s)
		}
	}
	if info.Kind == Texture && len(ops) >= 3 {
		switch ops[len(ops)-1] {
		case "3d":
			in.Target, ops = Tex3D, ops[:len(ops)-1]
		case "cube":
			in.Target, ops = TexCube, ops[:len(ops)-1]
		case "2d":
			ops = ops[:len(ops)-1]
		}
	}
	want := info.NumSrc
	if info.Kind != Kill && info.Kind != Flow {
		want++
	}
	if info.Kind == Texture {
		want++
	}
	if len(ops) != want {
		return in, fmt.Errorf("%s takes %d operands, got %d", name, want, len(ops))
	}
	if info.Kind != Kill && info.Kind != Flow {
		d, err := parseDst(ops[0])
		if err != nil {
			return in, err
		}
		in.Dst, ops = d, ops[1:]
	}
	for k := 0; k < info.NumSrc; k++ {
		s, err := parseSrc(ops[k])
		if err != nil {
			return in, err
		}
		in.Src[k] = s
	}
	if info.Kind == Texture {
		u := ops[len(ops)-1]
		n, err := strconv.Atoi(strings.TrimPrefix(u, "s"))
		if !strings.HasPrefix(u, "s") || err != nil || n < 0 || n > 31 {
			return in, fmt.Errorf("bad sampler %q", u)
		}
		in.Unit = n
	}
	return in, nil
}

func parseDst(s string) (Dst, error) {
	name, mask, hasMask := strings.Cut(s, ".")
	r, err := parseReg(name)
	if err != nil {
		return Dst{}, err
	}
	d := Dst{Reg: r, Mask: MaskXYZW}
	if hasMask {
		d.Mask = 0
		last := -1
		for _, ch := range mask {
			c := strings.IndexRune("xyzw", ch)
			if c <= last {
				return Dst{}, fmt.Errorf("bad write mask %q", mask)
			}
			last = c
			d.Mask |= 1 << c
		}
		if d.Mask == 0 {
			return Dst{}, fmt.Errorf("empty write mask in %q", s)
		}
	}
	return d, nil
}

func parseSrc(s string) (Src, error) {
	var out Src
	t := s
	if strings.HasPrefix(t, "-") {
		out.Neg, t = true, t[1:]
	}
	if strings.HasPrefix(t, "|") {
		if !strings.HasSuffix(t, "|") || len(t) < 3 {
			return out, fmt.Errorf("bad absolute value %q", s)
		}
		out.Abs, t = true, t[1:len(t)-1]
	}
	var r Reg
	var swz string
	var hasSwz bool
	if rest, ok := strings.CutPrefix(t, "c[a0."); ok {
		// A relative constant: c[a0.x+N].
		inner, after, ok := strings.Cut(rest, "]")
		comp, off, ok2 := strings.Cut(inner, "+")
		n, err := strconv.Atoi(off)
		c := strings.Index("xyzw", comp)
		if !ok || !ok2 || err != nil || len(comp) != 1 || c < 0 || n < 0 || n > 1<<16 {
			return out, fmt.Errorf("bad relative constant %q", s)
		}
		r, out.Rel, out.RelComp = Reg{Const, n}, true, uint8(c)
		if after != "" {
			if !strings.HasPrefix(after, ".") {
				return out, fmt.Errorf("bad relative constant %q", s)
			}
			swz, hasSwz = after[1:], true
		}
	} else {
		var name string
		name, swz, hasSwz = strings.Cut(t, ".")
		var err error
		if r, err = parseReg(name); err != nil {
			return out, err
		}
	}
	out.Reg, out.Swz = r, Identity
	if hasSwz {
		if len(swz) < 1 || len(swz) > 4 {
			return out, fmt.Errorf("bad swizzle %q", swz)
		}
		for i := 0; i < 4; i++ {
			ch := swz[min(i, len(swz)-1)]
			c := strings.IndexByte("xyzw01", ch)
			if c < 0 {
				return out, fmt.Errorf("bad swizzle %q", swz)
			}
			out.Swz[i] = uint8(c)
		}
	}
	return out, nil
}

// Verify checks that every register an instruction names exists, that
// sources are readable and destinations writable, and that texture units
// and masks are in range.
func (p *Program) Verify() error {
	depth := 0
	for i := range p.Insts {
		in := &p.Insts[i]
		fail := func(format string, args ...any) error {
			return fmt.Errorf("ir: instruction %d (%s): %s", i, in.String(), fmt.Sprintf(format, args...))
		}
		info := in.Op.Info()
		if in.Op >= numOps {
			return fail("unknown opcode %d", in.Op)
		}
		if in.Op == ARL && in.Dst.File != Addr {
			return fail("arl writes a0")
		}
		switch in.Op {
		case BGNLOOP:
			depth++
		case ENDLOOP:
			if depth--; depth < 0 {
				return fail("endloop without bgnloop")
			}
		}
		if info.Kind != Kill && info.Kind != Flow {
			switch in.Dst.File {
			case Temp:
			case Addr:
				if in.Op != ARL || in.Dst.Index != 0 {
					return fail("only arl writes a0")
				}
			case Output:
				if in.Dst.Index >= len(p.Outputs) {
					return fail("output %s is not declared", in.Dst.Reg)
				}
			default:
				return fail("cannot write %s", in.Dst.Reg)
			}
			if in.Dst.Mask == 0 || in.Dst.Mask > MaskXYZW {
				return fail("bad write mask %#x", in.Dst.Mask)
			}
		}
		for k := 0; k < info.NumSrc; k++ {
			s := in.Src[k]
			switch s.File {
			case Temp:
			case Input:
				if s.Index >= len(p.Inputs) {
					return fail("input %s is not declared", s.Reg)
				}
			case Const:
				if s.Index >= len(p.Consts) && !s.Rel {
					return fail("constant %s is not declared", s.Reg)
				}
				if s.Rel && s.RelComp > 3 {
					return fail("bad address component %d", s.RelComp)
				}
			default:
				return fail("cannot read %s", s.Reg)
			}
			if s.Rel && s.File != Const {
				return fail("only constants are read relatively")
			}
			for _, c := range s.Swz {
				if c > SwzOne {
					return fail("bad swizzle selector %d", c)
				}
			}
		}
		if info.Kind == Texture && (in.Unit < 0 || in.Unit > 31) {
			return fail("bad texture unit %d", in.Unit)
		}
	}
	if depth != 0 {
		return fmt.Errorf("ir: %d bgnloop without endloop", depth)
	}
	return nil
}
