package r300

import (
	"math"

	r3 "github.com/retrogl/retrogl/hal/r300"
)

// drawState is the register file decoded once per draw: the per-draw
// specialisation of the pipeline. prepare validates it and faults on
// configurations the simulator does not model.
type drawState struct {
	els []element
	out outputs
	// pvs is the vertex program, nil in PVS bypass.
	pvs *pvsState
	// prepared is set when the draw's vertices are shaded, measured
	// against the clip planes and mapped as they are fetched
	// (assemble.go), with vshade.
	prepared bool
	vshade   vertexShading

	// VAP viewport transform and clipping (L2076-2121, L1763-1828).
	vte            uint32
	vp             [6]float64 // xscale, xoffset, yscale, yoffset, zscale, zoffset
	clip, dxClip   bool
	gbHorz, gbVert float64
	// ucp holds the enabled user clip planes (clip.go); ucpCull is
	// UCP_CULL_ONLY_ENA.
	ucp                    [][4]float32
	ucpCull                bool
	sub                    int64 // subpixels per pixel (12 or 16)
	roundNearest           bool
	gaOffX, gaOffY         int64
	wOne                   bool
	fogSel                 uint32
	provoking              uint32
	shadeRGB, shadeA       [4]uint32
	solid                  [4]float32
	rgbClamp8, alphaClamp8 bool // [-8, 8) instead of [0, 1]

	polyMode, frontPT, backPT uint32
	pointW, pointH            int64
	pointMin, pointMax        int64
	lineW                     int64
	lineEnd                   uint32
	pointStuff, lineStuff     bool
	stippleReset              uint32
	stippleScale              float64
	lineS                     [2]float64
	texSource                 [8]uint32
	pointST                   [4]float32 // S0, T0, S1, T1

	cullFront, cullBack, faceCW bool
	polyOffset                  [2]bool // front, back
	polyScale, polyOff          [2]float64
	depthScale, depthOffset     float64

	edge               [6]uint32 // tri, point, line LR, RL, TB, BT
	sx0, sy0, sx1, sy1 int       // scissor, inclusive
	clipRects          [4][4]int
	clipRule           uint32

	// writes lists the buffers the draw writes; serial is set when the
	// draw must be shaded serially (batch.go).
	writes []memSpan
	serial bool
	// fast is the state compiled for the span pipeline (span.go).
	fast *fastPipe

	rs  rsState
	us  *usProg
	tex [16]texUnit
	fg  fgState
	zb  zbState
	cb  cbState
}

func f32reg(v uint32) float64 { return float64(math.Float32frombits(v)) }

func s312(v uint32) float32 { return float32(int16(v)) / 4096 }

