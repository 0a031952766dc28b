package pica

import (
	"encoding/binary"
	"fmt"
	"math"

	p "github.com/retrogl/retrogl/hal/pica"
	"github.com/retrogl/retrogl/sim/raster"
)

// The fragment pipeline, in the order [OUT] citra's software rasteriser
// runs it (guide §2.3): texture units, the six combiners, alpha test, fog,
// stencil test, depth test, blending or logic op, write masks. Arithmetic is
// 8-bit integer as in citra; decisions are noted at each stage.

type fragment struct {
	color [4]uint8
	depth float64
	tc    [3][2]float64
	q     float64 // interpolated 1/w, for the LOD
	tc0w  float64 // interpolated texcoord0.w (projection textures only)
}

// texUnit is a texture unit's state for one draw.
type texUnit struct {
	enabled       bool
	addr          uint32
	width, height int
	format        p.TexFormat
	mag, min      uint32
	wrapS, wrapT  uint32
	border        [4]uint8
	data          []byte
	// Mipmap levels: level l is (width>>l) x (height>>l), stored after
	// level l-1 (L1306); levels holds each level's bytes.
	levels   [][]byte
	mip      uint32 // PARAM bit 24: 0 nearest, 1 linear between levels
	minLevel int
	maxLevel int
	bias     float64
	// end is the address after the last level.
	end uint32
	// colOff and rowOff tile a fastRepeat unit's texel addresses.
	colOff, rowOff []int32
	// colPair[x] holds the byte offsets of columns x and x+1 (wrapped) in
	// its low and high words (the fused textured chunk's).
	colPair []uint64
	// proj: unit 0 has type 3, projection: s and t are divided by the
	// interpolated texcoord0.w per pixel. The seed names the type only;
	// the division is [OUT] Citra's software rasteriser (Projection2D:
	// u /= tc0_w, v /= tc0_w with tc0_w interpolated like the
	// coordinates). Citra leaves the LOD of a projection texture open;
	// the LOD here is GL's, of the divided coordinates (the gradient of
	// q/w, with q the interpolated texcoord0.w: texGrad.gq).
	proj bool
}

// pixelState is everything the pixel pipeline needs, decoded once per
// draw from the registers.
type pixelState struct {
	width, height       int
	halfW, halfH        float64
	offX, offY          float64
	depthScale          float64
	depthOffset         float64
	zBuffer             bool
	cull                uint32
	scissor             int
	sx1, sy1, sx2, sy2  int
	color               []byte
	colorFmt            p.ColorFormat
	cbpp                int
	depthBuf            []byte
	depthFmt            p.DepthFormat
	colorWrite          bool
	depthWrite, stWrite bool
	depthRead, stRead   bool
	texEnabled          uint32
	tex                 [3]texUnit
	tev                 [6]tevStage
	tevActive           int  // stages after the last one that changes the colour are skipped
	tevPrimary          bool // the combiners output the primary colour unchanged
	blendCopy           bool // blending replaces the colour (ADD, ONE, ZERO) under a full mask
	bufColor            [4]uint8
	bufUpdate           uint32
	fogMode             uint32
	fogFlip             bool
	fogColor            [3]uint8
	fogTable            [128]uint32
	alphaTest           uint32
	stencil, stencilOp  uint32
	dcm                 uint32
	blend               bool
	blendFunc           uint32
	blendColor          [4]uint8
	logicOp             uint32
	// target is the render target's pixel rectangle (memory rows); clip
	// is target inside the scissor box of mode 3.
	target, clip raster.Rect
	tc2from1     bool // texture unit 2 reads coordinates 1 (TEXUNIT_CONFIG bit 13)
	// aliased is set when a texture overlaps the colour or depth buffer,
	// or the two buffers overlap: shading is then serial and per pixel.
	aliased bool
	span    spanPlan
}

type tevStage struct {
	src, op, fn, scale uint32
	konst              [4]uint8
}

func rgba(v uint32) [4]uint8 {
	return [4]uint8{uint8(v), uint8(v >> 8), uint8(v >> 16), uint8(v >> 24)}
}

// pixelState returns the decoded pixel state of the registers, decoding
// it again only after a register write that can change it.
func (g *GPU) pixelState() (*pixelState, error) {
	if g.psCache != nil {
		return g.psCache, nil
	}
	ps, err := g.decodePixelState()
	if err != nil {
		return nil, err
	}
	g.psCache = ps
	return ps, nil
}

