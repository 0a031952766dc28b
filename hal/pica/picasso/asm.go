// Package picasso is an assembler and disassembler for PICA200 shaders in
// the syntax of the public picasso assembler used by 3DS homebrew: `;`
// comments, `.proc name` ... `.end`, `.out name property`, `.alias`,
// `.fvec`/`.ivec`/`.bool` uniforms, `.constf`/`.consti`/`.setb`
// constants, instructions such as `dp4 outpos.x, proj[0], r0`, and the
// structured flow control `ifu b0` / `ifc cmp.x` ... `.else` ... `.end`,
// `loop i0` ... `.end`. It produces a hal/pica ShaderBinary (SHBIN), and
// Disassemble writes a text form that assembles back to the same binary.
//
// The syntax facts are from picasso's public manual (as an outside
// reference); the encoding is hal/pica's. Where the two source operands of
// a format-1 instruction are given in the order the hardware cannot
// encode (a uniform as the second source), the assembler swaps commutative
// operands or uses the inverted opcodes (DPHI, DSTI, SGEI, SLTI), and MAD
// becomes MADI, as picasso does.
package picasso

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	p "github.com/retrogl/retrogl/hal/pica"
)

// Error is an assembly error with its line.
type Error struct {
	Line int
	Msg  string
}

func (e *Error) Error() string { return fmt.Sprintf("line %d: %s", e.Line, e.Msg) }

type operand struct {
	reg    uint8 // 7-bit source numbering, or destination numbering
	isDst  bool
	swz    string
	neg    bool
	idx    uint8
	kind   byte // 'v', 'r', 'c', 'o', 'i', 'b', 'a' (a0), 'L' (aL)
	comp   string
	static int
}

type fixup struct {
	at    int
	label string
	line  int
	kind  int // 0 dest = label, 1 dest,num = proc
}

type block struct {
	kind   string // "if", "loop"
	at     int    // instruction index
	elseAt int    // -1 without else
	line   int
}

type assembler struct {
	code    []uint32
	descs   []uint32
	aliases map[string]operand
	labels  map[string]int
	procs   map[string][2]int // start, end (exclusive)
	fixups  []fixup
	blocks  []block
	outs    []p.ShaderOutput
	consts  []p.ShaderConst
	unis    []p.ShaderUniform
	nextC   int
	nextI   int
	nextB   int
	usedO   uint16
	proc    string
	procAt  int
	entry   int
	endMain int
	line    int
}

// Assemble assembles picasso source into a shader binary with one vertex
// executable whose entry point is the procedure "main" (or the .entry
// address).
func Assemble(src string) (*p.ShaderBinary, error) {
	a := &assembler{aliases: map[string]operand{}, labels: map[string]int{}, procs: map[string][2]int{}, entry: -1}
	for i, raw := range strings.Split(src, "\n") {
		a.line = i + 1
		line := raw
		if k := strings.IndexByte(line, ';'); k >= 0 {
			line = line[:k]
		}
		line = strings.TrimSpace(line)
		for {
			k := strings.IndexByte(line, ':')
			if k <= 0 || strings.ContainsAny(line[:k], " \t,") {
				break
			}
			a.labels[line[:k]] = len(a.code)
			line = strings.TrimSpace(line[k+1:])
		}
		if line == "" {
			continue
		}
		if err := a.statement(line); err != nil {
			return nil, &Error{a.line, err.Error()}
		}
	}
	if len(a.blocks) > 0 {
		return nil, &Error{a.blocks[len(a.blocks)-1].line, "block without .end"}
	}
	if a.proc != "" {
		return nil, &Error{a.line, fmt.Sprintf(".proc %s without .end", a.proc)}
	}
	for _, f := range a.fixups {
		if f.kind == 1 {
			pr, ok := a.procs[f.label]
			if !ok {
				return nil, &Error{f.line, fmt.Sprintf("unknown procedure %q", f.label)}
			}
			in := p.DecodeInsn(a.code[f.at])
			in.Dest, in.Num = uint16(pr[0]), uint8(pr[1]-pr[0])
			a.code[f.at] = in.Encode()
			continue
		}
		l, ok := a.labels[f.label]
		if !ok {
			return nil, &Error{f.line, fmt.Sprintf("unknown label %q", f.label)}
		}
		in := p.DecodeInsn(a.code[f.at])
		in.Dest = uint16(l)
		a.code[f.at] = in.Encode()
	}
	entry, end := a.entry, len(a.code)
	if pr, ok := a.procs["main"]; ok && entry < 0 {
		entry, end = pr[0], pr[1]
	}
	if entry < 0 {
		entry = 0
	}
	if a.entry >= 0 && a.endMain >= 0 {
		end = a.endMain
	}
	if len(a.code) > 4096 {
		return nil, &Error{a.line, fmt.Sprintf("%d instructions (at most 4096)", len(a.code))}
	}
	return &p.ShaderBinary{Code: a.code, Opdescs: a.descs, Executables: []p.Executable{{
		Main: uint32(entry), EndMain: uint32(end), Consts: a.consts, Outputs: a.outs, Uniforms: a.unis,
	}}}, nil
}

