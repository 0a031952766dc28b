package glamo

import (
	"encoding/binary"
	"math"

	hg "github.com/retrogl/retrogl/hal/glamo"
)

// Array types of a stream (1F10h+8n D[3:0], L1976-1986).
const (
	arrPos = iota
	arrNormal
	arrDiffuse
	arrSpecular
	arrTexA
	arrTexB
	arrTexC
	arrTexD
	arrPSize
)

type stream struct {
	arr, dim, typ uint32
	stride, base  uint32
}

// primitive types of EGPDTYPE (L2347-2360).
const (
	ptPoints     = 0x00
	ptLines      = 0x04
	ptLines2     = 0x14
	ptLineStrip  = 0x05
	ptTris       = 0x08
	ptTris2      = 0x18
	ptStrip      = 0x09
	ptFan        = 0x0A
	listModeBuf  = 0
	listModeIdx  = 1
	listModePkt  = 2
	listModeSIdx = 3
)

func validPrim(p uint32) bool {
	switch p {
	case ptPoints, ptLines, ptLines2, ptLineStrip, ptTris, ptTris2, ptStrip, ptFan:
		return true
	}
	return false
}

// prepare rebuilds the derived state the next primitives need.
func (e *Engine) prepare() error {
	if e.dirty&(gGeom|gLight) != 0 {
		e.buildGL()
	}
	if e.dirty&(gPixel|gTex0|gTex1|gPal0|gPal1|gGeom) != 0 {
		if err := e.buildPixel(); err != nil {
			return err
		}
	}
	e.dirty &^= gAll &^ gStream
	return nil
}

// modeFire handles MGBufCMSFire (203Eh): it runs one list of RGTVerNum
// vertices (2044h D[19:0]) of type EGPDTYPE from the streams.
//   - 00 buffer mode: vertex i of stream n is at StrmnBAS + i x stride.
//   - 01 index mode: vertex address = StrmnBAS + index x RGPDVNum (the
//     bytes per vertex of 2044h, L2270), one interleaved layout.
//   - 11 stream-index mode: StrmnBAS + index x stride, per stream.
//   - 10 packet mode is named but never described (L730): a fault.
//
// Indices are 16-bit, or 8-bit when 1F0Ch D2 is set, read from
// MGStrmIndexMDBAS x 2 (L722).
func (e *Engine) modeFire(v uint16) error {
	mode := uint32(v & 3)
	if mode == listModePkt {
		return faultf("MGBufCMSFire 10 (packet mode) is not described by the seed (L730)")
	}
	prim := e.reg(0x2052) & 31
	if !validPrim(prim) {
		return faultf("EGPDTYPE %05b is reserved (L2347-2360)", prim)
	}
	if err := e.prepare(); err != nil {
		return err
	}
	streams, err := e.streams()
	if err != nil {
		return err
	}
	count := int(e.reg(0x2044) & 0xFFFFF)
	bpv := e.reg(0x2044) >> 20 & 0xFF
	cfg := e.reg(0x1F0C)
	idx8 := cfg>>2&1 != 0
	ibase := e.reg(0x2030) & 0x7FFFFE
	e.asm.reset()
	e.asm.prim = prim
	if e.gl.parserDrop {
		return nil
	}
	var cache map[uint32]int
	var cached []vertex
	if mode != listModeBuf {
		cache = map[uint32]int{}
	}
	var in input
	var out vertex
	di := e.newDrawInput(streams)
	for i := 0; i < count; i++ {
		if err := e.step(1); err != nil {
			return err
		}
		index := uint32(i)
		if mode != listModeBuf {
			if idx8 {
				b, ok := e.mem.Slice(ibase+uint32(i), 1)
				if !ok {
					return faultf("index %d at %#x outside VRAM", i, ibase+uint32(i))
				}
				index = uint32(b[0])
			} else {
				b, ok := e.mem.Slice(ibase+2*uint32(i), 2)
				if !ok {
					return faultf("index %d at %#x outside VRAM", i, ibase+2*uint32(i))
				}
				index = uint32(binary.LittleEndian.Uint16(b))
			}
			if k, ok := cache[index]; ok {
				if err := e.asm.feed(e, &cached[k]); err != nil {
					return err
				}
				continue
			}
		}
		if err := e.fetchWith(streams, mode, index, bpv, cfg&1 != 0, &in, di); err != nil {
			return err
		}
		e.stats.Vertices++
		e.transform(&in, &out)
		if cache != nil {
			cache[index] = len(cached)
			cached = append(cached, out)
		}
		if err := e.asm.feed(e, &out); err != nil {
			return err
		}
	}
	return nil
}