func (g *GPU) decodePixelState() (*pixelState, error) {
	r := &g.regs
	ps := &pixelState{}
	dim := r[p.FRAMEBUFFER_DIM]
	ps.width, ps.height = int(dim&0x7FF), int(dim>>12&0x3FF)+1
	if ps.width == 0 || ps.width%8 != 0 || ps.height%8 != 0 {
		return nil, fmt.Errorf("FRAMEBUFFER_DIM %dx%d is not a multiple of 8x8 tiles", ps.width, ps.height)
	}
	if r[p.FRAMEBUFFER_BLOCK32]&1 != 0 {
		return nil, fmt.Errorf("32x32 block framebuffer mode is not simulated")
	}
	ps.halfW = float64(p.F24ToFloat(r[p.VIEWPORT_WIDTH]))
	ps.halfH = float64(p.F24ToFloat(r[p.VIEWPORT_HEIGHT]))
	xy := r[p.VIEWPORT_XY]
	ps.offX = float64(int32(xy<<22) >> 22)
	ps.offY = float64(int32(xy>>16<<22) >> 22)
	ps.depthScale = float64(p.F24ToFloat(r[p.DEPTHMAP_SCALE]))
	ps.depthOffset = float64(p.F24ToFloat(r[p.DEPTHMAP_OFFSET]))
	ps.zBuffer = r[p.DEPTHMAP_ENABLE]&1 != 0
	ps.cull = r[p.FACECULLING_CONFIG] & 3
	ps.scissor = int(r[p.SCISSORTEST_MODE] & 3)
	ps.sx1, ps.sy1 = int(r[p.SCISSORTEST_POS]&0x3FF), int(r[p.SCISSORTEST_POS]>>16&0x3FF)
	ps.sx2, ps.sy2 = int(r[p.SCISSORTEST_DIM]&0x3FF), int(r[p.SCISSORTEST_DIM]>>16&0x3FF)

	cf := r[p.COLORBUFFER_FORMAT]
	ps.colorFmt = p.ColorFormat(cf >> 16 & 7)
	ps.cbpp = ps.colorFmt.BytesPerPixel()
	if ps.cbpp == 0 {
		return nil, fmt.Errorf("colour buffer format %d is undefined", ps.colorFmt)
	}
	ps.colorWrite = r[p.COLORBUFFER_WRITE]&0xF != 0
	ps.target = raster.Rect{X0: 0, Y0: 0, X1: ps.width, Y1: ps.height}
	ps.clip = ps.target
	if ps.scissor == 3 {
		// Inclusive box in window coordinates; rows flip to memory rows.
		ps.clip = ps.clip.Intersect(raster.Rect{X0: ps.sx1, X1: ps.sx2 + 1, Y0: ps.height - 1 - ps.sy2, Y1: ps.height - ps.sy1})
	}
	var ranges [][2]uint64 // colour, depth, then textures
	span := func(addr, n uint32) [2]uint64 { return [2]uint64{uint64(addr), uint64(addr) + uint64(n)} }
	ranges = append(ranges, [2]uint64{}, [2]uint64{})
	if ps.colorWrite || r[p.COLORBUFFER_READ]&0xF != 0 {
		addr := (r[p.COLORBUFFER_LOC] & 0x0FFFFFFF) << 3
		n := uint32(ps.width * ps.height * ps.cbpp)
		ranges[0] = span(addr, n)
		b, ok := g.mem.Slice(addr, n)
		if !ok {
			return nil, fmt.Errorf("colour buffer %#08x+%#x outside device memory", addr, n)
		}
		ps.color = b
	}
	ps.depthFmt = p.DepthFormat(r[p.DEPTHBUFFER_FORMAT] & 3)
	dw, dr := r[p.DEPTHBUFFER_WRITE], r[p.DEPTHBUFFER_READ]
	ps.depthWrite, ps.stWrite = dw&2 != 0, dw&1 != 0
	ps.depthRead, ps.stRead = dr&2 != 0, dr&1 != 0
	if ps.depthFmt != p.DepthD24S8 {
		ps.stWrite, ps.stRead = false, false
	}
	if ps.depthWrite || ps.depthRead || ps.stWrite || ps.stRead {
		bpp := ps.depthFmt.BytesPerPixel()
		if bpp == 0 {
			return nil, fmt.Errorf("depth buffer format 1 is undefined")
		}
		addr := (r[p.DEPTHBUFFER_LOC] & 0x0FFFFFFF) << 3
		n := uint32(ps.width * ps.height * bpp)
		ranges[1] = span(addr, n)
		b, ok := g.mem.Slice(addr, n)
		if !ok {
			return nil, fmt.Errorf("depth buffer %#08x+%#x outside device memory", addr, n)
		}
		ps.depthBuf = b
	}

	ps.texEnabled = r[p.TEXUNIT_CONFIG] & 7
	for u := 0; u < 3; u++ {
		if ps.texEnabled>>uint(u)&1 == 0 {
			continue
		}
		t := &ps.tex[u]
		if err := g.texUnitState(u, t); err != nil {
			return nil, err
		}
		ranges = append(ranges, span(t.addr, t.end-t.addr))
	}
	ps.tc2from1 = r[p.TEXUNIT_CONFIG]>>13&1 != 0
	overlap := func(a, b [2]uint64) bool { return a[0] < b[1] && b[0] < a[1] }
	for i := range ranges {
		for j := range ranges[:min(i, 2)] {
			if overlap(ranges[i], ranges[j]) {
				ps.aliased = true
			}
		}
	}
	for s := 0; s < 6; s++ {
		ps.tev[s] = tevStage{src: r[p.TexEnv(s, 0)], op: r[p.TexEnv(s, 1)], fn: r[p.TexEnv(s, 2)],
			konst: rgba(r[p.TexEnv(s, 3)]), scale: r[p.TexEnv(s, 4)]}
	}
	ub := r[p.TEXENV_UPDATE_BUFFER]
	for s := 0; s < 6; s++ {
		if !tevPass(&ps.tev[s]) {
			ps.tevActive = s + 1
		}
	}
	t0 := &ps.tev[0]
	ps.tevPrimary = ps.tevActive == 0 || (ps.tevActive == 1 && t0.src&0xF == 0 && t0.src>>16&0xF == 0 &&
		t0.op&0xF == 0 && t0.op>>12&7 == 0 && t0.fn == 0 && t0.scale&3 != 1 && t0.scale&3 != 2 &&
		t0.scale>>16&3 != 1 && t0.scale>>16&3 != 2)
	ps.bufColor = rgba(r[p.TEXENV_BUFFER_COLOR])
	ps.bufUpdate = ub >> 8 & 0xFF
	ps.fogMode = ub & 7
	ps.fogFlip = ub>>16&1 != 0
	fc := r[p.FOG_COLOR]
	ps.fogColor = [3]uint8{uint8(fc), uint8(fc >> 8), uint8(fc >> 16)}
	ps.fogTable = g.fogLUT
	ps.alphaTest = r[p.FRAGOP_ALPHA_TEST]
	ps.stencil, ps.stencilOp = r[p.STENCIL_TEST], r[p.STENCIL_OP]
	ps.dcm = r[p.DEPTH_COLOR_MASK]
	ps.blend = r[p.COLOR_OPERATION]>>8&1 != 0
	ps.blendFunc = r[p.BLEND_FUNC]
	ps.blendColor = rgba(r[p.BLEND_COLOR])
	ps.logicOp = r[p.LOGIC_OP] & 0xF
	bf := ps.blendFunc
	ps.blendCopy = ps.blend && bf&0x707 == 0 && bf>>16 == 0x0101 && ps.dcm>>8&0xF == 0xF
	ps.plan()
	return ps, nil
}