func splitArgs(s string) []string {
	var out []string
	depth := 0
	start := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '(', '[':
			depth++
		case ')', ']':
			depth--
		case ',':
			if depth == 0 {
				out = append(out, strings.TrimSpace(s[start:i]))
				start = i + 1
			}
		}
	}
	if t := strings.TrimSpace(s[start:]); t != "" || len(out) > 0 {
		out = append(out, t)
	}
	return out
}

// isIdent reports whether s is a name: a letter or _ then letters, digits
// or _.
func isIdent(s string) bool {
	if s == "" {
		return false
	}
	for i, c := range s {
		letter := c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')
		if !letter && (i == 0 || c < '0' || c > '9') {
			return false
		}
	}
	return true
}

func parseInt(s string) (int, error) {
	v, err := strconv.ParseInt(strings.TrimSpace(s), 0, 32)
	return int(v), err
}

var outProps = map[string]uint16{"position": 0, "normalquat": 1, "color": 2, "texcoord0": 3, "texcoord0w": 4,
	"texcoord1": 5, "texcoord2": 6, "view": 8, "dummy": 9}

func (a *assembler) statement(line string) error {
	op, rest := line, ""
	if k := strings.IndexAny(line, " \t"); k >= 0 {
		op, rest = line[:k], strings.TrimSpace(line[k:])
	}
	op = strings.ToLower(op)
	if strings.HasPrefix(op, ".") {
		return a.directive(op, rest)
	}
	return a.instruction(op, rest)
}