// streams reads the stream table (1F00h-1F4Fh): streams 0..MGVLastStrmNum
// whose active bit is set.
func (e *Engine) streams() ([]stream, error) {
	active := e.reg(0x1F00) & 0xFF
	last := e.reg(0x1F0C) >> 8 & 7
	var out []stream
	for n := uint32(0); n <= last; n++ {
		if active>>n&1 == 0 {
			continue
		}
		ctl := e.reg(0x1F10 + 8*uint16(n))
		s := stream{arr: ctl & 15, typ: ctl >> 4 & 7, dim: ctl>>8&3 + 1, stride: ctl >> 16 & 0xFF,
			base: e.reg(0x1F14+8*uint16(n)) & 0x7FFFFF}
		if s.arr > arrPSize {
			return nil, faultf("stream %d array type %04b is reserved (L1986)", n, s.arr)
		}
		if s.typ > 4 {
			return nil, faultf("stream %d data type %03b is reserved (L1974)", n, s.typ)
		}
		out = append(out, s)
	}
	return out, nil
}

var typeSize = [5]uint32{4, 2, 4, 1, 1}

// fetch reads one vertex from the streams and applies the defaults.
func (e *Engine) fetch(streams []stream, mode, index, bpv uint32, abgr bool, in *input) error {
	return e.fetchWith(streams, mode, index, bpv, abgr, in, nil)
}

// drawInput is what every vertex of a draw shares: the components each
// array type's streams provide (the last stream of a type wins, as in
// fetch) and the input fields of the types no stream provides.
type drawInput struct {
	have    [9]uint8
	present []int // the array types some stream provides
	tmpl    input
}

// newDrawInput computes a draw's drawInput.
func (e *Engine) newDrawInput(streams []stream) *drawInput {
	d := &drawInput{}
	for si := range streams {
		d.have[streams[si].arr] = uint8(streams[si].dim)
	}
	for arr, n := range d.have {
		if n > 0 {
			d.present = append(d.present, arr)
		}
	}
	var raw [9][4]float64
	e.applyDefaults(&raw, &d.have, &d.tmpl)
	return d
}

// fetchWith is fetch; with d set, the fields of the array types no stream
// provides come from d.tmpl (they do not depend on the vertex).
func (e *Engine) fetchWith(streams []stream, mode, index, bpv uint32, abgr bool, in *input, d *drawInput) error {
	var have [9]uint8 // components provided, per array type
	var raw [9][4]float64
	for si := range streams {
		s := &streams[si]
		step := s.stride
		if mode == listModeIdx {
			step = bpv
		}
		addr := s.base + index*step
		size := typeSize[s.typ] * s.dim
		b, ok := e.mem.Slice(addr, size)
		if !ok || uint64(s.base)+uint64(index)*uint64(step) > math.MaxUint32 {
			return faultf("vertex %d: stream %d bytes %#x+%d outside VRAM", index, si, addr, size)
		}
		var v [4]float64
		for k := uint32(0); k < s.dim; k++ {
			v[k] = convert(b, s.typ, k, s.arr)
		}
		if (s.arr == arrDiffuse || s.arr == arrSpecular) && s.typ == 4 {
			// Packed 8-bit colour: bytes of 0xAARRGGBB (ARGB, D3D) or
			// of 0xAABBGGRR (ABGR, GL RGBA byte order), 1F0Ch D0 (L640).
			var c [4]float64
			for k := uint32(0); k < s.dim; k++ {
				c[k] = float64(b[k]) / 255
			}
			if abgr {
				v = c
			} else {
				v = [4]float64{c[2], c[1], c[0], c[3]}
				if s.dim < 3 {
					v = c
				}
			}
		}
		raw[s.arr] = v
		have[s.arr] = uint8(s.dim)
	}
	if d != nil {
		*in = d.tmpl
		for _, arr := range d.present {
			e.applyArray(arr, &raw, &have, in)
		}
		return nil
	}
	e.applyDefaults(&raw, &have, in)
	return nil
}

// convert reads component k of a stream element as the hardware does:
// float s[8].23 and fixed s15.16 by value, short s15 and byte s7 as
// integers except that bytes are s.7 fractions for normals (L1973),
// unsigned bytes as integers (colours are divided by 255 by the caller).
func convert(b []byte, typ, k, arr uint32) float64 {
	switch typ {
	case 0:
		return q(float64(math.Float32frombits(binary.LittleEndian.Uint32(b[4*k:]))))
	case 1:
		return q(float64(int16(binary.LittleEndian.Uint16(b[2*k:]))))
	case 2:
		return q(float64(int32(binary.LittleEndian.Uint32(b[4*k:]))) / 65536)
	case 3:
		v := float64(int8(b[k]))
		if arr == arrNormal || arr == arrDiffuse || arr == arrSpecular {
			return q(v / 128)
		}
		return v
	}
	return float64(b[k])
}