var texDimReg = [3]p.Reg{p.TEXUNIT0_DIM, p.TEXUNIT1_DIM, p.TEXUNIT2_DIM}
var texParamReg = [3]p.Reg{p.TEXUNIT0_PARAM, p.TEXUNIT1_PARAM, p.TEXUNIT2_PARAM}
var texAddrReg = [3]p.Reg{p.TEXUNIT0_ADDR1, p.TEXUNIT1_ADDR, p.TEXUNIT2_ADDR}
var texTypeReg = [3]p.Reg{p.TEXUNIT0_TYPE, p.TEXUNIT1_TYPE, p.TEXUNIT2_TYPE}
var texLodReg = [3]p.Reg{p.TEXUNIT0_LOD, p.TEXUNIT1_LOD, p.TEXUNIT2_LOD}
var texBorderReg = [3]p.Reg{p.TEXUNIT0_BORDER, p.TEXUNIT1_BORDER, p.TEXUNIT2_BORDER}

func (g *GPU) texUnitState(u int, t *texUnit) error {
	r := &g.regs
	dim := r[texDimReg[u]]
	t.height, t.width = int(dim&0x7FF), int(dim>>16&0x7FF)
	param := r[texParamReg[u]]
	t.mag, t.min = param>>1&1, param>>2&1
	t.wrapT, t.wrapS = param>>8&7, param>>12&7
	t.border = rgba(r[texBorderReg[u]])
	t.format = p.TexFormat(r[texTypeReg[u]] & 0xF)
	t.proj = u == 0 && param>>28&7 == 3
	if u == 0 && param>>28&7 != 0 && !t.proj {
		return fmt.Errorf("texture unit 0 type %d (cube, shadow) is not simulated", param>>28&7)
	}
	bits := t.format.BitsPerTexel()
	if bits == 0 {
		return fmt.Errorf("texture unit %d format %d is undefined", u, t.format)
	}
	if t.width < 8 || t.height < 8 || t.width%8 != 0 || t.height%8 != 0 {
		return fmt.Errorf("texture unit %d size %dx%d is not a multiple of 8x8 tiles", u, t.width, t.height)
	}
	t.addr = (r[texAddrReg[u]] & 0x0FFFFFFF) << 3
	lod := r[texLodReg[u]]
	t.bias = float64(int32(lod<<19)>>19) / 256 // fixed1.4.8 (L1283)
	t.maxLevel, t.minLevel = int(lod>>16&0xF), int(lod>>24&0xF)
	t.mip = param >> 24 & 1
	// Levels end at 1x1; each is stored in whole 8x8 tiles (hal/pica
	// LevelBytes).
	for t.maxLevel > 0 && t.width>>t.maxLevel == 0 && t.height>>t.maxLevel == 0 {
		t.maxLevel--
	}
	t.minLevel = min(t.minLevel, t.maxLevel)
	t.levels = t.levels[:0]
	off := t.addr
	for l := 0; l <= t.maxLevel; l++ {
		n := uint32(p.LevelBytes(t.width, t.height, l, bits))
		b, ok := g.mem.Slice(off, n)
		if !ok {
			return fmt.Errorf("texture unit %d level %d data %#08x+%#x outside device memory", u, l, off, n)
		}
		t.levels = append(t.levels, b)
		off += n
	}
	t.end = off
	t.data = t.levels[0]
	t.enabled = true
	return nil
}

