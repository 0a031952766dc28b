package pspge

import (
	"encoding/binary"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	ge "github.com/retrogl/retrogl/hal/pspge"
)

// transformSetup is an 8888 target with identity matrices and a 480x272
// viewport centred at 2048.
func transformSetup(p *psp) {
	p.init(3, 480, 272, 65535, 0)
	p.emit(ge.Word(ge.TME, 0), ge.Word(ge.SHADE, 0))
}

func f32le(vs ...float32) []byte {
	b := make([]byte, 4*len(vs))
	for i, v := range vs {
		binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(v))
	}
	return b
}

// TestSkinningAndMorph pins the vertex stages: two bones (identity and a
// +0.5 x translation) blended 50/50 move a quad by 0.25 NDC = 30 pixels;
// two morph targets at x -1 and +1 with MW 0.75/0.25 land at -0.5.
func TestSkinningAndMorph(t *testing.T) {
	p := newPSP(t)
	transformSetup(p)
	p.emit(ge.Word(ge.BOFS, 0))
	for _, v := range []float32{1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0.5, 0, 0} {
		p.emit(ge.WordF(ge.BONE, v))
	}
	// Weights (float x2), colour 8888, position float: a sprite from
	// (-0.1, -0.1) to (0.1, 0.1) before skinning.
	vt := ge.VType{Weight: ge.FmtFloat, Weights: 2, Color: ge.Color8888, Pos: ge.FmtFloat}
	var vb []byte
	for _, xy := range [][2]float32{{-0.1, -0.1}, {0.1, 0.1}} {
		vb = append(vb, f32le(0.5, 0.5)...)
		vb = binary.LittleEndian.AppendUint32(vb, 0xFF0000FF)
		vb = append(vb, f32le(xy[0], xy[1], 0)...)
	}
	require.Equal(t, 24, vt.Layout().Size)
	p.emit(p.vertices(vt, vb)...)
	p.emit(ge.Word(ge.PRIM, 6<<16|2))
	p.run()
	// Centre x = 240 + 0.25*240 = 300; the sprite spans 300±24.
	assert.Equal(t, uint32(0x0000FF), p.word32(300, 136)&0xFFFFFF)
	assert.Equal(t, uint32(0), p.word32(240, 136)&0xFFFFFF, "unskinned position left empty")

	transformSetup(p)
	p.emit(ge.WordF(ge.MW0, 0.75), ge.WordF(ge.MW0+1, 0.25))
	mt := ge.VType{Color: ge.Color8888, Pos: ge.FmtFloat, Morphs: 2}
	vb = vb[:0]
	for _, y := range []float32{-0.1, 0.1} {
		for _, x := range []float32{-1, 1} { // morph targets 0 and 1
			vb = binary.LittleEndian.AppendUint32(vb, 0xFF00FF00)
			vb = append(vb, f32le(x+y, y, 0)...)
		}
	}
	p.emit(p.vertices(mt, vb)...)
	p.emit(ge.Word(ge.PRIM, 6<<16|2))
	p.run()
	// x = 0.75*(-1) + 0.25*1 = -0.5 (+-0.1): pixel 120.
	assert.Equal(t, uint32(0x00FF00), p.word32(120, 136)&0xFFFFFF)
}

// TestEnvironmentMap checks TMAP mode 2: with light 0 directional along +x,
// a normal along +x gives s = (N.L + 1)/2 = 1 and a normal along +z s = 0.5,
// which picks the right or middle texel of a 4x1 texture (clamped).
func TestEnvironmentMap(t *testing.T) {
	for _, tc := range []struct {
		n    [3]float32
		want uint32
	}{{[3]float32{1, 0, 0}, 0x0000FF}, {[3]float32{0, 0, 1}, 0x00FF00}} {
		p := newPSP(t)
		transformSetup(p)
		require.NoError(t, p.d.Write(autoTex, le32(0xFF000000, 0xFF000000, 0xFF00FF00, 0xFF0000FF)))
		p.emit(ge.Word(ge.TME, 1), ge.Word(ge.TPSM, 3), ge.Word(ge.TMODE, 0), ge.Word(ge.TFLT, 0), ge.Word(ge.TWRAP, 0x101),
			ge.Word(ge.TFUNC, 3|0x100), ge.Word(ge.TMAP, 2), ge.Word(ge.TEXSHADE, 0),
			ge.Word(ge.LT0, 0), ge.WordF(ge.LXP0, 1), ge.WordF(ge.LXP0+1, 0), ge.WordF(ge.LXP0+2, 0))
		p.emit(texImage(2, 0, 4, autoTex)...)
		vt := ge.VType{Normal: ge.FmtFloat, Pos: ge.FmtFloat}
		var vb []byte
		for _, xy := range [][2]float32{{-0.5, -0.5}, {0.5, 0.5}} {
			vb = append(vb, f32le(tc.n[0], tc.n[1], tc.n[2], xy[0], xy[1], 0)...)
		}
		p.emit(p.vertices(vt, vb)...)
		p.emit(ge.Word(ge.PRIM, 6<<16|2))
		p.run()
		assert.Equal(t, tc.want, p.word32(240, 136)&0xFFFFFF, "normal %v", tc.n)
	}
}