func (a *assembler) directive(op, rest string) error {
	fields := strings.Fields(rest)
	switch op {
	case ".proc":
		if len(fields) != 1 || !isIdent(fields[0]) {
			return fmt.Errorf(".proc needs a name")
		}
		if a.proc != "" {
			return fmt.Errorf("nested .proc")
		}
		a.proc, a.procAt = fields[0], len(a.code)
	case ".else":
		if len(a.blocks) == 0 || a.blocks[len(a.blocks)-1].kind != "if" || a.blocks[len(a.blocks)-1].elseAt >= 0 {
			return fmt.Errorf(".else outside an if block")
		}
		a.blocks[len(a.blocks)-1].elseAt = len(a.code)
	case ".end":
		if len(a.blocks) > 0 {
			b := a.blocks[len(a.blocks)-1]
			a.blocks = a.blocks[:len(a.blocks)-1]
			in := p.DecodeInsn(a.code[b.at])
			switch b.kind {
			case "loop":
				if len(a.code) == b.at+1 {
					return fmt.Errorf("empty loop")
				}
				in.Dest = uint16(len(a.code) - 1)
			case "if":
				if b.elseAt >= 0 {
					in.Dest, in.Num = uint16(b.elseAt), uint8(len(a.code)-b.elseAt)
				} else {
					in.Dest, in.Num = uint16(len(a.code)), 0
				}
			}
			a.code[b.at] = in.Encode()
			return nil
		}
		if a.proc == "" {
			return fmt.Errorf(".end without a block or .proc")
		}
		a.procs[a.proc] = [2]int{a.procAt, len(a.code)}
		a.proc = ""
	case ".entry":
		if len(fields) < 1 || len(fields) > 2 {
			return fmt.Errorf(".entry needs an address and optionally the end of main")
		}
		v, err := parseInt(fields[0])
		if err != nil {
			return fmt.Errorf(".entry: %v", err)
		}
		a.entry, a.endMain = v, -1
		if len(fields) == 2 {
			if a.endMain, err = parseInt(fields[1]); err != nil {
				return fmt.Errorf(".entry: %v", err)
			}
		}
	case ".alias":
		if len(fields) != 2 || !isIdent(fields[0]) {
			return fmt.Errorf(".alias needs a name and a register")
		}
		o, err := a.operand(fields[1])
		if err != nil {
			return err
		}
		a.aliases[fields[0]] = o
	case ".out":
		if len(fields) < 2 || len(fields) > 3 {
			return fmt.Errorf(".out needs a name, a property and optionally a register")
		}
		prop, mask := fields[1], "xyzw"
		if k := strings.IndexByte(prop, '.'); k >= 0 {
			prop, mask = prop[:k], prop[k+1:]
		}
		t, ok := outProps[prop]
		if !ok {
			return fmt.Errorf("unknown output property %q", prop)
		}
		reg := -1
		if len(fields) == 3 {
			o, err := a.operand(fields[2])
			if err != nil || o.kind != 'o' {
				return fmt.Errorf("bad output register %q", fields[2])
			}
			reg = int(o.reg)
		} else {
			for r := 0; r < 16; r++ {
				if a.usedO>>uint(r)&1 == 0 {
					reg = r
					break
				}
			}
		}
		if reg < 0 {
			return fmt.Errorf("no free output register")
		}
		a.usedO |= 1 << uint(reg)
		var m uint8
		for _, c := range mask {
			k := strings.IndexRune("xyzw", c)
			if k < 0 {
				return fmt.Errorf("bad output mask %q", mask)
			}
			m |= 1 << uint(k)
		}
		a.outs = append(a.outs, p.ShaderOutput{Type: t, Reg: uint16(reg), Mask: m})
		if fields[0] != "-" {
			if !isIdent(fields[0]) {
				return fmt.Errorf("bad output name %q", fields[0])
			}
			a.aliases[fields[0]] = operand{reg: uint8(reg), isDst: true, kind: 'o'}
		}
	case ".fvec", ".ivec", ".bool":
		for _, f := range splitArgs(rest) {
			name, n := f, 1
			if k := strings.IndexByte(f, '['); k >= 0 && strings.HasSuffix(f, "]") {
				v, err := parseInt(f[k+1 : len(f)-1])
				if err != nil || v < 1 {
					return fmt.Errorf("bad array size in %q", f)
				}
				name, n = f[:k], v
			}
			if !isIdent(name) {
				return fmt.Errorf("bad uniform name %q", name)
			}
			var o operand
			var first uint16
			switch op {
			case ".fvec":
				if a.nextC+n > 96 {
					return fmt.Errorf("out of float uniforms")
				}
				o = operand{reg: uint8(0x20 + a.nextC), kind: 'c'}
				first = uint16(0x10 + a.nextC)
				a.nextC += n
			case ".ivec":
				if a.nextI+n > 4 {
					return fmt.Errorf("out of int uniforms")
				}
				o = operand{reg: uint8(a.nextI), kind: 'i'}
				first = uint16(0x70 + a.nextI)
				a.nextI += n
			default:
				if a.nextB+n > 16 {
					return fmt.Errorf("out of bool uniforms")
				}
				o = operand{reg: uint8(a.nextB), kind: 'b'}
				first = uint16(0x78 + a.nextB)
				a.nextB += n
			}
			a.aliases[name] = o
			a.unis = append(a.unis, p.ShaderUniform{Name: name, First: first, Last: first + uint16(n) - 1})
		}
	case ".constf", ".consti":
		k := strings.IndexByte(rest, '(')
		if k < 0 || !strings.HasSuffix(rest, ")") {
			return fmt.Errorf("%s needs name(x, y, z, w)", op)
		}
		name := strings.TrimSpace(rest[:k])
		if !isIdent(name) {
			return fmt.Errorf("bad constant name %q", name)
		}
		vals := splitArgs(rest[k+1 : len(rest)-1])
		if len(vals) != 4 {
			return fmt.Errorf("%s needs four values", op)
		}
		var o operand
		var c p.ShaderConst
		if existing, err := a.operand(name); err == nil && (existing.kind == 'c' || existing.kind == 'i') {
			o = existing
		} else if op == ".constf" {
			if a.nextC >= 96 {
				return fmt.Errorf("out of float uniforms")
			}
			o = operand{reg: uint8(0x20 + a.nextC), kind: 'c'}
			a.nextC++
		} else {
			if a.nextI >= 4 {
				return fmt.Errorf("out of int uniforms")
			}
			o = operand{reg: uint8(a.nextI), kind: 'i'}
			a.nextI++
		}
		if op == ".constf" {
			c = p.ShaderConst{Type: 2, ID: uint16(o.reg - 0x20)}
			for i, s := range vals {
				f, err := strconv.ParseFloat(s, 32)
				if err != nil {
					return fmt.Errorf("bad float %q", s)
				}
				c.Data[i] = p.ToF24(float32(f))
			}
		} else {
			c = p.ShaderConst{Type: 1, ID: uint16(o.reg)}
			for i, s := range vals {
				v, err := parseInt(s)
				if err != nil || v < -128 || v > 255 {
					return fmt.Errorf("bad integer %q", s)
				}
				c.Data[0] |= uint32(uint8(v)) << (8 * uint(i))
			}
		}
		a.consts = append(a.consts, c)
		if !strings.HasPrefix(name, "c") && !strings.HasPrefix(name, "i") || len(name) > 3 {
			a.aliases[name] = o
		} else if _, err := parseInt(name[1:]); err != nil {
			a.aliases[name] = o
		}
	case ".setb":
		if len(fields) != 2 {
			return fmt.Errorf(".setb needs a register and a value")
		}
		o, err := a.operand(fields[0])
		if err != nil || o.kind != 'b' {
			return fmt.Errorf("bad bool register %q", fields[0])
		}
		v := uint32(0)
		if fields[1] == "true" || fields[1] == "1" {
			v = 1
		}
		a.consts = append(a.consts, p.ShaderConst{Type: 0, ID: uint16(o.reg), Data: [4]uint32{v}})
	case ".uniform":
		// Raw uniform table entry (disassembler output): name first last.
		if len(fields) != 3 {
			return fmt.Errorf(".uniform needs a name and two register numbers")
		}
		f, err1 := parseInt(fields[1])
		l, err2 := parseInt(fields[2])
		if err1 != nil || err2 != nil {
			return fmt.Errorf("bad .uniform registers")
		}
		a.unis = append(a.unis, p.ShaderUniform{Name: fields[0], First: uint16(f), Last: uint16(l)})
	case ".word":
		v, err := strconv.ParseUint(rest, 0, 32)
		if err != nil {
			return fmt.Errorf(".word: %v", err)
		}
		a.code = append(a.code, uint32(v))
	case ".desc":
		// Raw descriptor table entry (disassembler output).
		v, err := strconv.ParseUint(rest, 0, 32)
		if err != nil {
			return fmt.Errorf(".desc: %v", err)
		}
		a.descs = append(a.descs, uint32(v))
	default:
		return fmt.Errorf("unknown directive %s", op)
	}
	return nil
}