// applyDefaults builds the G/L input from the fetched components: every
// component a stream does not provide, and every component whose
// use-default bit (2600h) is set, takes its default (L1244-1260).
func (e *Engine) applyDefaults(raw *[9][4]float64, have *[9]uint8, in *input) {
	for arr := range raw {
		e.applyArray(arr, raw, have, in)
	}
}

// applyArray is applyDefaults for the input fields of one array type: an
// array no stream provides (have 0) takes values that depend on the state
// alone, which fetchDraw computes once per draw.
func (e *Engine) applyArray(arr int, raw *[9][4]float64, have *[9]uint8, in *input) {
	g := &e.gl
	f := &g.force
	switch arr {
	case arrPos:
		in.pos = pickDef(&raw[arrPos], &g.defPos, have[arrPos], f[arrPos])
	case arrNormal:
		n := pickDef(&raw[arrNormal], &[4]float64{g.defNorm[0], g.defNorm[1], g.defNorm[2]}, have[arrNormal], f[arrNormal])
		in.norm = [3]float64{n[0], n[1], n[2]}
	case arrDiffuse:
		in.diff = pickDef(&raw[arrDiffuse], &g.defDiff, have[arrDiffuse], f[arrDiffuse])
		for k := 0; k < 4; k++ {
			in.diff[k] = clamp01(in.diff[k])
		}
		if have[arrDiffuse] == 3 {
			in.diff[3] = g.defDiff[3]
		}
	case arrSpecular:
		in.spec = pickDef(&raw[arrSpecular], &g.defSpec, have[arrSpecular], f[arrSpecular])
		for k := 0; k < 4; k++ {
			in.spec[k] = clamp01(in.spec[k])
		}
	case arrPSize:
		in.psize = g.ptSize
		if have[arrPSize] > 0 {
			in.psize = raw[arrPSize][0]
		}
	default: // texture coordinate sets A..D
		s := arr - arrTexA
		unit := [4]float64{0, 0, 0, 1}
		def := &unit
		switch s {
		case 0:
			def = &g.defTexA
		case 1:
			def = &g.defTexB
		}
		c := pickDef(&raw[arrTexA+s], def, have[arrTexA+s], f[arrTexA+s])
		if s < 2 {
			// Coordinate-set dimensions before the transform (2040h
			// D[31:28], L2216): 2D (u,v), 3D (u,v,q), 4D (u,v,w,q), 1D (u).
			switch g.texSetIn[s] {
			case 0:
				c[2], c[3] = def[2], def[3]
			case 1:
				c[3], c[2] = c[2], def[2]
				if int(have[arrTexA+s]) < 3 {
					c[3] = def[3]
				}
			case 3:
				c[1], c[2], c[3] = def[1], def[2], def[3]
			}
		}
		in.tex[s] = c
	}
}

// pickDef returns the components a stream provides (the first n) unless
// forced to their default (bit k of force), and the defaults for the
// others.
func pickDef(raw, def *[4]float64, n uint8, force uint32) [4]float64 {
	take := (uint32(1)<<n - 1) &^ force
	v := *def
	if take&1 != 0 {
		v[0] = raw[0]
	}
	if take&2 != 0 {
		v[1] = raw[1]
	}
	if take&4 != 0 {
		v[2] = raw[2]
	}
	if take&8 != 0 {
		v[3] = raw[3]
	}
	return v
}

// forceMasks returns, per array type, the components whose use-default
// bit (2600h, L1244-1260) is set: D20-D23 position, D15 normal, DIFFDEF
// D24 B, D25 G, D26 R, D27 A, SPECDEF D28 SB .. D31 fog, texture sets A
// and B D4-D7 and D16-D19; sets C, D and the point size have none.
func forceMasks(u uint32) (f [9]uint32) {
	bits := func(b0, b1, b2, b3 uint) uint32 {
		return u>>b0&1 | u>>b1&1<<1 | u>>b2&1<<2 | u>>b3&1<<3
	}
	f[arrPos] = u >> 20 & 15
	f[arrNormal] = u >> 15 & 1 * 15
	f[arrDiffuse] = bits(26, 25, 24, 27)
	f[arrSpecular] = bits(30, 29, 28, 31)
	f[arrTexA] = u >> 4 & 15
	f[arrTexB] = u >> 16 & 15
	return f
}

func clamp01(v float64) float64 {
	if !(v > 0) {
		return 0
	}
	if v > 1 {
		return 1
	}
	return v
}

