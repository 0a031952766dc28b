package pica

import (
	"encoding/binary"
	"errors"
	"fmt"
)

// SHBIN is the 3DS shader binary container ([OUT] 3dbrew "SHBIN" and
// libctru's DVLB_ParseFile): a DVLB header with the DVLE offsets, one DVLP
// (program: instruction words and operand descriptors) and one DVLE per
// executable (entry point, constants, output map, uniforms, symbols).
//
// Layout, all little-endian u32 words unless noted:
//
//	DVLB: "DVLB", N, N offsets of the DVLEs (bytes from the DVLB start)
//	DVLP: "DVLP", version, code offset (bytes from DVLP), code words,
//	      opdesc offset, opdesc count (8-byte entries: descriptor, 0),
//	      symbol-table offset, symbol-table size
//	DVLE: "DVLE", version | type<<16 (0 vertex, 1 geometry), main offset,
//	      endmain offset (words), input mask | output mask<<16, gs info,
//	      constant table offset/count (20-byte entries: u16 type, u16 id,
//	      4 words), label table offset/count, output table offset/count
//	      (8-byte entries: u16 type, u16 register, u8 mask, 3 pad),
//	      uniform table offset/count (8-byte entries: u32 symbol offset,
//	      u16 first register, u16 last register), symbol table
//	      offset/size.
//
// Uniform register numbers in the uniform table follow libctru: c0-c95 are
// 0x10-0x6F, i0-i3 0x70-0x73, b0-b15 0x78-0x87.

// ShaderOutput is one entry of a DVLE's output table.
type ShaderOutput struct {
	Type uint16 // 0 position, 1 normalquat, 2 color, 3 texcoord0, 4 texcoord0w, 5 texcoord1, 6 texcoord2, 8 view, 9 dummy
	Reg  uint16 // output register o0-o15
	Mask uint8  // component mask, bit 0 = x
}

// OutputTypeNames are the picasso names of the output types.
var OutputTypeNames = map[uint16]string{0: "position", 1: "normalquat", 2: "color", 3: "texcoord0", 4: "texcoord0w",
	5: "texcoord1", 6: "texcoord2", 8: "view", 9: "dummy"}

// ShaderConst is a constant the executable loads before running.
type ShaderConst struct {
	Type uint16 // 0 bool, 1 int (u8 x4), 2 float24
	ID   uint16 // register index within its kind
	Data [4]uint32
}

// ShaderUniform names a range of uniform registers.
type ShaderUniform struct {
	Name        string
	First, Last uint16 // libctru numbering (c0 = 0x10)
}

// Executable is one DVLE.
type Executable struct {
	Geometry bool
	Main     uint32
	EndMain  uint32
	Consts   []ShaderConst
	Outputs  []ShaderOutput
	Uniforms []ShaderUniform
}

// ShaderBinary is a parsed SHBIN.
type ShaderBinary struct {
	Code        []uint32
	Opdescs     []uint32
	Executables []Executable
}

var errShort = errors.New("truncated")

type reader struct{ b []byte }

func (r reader) u32(off uint64) (uint32, error) {
	if off+4 > uint64(len(r.b)) {
		return 0, fmt.Errorf("word at %#x: %w", off, errShort)
	}
	return binary.LittleEndian.Uint32(r.b[off:]), nil
}

func (r reader) span(off, n, size uint64) ([]byte, error) {
	end := off + n*size
	if n > 1<<20 || end > uint64(len(r.b)) {
		return nil, fmt.Errorf("table at %#x (%d entries of %d bytes): %w", off, n, size, errShort)
	}
	return r.b[off:end], nil
}