// operand parses a register reference: [-]name[index][.swizzle].
func (a *assembler) operand(s string) (operand, error) {
	var o operand
	s = strings.TrimSpace(s)
	if strings.HasPrefix(s, "-") {
		o.neg = true
		s = strings.TrimSpace(s[1:])
	}
	index := ""
	if k := strings.IndexByte(s, '['); k >= 0 {
		e := strings.IndexByte(s, ']')
		if e < k {
			return o, fmt.Errorf("bad index in %q", s)
		}
		index = s[k+1 : e]
		s = s[:k] + s[e+1:]
	}
	name, swz := s, ""
	if k := strings.IndexByte(s, '.'); k >= 0 {
		name, swz = s[:k], s[k+1:]
	}
	if al, ok := a.aliases[name]; ok {
		neg := o.neg
		o = al
		o.neg = o.neg != neg
		if swz != "" {
			if o.swz != "" {
				// Compose the alias swizzle with this one.
				var b strings.Builder
				for _, c := range swz {
					k := strings.IndexRune("xyzw", c)
					if k < 0 || k >= len(o.swz) {
						return o, fmt.Errorf("bad swizzle %q", swz)
					}
					b.WriteByte(o.swz[k])
				}
				swz = b.String()
			}
			o.swz = swz
		}
	} else {
		if name == "" {
			return o, fmt.Errorf("missing register")
		}
		if name == "aL" || name == "al" {
			o.kind = 'L'
		} else if name == "a0" {
			o.kind = 'a'
			o.comp = swz
			return o, nil
		} else {
			n, err := strconv.Atoi(name[1:])
			if err != nil {
				return o, fmt.Errorf("unknown register or alias %q", name)
			}
			switch name[0] {
			case 'v':
				if n > 15 {
					return o, fmt.Errorf("no register %s", name)
				}
				o.reg, o.kind = uint8(n), 'v'
			case 'r':
				if n > 15 {
					return o, fmt.Errorf("no register %s", name)
				}
				o.reg, o.kind = uint8(0x10+n), 'r'
			case 'c':
				if n > 95 {
					return o, fmt.Errorf("no register %s", name)
				}
				o.reg, o.kind = uint8(0x20+n), 'c'
			case 'o':
				if n > 15 {
					return o, fmt.Errorf("no register %s", name)
				}
				o.reg, o.kind, o.isDst = uint8(n), 'o', true
			case 'i':
				if n > 3 {
					return o, fmt.Errorf("no register %s", name)
				}
				o.reg, o.kind = uint8(n), 'i'
			case 'b':
				if n > 15 {
					return o, fmt.Errorf("no register %s", name)
				}
				o.reg, o.kind = uint8(n), 'b'
			default:
				return o, fmt.Errorf("unknown register or alias %q", name)
			}
		}
		o.swz = swz
	}
	if index != "" {
		for _, part := range strings.Split(index, "+") {
			part = strings.TrimSpace(part)
			switch part {
			case "a0.x":
				o.idx = 1
			case "a0.y":
				o.idx = 2
			case "aL", "al":
				o.idx = 3
			default:
				v, err := parseInt(part)
				if err != nil {
					return o, fmt.Errorf("bad index %q", part)
				}
				o.static += v
			}
		}
		if o.kind != 'c' && o.static != 0 {
			return o, fmt.Errorf("index on a non-uniform register")
		}
		if o.kind == 'c' {
			r := int(o.reg) + o.static
			if r < 0x20 || r > 0x7F {
				return o, fmt.Errorf("uniform index out of range")
			}
			o.reg = uint8(r)
			o.static = 0
		}
	}
	return o, nil
}