// fragmentPixel runs the per-fragment pipeline for one pixel; grad holds
// the triangle's texture gradients.
func fragmentPixel(ps *pixelState, f *fragment, grad *[3]texGrad, x, row int) {
	var texel [4][4]uint8
	for u := 0; u < 3; u++ {
		if ps.tex[u].enabled {
			// Unit 2 reads tc2 or tc1 (TEXUNIT_CONFIG bit 13).
			tc := f.tc[u]
			if u == 2 && ps.tc2from1 {
				tc = f.tc[1]
			}
			q := f.q
			if u == 0 && ps.tex[0].proj {
				q *= f.tc0w
			}
			texel[u] = ps.tex[u].sample(tc[0], tc[1], q, &grad[u])
		}
	}
	c := f.color
	if !ps.tevPrimary {
		c = ps.combine(f.color, &texel)
	}
	if !ps.alphaPass(c) {
		return
	}
	if ps.fogMode == 5 {
		c = ps.fog(c, f.depth)
	}
	if !ps.depthStencil(x, row, ps.quantizeDepth(f.depth)) {
		return
	}
	ps.writeColor(x, row, c)
}

// alphaPass is the alpha test.
func (ps *pixelState) alphaPass(c [4]uint8) bool {
	at := ps.alphaTest
	return at&1 == 0 || cmpFunc(at>>4&7, uint32(c[3]), at>>8&0xFF)
}