func (e *Engine) prepare(prim r3.PrimType) (*drawState, error) {
	s := &drawState{}
	var err error
	if s.els, err = e.streamElements(); err != nil {
		return nil, err
	}
	if s.out, err = e.outputFormat(); err != nil {
		return nil, err
	}
	if e.reg(r3.VAP_CNTL_STATUS)>>8&1 == 0 {
		if e.noTCL {
			return nil, faultf("VAP_CNTL_STATUS.PVS_BYPASS is clear, but this %s has no TCL engine (L1796: \"logically or physically removed\")", RevisionNoTCL)
		}
		if s.pvs, err = e.preparePVS(); err != nil {
			return nil, err
		}
	}
	if e.reg(r3.VAP_CNTL_STATUS)&3 != 0 {
		return nil, faultf("VAP_CNTL_STATUS.VC_SWAP endian swapping is not simulated")
	}
	s.vte = e.reg(r3.VAP_VTE_CNTL)
	for i := range s.vp {
		s.vp[i] = f32reg(e.reg(r3.VAP_VPORT_XSCALE + 4*uint32(i)))
	}
	cc := e.reg(r3.VAP_CLIP_CNTL)
	s.clip = cc>>16&1 == 0
	if s.clip && cc&63 != 0 {
		if err := e.prepareUCP(s, cc, prim); err != nil {
			return nil, err
		}
	}
	s.dxClip = e.reg(r3.VAP_CNTL)>>22&1 != 0
	s.gbHorz = f32reg(e.reg(r3.VAP_GB_HORZ_CLIP_ADJ))
	s.gbVert = f32reg(e.reg(r3.VAP_GB_VERT_CLIP_ADJ))

	tc := e.reg(r3.GB_TILE_CONFIG)
	s.sub = 12
	if tc>>16&1 != 0 {
		s.sub = 16
	}
	if e.reg(r3.GB_AA_CONFIG)&1 != 0 {
		return nil, faultf("GB_AA_CONFIG.AA_ENABLE: anti-aliasing is not simulated")
	}
	gb := e.reg(r3.GB_ENABLE)
	if gb&4 != 0 {
		return nil, faultf("GB_ENABLE: triangle texture stuffing is not simulated")
	}
	s.lineStuff = gb&2 != 0
	if gb>>4&3 != 0 {
		return nil, faultf("GB_ENABLE.STENCIL_AUTO is not simulated")
	}
	s.pointStuff = gb&1 != 0
	for t := 0; t < 8; t++ {
		s.texSource[t] = gb >> (16 + 2*uint(t)) & 3
		if s.texSource[t] == 3 {
			return nil, faultf("GB_ENABLE.TEX%d_SOURCE 3 is reserved", t)
		}
	}
	sel := e.reg(r3.GB_SELECT)
	s.fogSel = sel & 7
	if s.fogSel > 5 {
		return nil, faultf("GB_SELECT.FOG_SELECT %d is reserved", s.fogSel)
	}
	if sel>>3&1 != 0 {
		return nil, faultf("GB_SELECT.DEPTH_SELECT W-buffering is not simulated")
	}
	s.wOne = sel>>4&1 != 0

	rm := e.reg(r3.GA_ROUND_MODE)
	s.roundNearest = rm&3 == 1
	s.rgbClamp8, s.alphaClamp8 = rm>>4&1 != 0, rm>>5&1 != 0
	off := e.reg(r3.GA_OFFSET)
	s.gaOffX, s.gaOffY = int64(int16(off)), int64(int16(off>>16))
	cctl := e.reg(r3.GA_COLOR_CONTROL)
	for k := 0; k < 4; k++ {
		s.shadeRGB[k] = cctl >> (4 * uint(k)) & 3
		s.shadeA[k] = cctl >> (4*uint(k) + 2) & 3
		if s.shadeRGB[k] == 3 || s.shadeA[k] == 3 {
			return nil, faultf("GA_COLOR_CONTROL: shading mode 3 of colour %d is reserved", k)
		}
	}
	s.provoking = cctl >> 16 & 3
	rg, ba := e.reg(r3.GA_SOLID_RG), e.reg(r3.GA_SOLID_BA)
	s.solid = [4]float32{s312(rg >> 16), s312(rg), s312(ba >> 16), s312(ba)}
	pm := e.reg(r3.GA_POLY_MODE)
	s.polyMode, s.frontPT, s.backPT = pm&3, pm>>4&7, pm>>7&7
	if s.polyMode > 1 || (s.polyMode == 1 && (s.frontPT > 2 || s.backPT > 2)) {
		return nil, faultf("GA_POLY_MODE %#x uses reserved values", pm)
	}
	ps := e.reg(r3.GA_POINT_SIZE)
	s.pointH, s.pointW = int64(ps&0xFFFF), int64(ps>>16)
	mm := e.reg(r3.GA_POINT_MINMAX)
	s.pointMin, s.pointMax = int64(mm&0xFFFF), int64(mm>>16)
	lc := e.reg(r3.GA_LINE_CNTL)
	s.lineW, s.lineEnd = int64(lc&0xFFFF), lc>>16&3
	sc := e.reg(r3.GA_LINE_STIPPLE_CFG)
	s.stippleReset = sc & 3
	if s.stippleReset == 3 {
		return nil, faultf("GA_LINE_STIPPLE_CONFIG.LINE_RESET 3 is reserved")
	}
	// STIPPLE_SCALE is a float truncated to 30 bits (L619).
	s.stippleScale = f32reg(sc &^ 3)
	s.lineS = [2]float64{f32reg(e.reg(r3.GA_LINE_S0)), f32reg(e.reg(r3.GA_LINE_S1))}
	for i := range s.pointST {
		s.pointST[i] = math.Float32frombits(e.reg(r3.GA_POINT_S0 + 4*uint32(i)))
	}

	cm := e.reg(r3.SU_CULL_MODE)
	s.cullFront, s.cullBack, s.faceCW = cm&1 != 0, cm&2 != 0, cm&4 != 0
	pe := e.reg(r3.SU_POLY_OFFSET_ENABLE)
	s.polyOffset = [2]bool{pe&1 != 0, pe&2 != 0}
	s.polyScale = [2]float64{f32reg(e.reg(r3.SU_POLY_OFFSET_FRONT_SCALE)), f32reg(e.reg(r3.SU_POLY_OFFSET_BACK_SCALE))}
	s.polyOff = [2]float64{f32reg(e.reg(r3.SU_POLY_OFFSET_FRONT_OFFSET)), f32reg(e.reg(r3.SU_POLY_OFFSET_BACK_OFFSET))}
	s.depthScale = f32reg(e.reg(r3.SU_DEPTH_SCALE))
	s.depthOffset = f32reg(e.reg(r3.SU_DEPTH_OFFSET))
	if e.reg(r3.SU_TEX_WRAP) != 0 {
		return nil, faultf("SU_TEX_WRAP: cylindrical wrapping is not simulated")
	}

	er := e.reg(r3.SC_EDGERULE)
	for i := range s.edge {
		s.edge[i] = er >> (5 * uint(i)) & 31
	}
	s0, s1 := e.reg(r3.SC_SCISSOR0), e.reg(r3.SC_SCISSOR1)
	s.sx0, s.sy0 = int(s0&0x1FFF), int(s0>>13&0x1FFF)
	s.sx1, s.sy1 = int(s1&0x1FFF), int(s1>>13&0x1FFF)
	for i := range s.clipRects {
		a, b := e.reg(r3.SC_CLIP_0_A+8*uint32(i)), e.reg(r3.SC_CLIP_0_B+8*uint32(i))
		s.clipRects[i] = [4]int{int(a & 0x1FFF), int(a >> 13 & 0x1FFF), int(b & 0x1FFF), int(b >> 13 & 0x1FFF)}
	}
	s.clipRule = e.reg(r3.SC_CLIP_RULE) & 0xFFFF
	if e.reg(r3.SC_SCREENDOOR)&1 == 0 {
		// SC_SCREENDOOR bit 0 clear: no sample may be covered (L1163).
		s.clipRule = 0
	}
	if e.reg(r3.SC_HYPERZ_EN)&1 != 0 || e.reg(r3.ZB_BW_CNTL)&0x1D != 0 {
		return nil, faultf("HiZ, Z compression and fast fill (SC_HYPERZ_EN, ZB_BW_CNTL) are not simulated")
	}

	if err := e.prepareRS(s); err != nil {
		return nil, err
	}
	if s.us, err = e.prepareUS(); err != nil {
		return nil, err
	}
	if err := e.prepareTX(s); err != nil {
		return nil, err
	}
	if err := e.prepareFG(s); err != nil {
		return nil, err
	}
	if err := e.prepareZB(s); err != nil {
		return nil, err
	}
	if err := e.prepareCB(s); err != nil {
		return nil, err
	}
	e.prepareRaster(s)
	return s, nil
}