// desc returns the index of a descriptor, adding it to the table.
func (a *assembler) desc(d uint32, max int) (uint8, error) {
	for i, x := range a.descs {
		if x == d && i < max {
			return uint8(i), nil
		}
	}
	if len(a.descs) >= max {
		return 0, fmt.Errorf("operand descriptor table full (%d entries reachable)", max)
	}
	a.descs = append(a.descs, d)
	return uint8(len(a.descs) - 1), nil
}

func swzSel(s string) (uint32, error) {
	if s == "" {
		return 0x1B, nil
	}
	if len(s) > 4 {
		return 0, fmt.Errorf("bad swizzle %q", s)
	}
	var sel uint32
	for i := 0; i < 4; i++ {
		c := strings.IndexByte("xyzw", s[min(i, len(s)-1)])
		if c < 0 {
			return 0, fmt.Errorf("bad swizzle %q", s)
		}
		sel |= uint32(c) << (6 - 2*uint(i))
	}
	return sel, nil
}

func maskBits(s string) (uint32, error) {
	if s == "" {
		return 0xF, nil
	}
	var m uint32
	last := -1
	for i := 0; i < len(s); i++ {
		c := strings.IndexByte("xyzw", s[i])
		if c < 0 || c <= last {
			return 0, fmt.Errorf("bad write mask %q", s)
		}
		last = c
		m |= 8 >> uint(c)
	}
	return m, nil
}

func isSrc(o operand) bool { return o.kind == 'v' || o.kind == 'r' || o.kind == 'c' }

func (a *assembler) makeDesc(mask string, srcs []operand, maxIdx int) (uint8, error) {
	m, err := maskBits(mask)
	if err != nil {
		return 0, err
	}
	d := m
	for k := 0; k < 3; k++ {
		sel := uint32(0x1B)
		neg := false
		if k < len(srcs) {
			if sel, err = swzSel(srcs[k].swz); err != nil {
				return 0, err
			}
			neg = srcs[k].neg
		}
		d |= sel << (5 + 9*uint(k))
		if neg {
			d |= 1 << (4 + 9*uint(k))
		}
	}
	return a.desc(d, maxIdx)
}

var twoSrc = map[string]p.Opcode{"add": p.OpADD, "dp3": p.OpDP3, "dp4": p.OpDP4, "dph": p.OpDPH, "dst": p.OpDST,
	"mul": p.OpMUL, "sge": p.OpSGE, "slt": p.OpSLT, "max": p.OpMAX, "min": p.OpMIN,
	"dphi": p.OpDPHI, "dsti": p.OpDSTI, "sgei": p.OpSGEI, "slti": p.OpSLTI}
var oneSrc = map[string]p.Opcode{"ex2": p.OpEX2, "lg2": p.OpLG2, "litp": p.OpLITP, "flr": p.OpFLR, "rcp": p.OpRCP,
	"rsq": p.OpRSQ, "mov": p.OpMOV}
var commutative = map[p.Opcode]bool{p.OpADD: true, p.OpDP3: true, p.OpDP4: true, p.OpMUL: true, p.OpMAX: true, p.OpMIN: true}
var inverted = map[p.Opcode]p.Opcode{p.OpDPH: p.OpDPHI, p.OpDST: p.OpDSTI, p.OpSGE: p.OpSGEI, p.OpSLT: p.OpSLTI}

func fits5(o operand) bool { return o.kind != 'c' && o.idx == 0 }

func (a *assembler) dst(s string) (operand, string, error) {
	o, err := a.operand(s)
	if err != nil {
		return o, "", err
	}
	if o.neg || o.idx != 0 || (o.kind != 'o' && o.kind != 'r') {
		return o, "", fmt.Errorf("bad destination %q", s)
	}
	mask := o.swz
	if o.kind == 'o' {
		return o, mask, nil
	}
	return o, mask, nil
}

func dstNum(o operand) uint8 {
	if o.kind == 'o' {
		return o.reg
	}
	return o.reg // r registers are already 0x10+n
}