// ParseSHBIN parses a shader binary. Every offset and count is checked
// against the data; bad input returns an error, never a panic.
func ParseSHBIN(b []byte) (*ShaderBinary, error) {
	r := reader{b}
	magic := func(off uint64, m string) error {
		if off+4 > uint64(len(b)) || string(b[off:off+4]) != m {
			return fmt.Errorf("shbin: no %s magic at %#x", m, off)
		}
		return nil
	}
	if err := magic(0, "DVLB"); err != nil {
		return nil, err
	}
	n, err := r.u32(4)
	if err != nil {
		return nil, fmt.Errorf("shbin: %w", err)
	}
	if n == 0 || n > 64 {
		return nil, fmt.Errorf("shbin: %d executables", n)
	}
	dvlp := uint64(8 + 4*n)
	if err := magic(dvlp, "DVLP"); err != nil {
		return nil, err
	}
	var hdr [8]uint32
	for i := range hdr[:6] {
		if hdr[i], err = r.u32(dvlp + 4*uint64(i)); err != nil {
			return nil, fmt.Errorf("shbin: DVLP header: %w", err)
		}
	}
	sb := &ShaderBinary{}
	code, err := r.span(dvlp+uint64(hdr[2]), uint64(hdr[3]), 4)
	if err != nil {
		return nil, fmt.Errorf("shbin: code: %w", err)
	}
	if hdr[3] > 4096 {
		return nil, fmt.Errorf("shbin: %d code words (at most 4096)", hdr[3])
	}
	for i := 0; i < len(code); i += 4 {
		sb.Code = append(sb.Code, binary.LittleEndian.Uint32(code[i:]))
	}
	descs, err := r.span(dvlp+uint64(hdr[4]), uint64(hdr[5]), 8)
	if err != nil {
		return nil, fmt.Errorf("shbin: operand descriptors: %w", err)
	}
	if hdr[5] > 128 {
		return nil, fmt.Errorf("shbin: %d operand descriptors (at most 128)", hdr[5])
	}
	for i := 0; i < len(descs); i += 8 {
		sb.Opdescs = append(sb.Opdescs, binary.LittleEndian.Uint32(descs[i:]))
	}
	for e := uint32(0); e < n; e++ {
		off, err := r.u32(8 + 4*uint64(e))
		if err != nil {
			return nil, fmt.Errorf("shbin: DVLE %d offset: %w", e, err)
		}
		x, err := parseDVLE(r, uint64(off))
		if err != nil {
			return nil, fmt.Errorf("shbin: DVLE %d: %w", e, err)
		}
		sb.Executables = append(sb.Executables, x)
	}
	return sb, nil
}

func parseDVLE(r reader, base uint64) (Executable, error) {
	var x Executable
	if base+4 > uint64(len(r.b)) || string(r.b[base:base+4]) != "DVLE" {
		return x, fmt.Errorf("no DVLE magic at %#x", base)
	}
	var h [16]uint32
	for i := range h {
		v, err := r.u32(base + 4*uint64(i))
		if err != nil {
			return x, fmt.Errorf("header: %w", err)
		}
		h[i] = v
	}
	x.Geometry = h[1]>>16&0xFF == 1
	x.Main, x.EndMain = h[2], h[3]
	consts, err := r.span(base+uint64(h[6]), uint64(h[7]), 20)
	if err != nil {
		return x, fmt.Errorf("constants: %w", err)
	}
	for i := 0; i < len(consts); i += 20 {
		c := ShaderConst{Type: binary.LittleEndian.Uint16(consts[i:]), ID: binary.LittleEndian.Uint16(consts[i+2:])}
		for k := 0; k < 4; k++ {
			c.Data[k] = binary.LittleEndian.Uint32(consts[i+4+4*k:])
		}
		x.Consts = append(x.Consts, c)
	}
	outs, err := r.span(base+uint64(h[10]), uint64(h[11]), 8)
	if err != nil {
		return x, fmt.Errorf("outputs: %w", err)
	}
	for i := 0; i < len(outs); i += 8 {
		x.Outputs = append(x.Outputs, ShaderOutput{Type: binary.LittleEndian.Uint16(outs[i:]),
			Reg: binary.LittleEndian.Uint16(outs[i+2:]), Mask: outs[i+4]})
	}
	unis, err := r.span(base+uint64(h[12]), uint64(h[13]), 8)
	if err != nil {
		return x, fmt.Errorf("uniforms: %w", err)
	}
	syms, err := r.span(base+uint64(h[14]), uint64(h[15]), 1)
	if err != nil {
		return x, fmt.Errorf("symbols: %w", err)
	}
	for i := 0; i < len(unis); i += 8 {
		so := binary.LittleEndian.Uint32(unis[i:])
		u := ShaderUniform{First: binary.LittleEndian.Uint16(unis[i+4:]), Last: binary.LittleEndian.Uint16(unis[i+6:])}
		if uint64(so) < uint64(len(syms)) {
			end := int(so)
			for end < len(syms) && syms[end] != 0 {
				end++
			}
			u.Name = string(syms[so:end])
		}
		x.Uniforms = append(x.Uniforms, u)
	}
	return x, nil
}