// fire handles EGFIRE (2058h): the immediate vertex "a" (RGP* at 1B00h)
// goes through the G/L engine (unless RGXScrCoor) into the primitive
// assembler with the current EGPDTYPE (L768-769).
func (e *Engine) fire(uint16) error {
	prim := e.reg(0x2052) & 31
	if !validPrim(prim) {
		return faultf("EGPDTYPE %05b is reserved (L2347-2360)", prim)
	}
	if err := e.prepare(); err != nil {
		return err
	}
	if e.asm.prim != prim || !e.asm.open {
		e.asm.reset()
		e.asm.prim = prim
	}
	e.asm.open = true
	var raw [9][4]float64
	var have [9]uint8
	for k := 0; k < 4; k++ {
		raw[arrPos][k] = e.f32(0x1B00 + 4*uint16(k))
		raw[arrTexA][k] = e.f32(0x1B40 + 4*uint16(k))
		raw[arrTexB][k] = e.f32(0x1B50 + 4*uint16(k))
	}
	for k := 0; k < 3; k++ {
		raw[arrNormal][k] = e.f32(0x1B10 + 4*uint16(k))
	}
	// Packed colours (RGPDIFa/RGPSPECa): ARGB, or RGBA when 1F0Ch D0 = 1.
	d, s := e.reg(0x1B20), e.reg(0x1B30)
	unpack := func(w uint32) [4]float64 {
		b := [4]float64{float64(w>>24) / 255, float64(w>>16&255) / 255, float64(w>>8&255) / 255, float64(w&255) / 255}
		if e.reg(0x1F0C)&1 != 0 {
			return b // R, G, B, A (or SR, SG, SB, F)
		}
		return [4]float64{b[1], b[2], b[3], b[0]}
	}
	raw[arrDiffuse], raw[arrSpecular] = unpack(d), unpack(s)
	raw[arrPSize][0] = e.f32(0x1B80)
	have = [9]uint8{4, 3, 4, 4, 4, 4, 0, 0, 1}
	var in input
	var out vertex
	e.applyDefaults(&raw, &have, &in)
	e.stats.Vertices++
	e.transform(&in, &out)
	return e.asm.feed(e, &out)
}

// assembler turns a vertex sequence into primitives.
type assembler struct {
	prim uint32
	open bool // an EGFIRE sequence is in progress
	n    int  // vertices in the list so far
	// lineReset asks the next line to restart the stipple counter.
	lineReset bool
	v         [3]vertex
}

func (a *assembler) reset() { a.n, a.open, a.lineReset = 0, false, true }

// feed adds one vertex. Strips and fans follow EGParMode (2050h D[3:2]),
// which the seed names but does not explain: the "new" methods keep every
// triangle's winding (strip triangle i odd is (i+1, i, i+2)) and the
// provoking vertex last, as GL does; the "old" strip keeps submission order
// (alternating winding) and the "old" fan puts the hub last.
func (a *assembler) feed(e *Engine, v *vertex) error {
	i := a.n
	a.n++
	switch a.prim {
	case ptPoints:
		return e.point(v)
	case ptLines, ptLines2:
		if i%2 == 0 {
			a.v[0] = *v
			return nil
		}
		e.lineCount = 0
		return e.line(&a.v[0], v)
	case ptLineStrip:
		// The stipple counter runs on along a strip unless RGPClrLineCnt
		// (265Ch D31) clears it at every segment.
		if a.lineReset || e.reg(0x265C)>>31 != 0 {
			e.lineCount, a.lineReset = 0, false
		}
		if i > 0 {
			if err := e.line(&a.v[0], v); err != nil {
				return err
			}
		}
		a.v[0] = *v
		return nil
	case ptTris, ptTris2:
		a.v[i%3] = *v
		if i%3 == 2 {
			return e.tri(&a.v[0], &a.v[1], &a.v[2])
		}
		return nil
	case ptStrip:
		newStrip := e.reg(0x2050)>>3&1 != 0
		if i < 2 {
			a.v[i] = *v
			return nil
		}
		a.v[2] = *v
		var err error
		if i%2 == 1 && newStrip {
			err = e.tri(&a.v[1], &a.v[0], &a.v[2])
		} else {
			err = e.tri(&a.v[0], &a.v[1], &a.v[2])
		}
		a.v[0], a.v[1] = a.v[1], a.v[2]
		return err
	case ptFan:
		newFan := e.reg(0x2050)>>2&1 != 0
		if i < 2 {
			a.v[i] = *v
			return nil
		}
		a.v[2] = *v
		var err error
		if newFan {
			err = e.tri(&a.v[0], &a.v[1], &a.v[2])
		} else {
			err = e.tri(&a.v[1], &a.v[2], &a.v[0])
		}
		a.v[1] = a.v[2]
		return err
	}
	return faultf("EGPDTYPE %05b is reserved", a.prim)
}

var _ = hg.Chip