func (a *assembler) instruction(op, rest string) error {
	args := splitArgs(rest)
	emit := func(in p.Insn) { a.code = append(a.code, in.Encode()) }
	srcs := func(list []string) ([]operand, error) {
		var out []operand
		for _, s := range list {
			o, err := a.operand(s)
			if err != nil {
				return nil, err
			}
			if !isSrc(o) {
				return nil, fmt.Errorf("bad source %q", s)
			}
			out = append(out, o)
		}
		return out, nil
	}
	if opc, ok := twoSrc[op]; ok {
		if len(args) != 3 {
			return fmt.Errorf("%s needs a destination and two sources", op)
		}
		d, mask, err := a.dst(args[0])
		if err != nil {
			return err
		}
		s, err := srcs(args[1:])
		if err != nil {
			return err
		}
		inv := opc >= p.OpDPHI && opc <= p.OpSLTI
		if !inv && !fits5(s[1]) {
			switch {
			case commutative[opc] && fits5(s[0]):
				s[0], s[1] = s[1], s[0]
			case inverted[opc] != 0 && fits5(s[0]):
				opc, inv = inverted[opc], true
			default:
				return fmt.Errorf("%s: the second source must be a v or r register", op)
			}
		}
		if inv && !fits5(s[0]) {
			return fmt.Errorf("%s: the first source must be a v or r register", op)
		}
		di, err := a.makeDesc(mask, s, 128)
		if err != nil {
			return err
		}
		in := p.Insn{Op: opc, Dst: dstNum(d), Src1: s[0].reg, Src2: s[1].reg, Desc: di, Idx: s[0].idx}
		if inv {
			in.Idx = s[1].idx
		}
		emit(in)
		return nil
	}
	if opc, ok := oneSrc[op]; ok {
		if len(args) != 2 {
			return fmt.Errorf("%s needs a destination and a source", op)
		}
		d, mask, err := a.dst(args[0])
		if err != nil {
			return err
		}
		s, err := srcs(args[1:])
		if err != nil {
			return err
		}
		di, err := a.makeDesc(mask, s, 128)
		if err != nil {
			return err
		}
		emit(p.Insn{Op: opc, Dst: dstNum(d), Src1: s[0].reg, Idx: s[0].idx, Desc: di})
		return nil
	}
	cond := func(s string) (p.Insn, error) {
		var in p.Insn
		s = strings.TrimSpace(s)
		one := func(t string) (bool, int, error) {
			t = strings.TrimSpace(t)
			neg := strings.HasPrefix(t, "!")
			t = strings.TrimPrefix(t, "!")
			switch t {
			case "cmp.x":
				return !neg, 0, nil
			case "cmp.y":
				return !neg, 1, nil
			}
			return false, 0, fmt.Errorf("bad condition %q", t)
		}
		parts, co := []string{s}, uint8(0)
		if k := strings.Index(s, "&&"); k >= 0 {
			parts, co = []string{s[:k], s[k+2:]}, 1
		} else if k := strings.Index(s, "||"); k >= 0 {
			parts, co = []string{s[:k], s[k+2:]}, 0
		}
		if len(parts) == 1 {
			v, c, err := one(parts[0])
			if err != nil {
				return in, err
			}
			if c == 0 {
				in.CondOp, in.RefX = 2, v
			} else {
				in.CondOp, in.RefY = 3, v
			}
			return in, nil
		}
		vx, cx, err := one(parts[0])
		if err != nil {
			return in, err
		}
		vy, cy, err := one(parts[1])
		if err != nil {
			return in, err
		}
		if cx != 0 || cy != 1 {
			return in, fmt.Errorf("condition must be cmp.x then cmp.y")
		}
		in.CondOp, in.RefX, in.RefY = co, vx, vy
		return in, nil
	}
	target := func(in *p.Insn, args []string, withNum bool) error {
		if len(args) == 0 {
			return fmt.Errorf("missing target")
		}
		if v, err := parseInt(args[0]); err == nil {
			in.Dest = uint16(v)
			if withNum {
				if len(args) != 2 {
					return fmt.Errorf("raw target needs an instruction count")
				}
				n, err := parseInt(args[1])
				if err != nil || n < 0 || n > 255 {
					return fmt.Errorf("bad instruction count %q", args[1])
				}
				in.Num = uint8(n)
			}
			return nil
		}
		kind := 0
		if withNum {
			kind = 1
		}
		a.fixups = append(a.fixups, fixup{at: len(a.code), label: args[0], line: a.line, kind: kind})
		return nil
	}
	uniform := func(s string, kind byte) (uint8, bool, error) {
		neg := strings.HasPrefix(strings.TrimSpace(s), "!")
		o, err := a.operand(strings.TrimPrefix(strings.TrimSpace(s), "!"))
		if err != nil || o.kind != kind {
			return 0, false, fmt.Errorf("expected a %c register, got %q", kind, s)
		}
		return o.reg, neg, nil
	}
	switch op {
	case "nop":
		emit(p.Insn{Op: p.OpNOP})
	case "end":
		emit(p.Insn{Op: p.OpEND})
	case "emit":
		emit(p.Insn{Op: p.OpEMIT})
	case "break":
		emit(p.Insn{Op: p.OpBREAK})
	case "setemit":
		if len(args) < 1 {
			return fmt.Errorf("setemit needs a vertex id")
		}
		v, err := parseInt(args[0])
		if err != nil || v < 0 || v > 3 {
			return fmt.Errorf("bad vertex id")
		}
		in := p.Insn{Op: p.OpSETEMIT, VtxID: uint8(v)}
		for _, f := range args[1:] {
			switch f {
			case "prim":
				in.PrimEmit = true
			case "inv":
				in.Winding = true
			default:
				return fmt.Errorf("bad setemit flag %q", f)
			}
		}
		emit(in)
	case "mad", "madi":
		if len(args) != 4 {
			return fmt.Errorf("mad needs a destination and three sources")
		}
		d, mask, err := a.dst(args[0])
		if err != nil {
			return err
		}
		s, err := srcs(args[1:])
		if err != nil {
			return err
		}
		if !fits5(s[0]) {
			s[0], s[1] = s[1], s[0]
		}
		if !fits5(s[0]) {
			return fmt.Errorf("mad: at most one uniform source")
		}
		useI := op == "madi" || !fits5(s[2])
		if useI && (!fits5(s[1])) {
			return fmt.Errorf("mad: at most one uniform source")
		}
		di, err := a.makeDesc(mask, s, 32)
		if err != nil {
			return err
		}
		if useI {
			emit(p.Insn{Op: p.OpMADI, Dst: dstNum(d), Src1: s[0].reg, Src2: s[1].reg, Src3: s[2].reg, Idx: s[2].idx, Desc: di})
		} else {
			emit(p.Insn{Op: p.OpMAD, Dst: dstNum(d), Src1: s[0].reg, Src2: s[1].reg, Src3: s[2].reg, Idx: s[1].idx, Desc: di})
		}
	case "mova":
		if len(args) != 2 {
			return fmt.Errorf("mova needs a0 and a source")
		}
		d, err := a.operand(args[0])
		if err != nil || d.kind != 'a' {
			return fmt.Errorf("mova destination must be a0")
		}
		s, err := srcs(args[1:])
		if err != nil {
			return err
		}
		di, err := a.makeDesc(d.comp, s, 128)
		if err != nil {
			return err
		}
		emit(p.Insn{Op: p.OpMOVA, Src1: s[0].reg, Idx: s[0].idx, Desc: di})
	case "cmp":
		if len(args) != 4 {
			return fmt.Errorf("cmp needs src1, op.x, op.y, src2")
		}
		s, err := srcs([]string{args[0], args[3]})
		if err != nil {
			return err
		}
		cx, cy := indexOf(p.CmpNames, args[1]), indexOf(p.CmpNames, args[2])
		if cx < 0 || cy < 0 {
			return fmt.Errorf("bad comparison %q/%q", args[1], args[2])
		}
		if !fits5(s[1]) {
			if !fits5(s[0]) {
				return fmt.Errorf("cmp: at most one uniform source")
			}
			s[0], s[1] = s[1], s[0]
			swap := [6]int{0, 1, 4, 5, 2, 3}
			if cx < 6 {
				cx = swap[cx]
			}
			if cy < 6 {
				cy = swap[cy]
			}
		}
		di, err := a.makeDesc("", s, 128)
		if err != nil {
			return err
		}
		emit(p.Insn{Op: p.OpCMP, Src1: s[0].reg, Src2: s[1].reg, Idx: s[0].idx, CmpX: uint8(cx), CmpY: uint8(cy), Desc: di})
	case "ifu", "ifc":
		if len(args) < 1 {
			return fmt.Errorf("%s needs a condition", op)
		}
		var in p.Insn
		var err error
		if op == "ifu" {
			in.Op = p.OpIFU
			if in.Uniform, _, err = uniform(args[0], 'b'); err != nil {
				return err
			}
		} else {
			if in, err = cond(args[0]); err != nil {
				return err
			}
			in.Op = p.OpIFC
		}
		if len(args) == 3 {
			if err := target(&in, args[1:], true); err != nil {
				return err
			}
			emit(in)
			return nil
		}
		a.blocks = append(a.blocks, block{kind: "if", at: len(a.code), elseAt: -1, line: a.line})
		emit(in)
	case "loop":
		if len(args) < 1 {
			return fmt.Errorf("loop needs an int uniform")
		}
		r, _, err := uniform(args[0], 'i')
		if err != nil {
			return err
		}
		in := p.Insn{Op: p.OpLOOP, Uniform: r}
		if len(args) == 2 {
			if err := target(&in, args[1:], false); err != nil {
				return err
			}
			emit(in)
			return nil
		}
		a.blocks = append(a.blocks, block{kind: "loop", at: len(a.code), elseAt: -1, line: a.line})
		emit(in)
	case "breakc":
		if len(args) != 1 {
			return fmt.Errorf("breakc needs a condition")
		}
		in, err := cond(args[0])
		if err != nil {
			return err
		}
		in.Op = p.OpBREAKC
		emit(in)
	case "call":
		in := p.Insn{Op: p.OpCALL}
		if err := target(&in, args, true); err != nil {
			return err
		}
		emit(in)
	case "callc", "jmpc":
		if len(args) < 2 {
			return fmt.Errorf("%s needs a condition and a target", op)
		}
		in, err := cond(args[0])
		if err != nil {
			return err
		}
		in.Op = p.OpCALLC
		if op == "jmpc" {
			in.Op = p.OpJMPC
		}
		if err := target(&in, args[1:], op == "callc"); err != nil {
			return err
		}
		emit(in)
	case "callu", "jmpu":
		if len(args) < 2 {
			return fmt.Errorf("%s needs a bool uniform and a target", op)
		}
		r, neg, err := uniform(args[0], 'b')
		if err != nil {
			return err
		}
		in := p.Insn{Op: p.OpCALLU, Uniform: r}
		if op == "jmpu" {
			in.Op = p.OpJMPU
			if neg {
				in.Num = 1
			}
		} else if neg {
			return fmt.Errorf("callu cannot negate its uniform")
		}
		if err := target(&in, args[1:], op == "callu"); err != nil {
			return err
		}
		emit(in)
	default:
		return fmt.Errorf("unknown instruction %q", op)
	}
	return nil
}