// Bytes serialises the binary in the layout ParseSHBIN reads (and libctru
// loads).
func (sb *ShaderBinary) Bytes() []byte {
	var out []byte
	put := func(v ...uint32) {
		for _, w := range v {
			out = binary.LittleEndian.AppendUint32(out, w)
		}
	}
	n := uint32(len(sb.Executables))
	put(0x424C5644, n) // "DVLB"
	dvleOffAt := len(out)
	for i := uint32(0); i < n; i++ {
		put(0)
	}
	codeOff := uint32(0x28)
	descOff := codeOff + 4*uint32(len(sb.Code))
	symOff := descOff + 8*uint32(len(sb.Opdescs))
	put(0x504C5644, 0, codeOff, uint32(len(sb.Code)), descOff, uint32(len(sb.Opdescs)), symOff, 0, 0, 0)
	put(sb.Code...)
	for _, d := range sb.Opdescs {
		put(d, 0x0000000F)
	}
	for i, x := range sb.Executables {
		base := len(out)
		binary.LittleEndian.PutUint32(out[dvleOffAt+4*i:], uint32(base))
		const hdr = 0x40
		constOff := uint32(hdr)
		outOff := constOff + 20*uint32(len(x.Consts))
		uniOff := outOff + 8*uint32(len(x.Outputs))
		symOff := uniOff + 8*uint32(len(x.Uniforms))
		var syms []byte
		var symAt []uint32
		for _, u := range x.Uniforms {
			symAt = append(symAt, uint32(len(syms)))
			syms = append(append(syms, u.Name...), 0)
		}
		for len(syms)%4 != 0 {
			syms = append(syms, 0)
		}
		typ := uint32(0)
		if x.Geometry {
			typ = 1
		}
		var outMask uint32
		for _, o := range x.Outputs {
			outMask |= 1 << (o.Reg & 15)
		}
		put(0x454C5644, 0x1002|typ<<16, x.Main, x.EndMain, outMask<<16, 0,
			constOff, uint32(len(x.Consts)), symOff, 0, outOff, uint32(len(x.Outputs)),
			uniOff, uint32(len(x.Uniforms)), symOff, uint32(len(syms)))
		for _, c := range x.Consts {
			out = binary.LittleEndian.AppendUint16(out, c.Type)
			out = binary.LittleEndian.AppendUint16(out, c.ID)
			put(c.Data[:]...)
		}
		for _, o := range x.Outputs {
			out = binary.LittleEndian.AppendUint16(out, o.Type)
			out = binary.LittleEndian.AppendUint16(out, o.Reg)
			out = append(out, o.Mask, 0, 0, 0)
		}
		for i, u := range x.Uniforms {
			put(symAt[i])
			out = binary.LittleEndian.AppendUint16(out, u.First)
			out = binary.LittleEndian.AppendUint16(out, u.Last)
		}
		out = append(out, syms...)
	}
	return out
}