// quantizeDepth converts a depth in [0, 1] to the buffer's integer,
// truncating.
func (ps *pixelState) quantizeDepth(depth float64) uint32 {
	bits := ps.depthFmt.Bits()
	return uint32(depth * float64(uint32(1)<<bits-1))
}

// depthStencil runs the stencil test, the depth test and their writes for
// the fragment at (x, row) with quantised depth z; it reports whether the
// fragment survives.
func (ps *pixelState) depthStencil(x, row int, z uint32) bool {
	var dOff int
	var oldZ uint32
	var oldS uint8
	if ps.depthBuf != nil {
		dOff = p.TileOffset(x, row, ps.width) * ps.depthFmt.BytesPerPixel()
		oldZ, oldS = readDepth(ps.depthFmt, ps.depthBuf[dOff:])
	}
	newS := oldS
	st := ps.stencil
	if st&1 != 0 && ps.stRead {
		ref, mask := st>>16&0xFF, st>>24
		if !cmpFunc(st>>4&7, ref&mask, uint32(oldS)&mask) {
			newS = stencilOp(ps.stencilOp&7, oldS, uint8(ref))
			ps.writeStencil(dOff, oldS, newS)
			return false
		}
	}
	dcm := ps.dcm
	if dcm&1 != 0 {
		if !cmpFunc(dcm>>4&7, z, oldZ) {
			if st&1 != 0 && ps.stRead {
				newS = stencilOp(ps.stencilOp>>4&7, oldS, uint8(st>>16))
				ps.writeStencil(dOff, oldS, newS)
			}
			return false
		}
	}
	if st&1 != 0 && ps.stRead {
		newS = stencilOp(ps.stencilOp>>8&7, oldS, uint8(st>>16))
		ps.writeStencil(dOff, oldS, newS)
	}
	// Depth writes need the write bit even with the test off (L1991-L1994).
	if dcm>>12&1 != 0 && ps.depthWrite && ps.depthBuf != nil {
		writeDepth(ps.depthFmt, ps.depthBuf[dOff:], z)
	}
	return true
}

// writeColor blends (or applies the logic op to) colour c with the pixel
// at (x, row) and writes it through the colour mask.
func (ps *pixelState) writeColor(x, row int, c [4]uint8) {
	dcm := ps.dcm
	if !ps.colorWrite || dcm>>8&0xF == 0 {
		return
	}
	cOff := p.TileOffset(x, row, ps.width) * ps.cbpp
	if ps.blendCopy {
		p.EncodeColor(ps.colorFmt, ps.color[cOff:], c)
		return
	}
	dst := p.DecodeColor(ps.colorFmt, ps.color[cOff:])
	var out [4]uint8
	if ps.blend {
		out = ps.blendPixel(c, dst)
	} else {
		out = logicOp(ps.logicOp, c, dst)
	}
	for i := 0; i < 4; i++ {
		if dcm>>(8+uint(i))&1 == 0 {
			out[i] = dst[i]
		}
	}
	p.EncodeColor(ps.colorFmt, ps.color[cOff:], out)
}

func (ps *pixelState) writeStencil(off int, old, nv uint8) {
	if !ps.stWrite || ps.depthBuf == nil {
		return
	}
	wm := uint8(ps.stencil >> 8)
	ps.depthBuf[off+3] = old&^wm | nv&wm
}

func readDepth(f p.DepthFormat, b []byte) (uint32, uint8) {
	switch f {
	case p.DepthD16:
		return uint32(binary.LittleEndian.Uint16(b)), 0
	case p.DepthD24:
		return uint32(b[0]) | uint32(b[1])<<8 | uint32(b[2])<<16, 0
	}
	v := binary.LittleEndian.Uint32(b)
	return v & 0xFFFFFF, uint8(v >> 24)
}

func writeDepth(f p.DepthFormat, b []byte, z uint32) {
	switch f {
	case p.DepthD16:
		binary.LittleEndian.PutUint16(b, uint16(z))
	default:
		b[0], b[1], b[2] = byte(z), byte(z>>8), byte(z>>16)
	}
}

// cmpFunc applies compare code f (0 never, 1 always, 2 ==, 3 !=, 4 <, 5 <=,
// 6 >, 7 >=) as "a OP b".
func cmpFunc(f, a, b uint32) bool {
	switch f {
	case 0:
		return false
	case 1:
		return true
	case 2:
		return a == b
	case 3:
		return a != b
	case 4:
		return a < b
	case 5:
		return a <= b
	case 6:
		return a > b
	}
	return a >= b
}