func indexOf(list []string, s string) int {
	for i, x := range list {
		if x == strings.TrimSpace(s) {
			return i
		}
	}
	return -1
}

// Disassemble renders a shader binary's first executable as source that
// Assemble turns back into the same code, descriptors, outputs and
// constants: the descriptor table is written out explicitly with .desc, so
// instruction descriptor indices are kept.
func Disassemble(sb *p.ShaderBinary) string {
	var b strings.Builder
	x := p.Executable{}
	if len(sb.Executables) > 0 {
		x = sb.Executables[0]
	}
	fmt.Fprintf(&b, "; %d instructions, %d operand descriptors\n", len(sb.Code), len(sb.Opdescs))
	fmt.Fprintf(&b, ".entry %#x %#x\n", x.Main, x.EndMain)
	for _, d := range sb.Opdescs {
		fmt.Fprintf(&b, ".desc 0x%08x\n", d)
	}
	for _, o := range x.Outputs {
		mask := ""
		for c := 0; c < 4; c++ {
			if o.Mask>>uint(c)&1 != 0 {
				mask += string("xyzw"[c])
			}
		}
		name := p.OutputTypeNames[o.Type]
		if name == "" {
			name = fmt.Sprintf("type%d", o.Type)
		}
		fmt.Fprintf(&b, ".out - %s.%s o%d\n", name, mask, o.Reg)
	}
	for _, u := range x.Uniforms {
		fmt.Fprintf(&b, ".uniform %s %#x %#x\n", u.Name, u.First, u.Last)
	}
	for _, c := range x.Consts {
		switch c.Type {
		case 0:
			fmt.Fprintf(&b, ".setb b%d %d\n", c.ID, c.Data[0]&1)
		case 1:
			fmt.Fprintf(&b, ".consti i%d(%d, %d, %d, %d)\n", c.ID, uint8(c.Data[0]), uint8(c.Data[0]>>8), uint8(c.Data[0]>>16), uint8(c.Data[0]>>24))
		case 2:
			fmt.Fprintf(&b, ".constf c%d(%s, %s, %s, %s)\n", c.ID, ff(c.Data[0]), ff(c.Data[1]), ff(c.Data[2]), ff(c.Data[3]))
		}
	}
	for i, w := range sb.Code {
		fmt.Fprintf(&b, "%s ; %#03x: %08x\n", p.Disasm(w, sb.Opdescs), i, w)
	}
	return b.String()
}

func ff(v uint32) string {
	f := p.F24ToFloat(v)
	if math.IsInf(float64(f), 0) || f != f {
		return "0"
	}
	return strconv.FormatFloat(float64(f), 'g', -1, 32)
}