// stencilOp applies a stencil operation; increment and decrement saturate
// ([OUT] citra; guide fact 24).
func stencilOp(op uint32, s, ref uint8) uint8 {
	switch op {
	case 1:
		return 0
	case 2:
		return ref
	case 3:
		if s == 255 {
			return 255
		}
		return s + 1
	case 4:
		if s == 0 {
			return 0
		}
		return s - 1
	case 5:
		return ^s
	case 6:
		return s + 1
	case 7:
		return s - 1
	}
	return s
}

// fog blends with the fog colour through the 128-entry LUT ([OUT] citra):
// index = depth*128 (or (1-depth)*128 with z flip), factor = (value +
// difference*fraction)/2047 clamped to [0, 1], colour = f*c + (1-f)*fog.
func (ps *pixelState) fog(c [4]uint8, depth float64) [4]uint8 {
	idx := depth * 128
	if ps.fogFlip {
		idx = (1 - depth) * 128
	}
	i := int(math.Floor(idx))
	i = max(0, min(127, i))
	frac := idx - float64(i)
	e := ps.fogTable[i]
	diff := float64(int32(e<<19) >> 19)
	val := float64(e >> 13 & 0x7FF)
	fv := max(0, min(1, (val+diff*frac)/2047))
	for k := 0; k < 3; k++ {
		c[k] = uint8(fv*float64(c[k]) + (1-fv)*float64(ps.fogColor[k]))
	}
	return c
}

func (ps *pixelState) blendPixel(s, d [4]uint8) [4]uint8 {
	bf := ps.blendFunc
	factor := func(code uint32, ch int) int {
		k := ps.blendColor
		switch code {
		case 0:
			return 0
		case 1:
			return 255
		case 2:
			return int(s[ch])
		case 3:
			return 255 - int(s[ch])
		case 4:
			return int(d[ch])
		case 5:
			return 255 - int(d[ch])
		case 6:
			return int(s[3])
		case 7:
			return 255 - int(s[3])
		case 8:
			return int(d[3])
		case 9:
			return 255 - int(d[3])
		case 10:
			return int(k[ch])
		case 11:
			return 255 - int(k[ch])
		case 12:
			return int(k[3])
		case 13:
			return 255 - int(k[3])
		case 14:
			if ch == 3 {
				return 255
			}
			return min(int(s[3]), 255-int(d[3]))
		}
		return 0
	}
	var out [4]uint8
	for ch := 0; ch < 4; ch++ {
		eq, sf, df := bf&7, bf>>16&0xF, bf>>20&0xF
		if ch == 3 {
			eq, sf, df = bf>>8&7, bf>>24&0xF, bf>>28&0xF
		}
		a := int(s[ch]) * factor(sf, ch)
		b := int(d[ch]) * factor(df, ch)
		var v int
		switch eq {
		case 1:
			v = (a - b) / 255
		case 2:
			v = (b - a) / 255
		case 3:
			v = min(int(s[ch]), int(d[ch]))
		case 4:
			v = max(int(s[ch]), int(d[ch]))
		default: // 0, and 5-7 act as add (L1843)
			v = (a + b) / 255
		}
		out[ch] = uint8(max(0, min(255, v)))
	}
	return out
}

// logicOp applies LOGIC_OP code op (the PICA's own order, L1874-L1893).
func logicOp(op uint32, s, d [4]uint8) [4]uint8 {
	var out [4]uint8
	for i := range out {
		a, b := s[i], d[i]
		var v uint8
		switch op {
		case 0:
			v = 0
		case 1:
			v = a & b
		case 2:
			v = a &^ b
		case 3:
			v = a
		case 4:
			v = 255
		case 5:
			v = ^a
		case 6:
			v = b
		case 7:
			v = ^b
		case 8:
			v = ^(a & b)
		case 9:
			v = a | b
		case 10:
			v = ^(a | b)
		case 11:
			v = a ^ b
		case 12:
			v = ^(a ^ b)
		case 13:
			v = ^a & b
		case 14:
			v = a | ^b
		case 15:
			v = ^a | b
		}
		out[i] = v
	}
	return out
}
