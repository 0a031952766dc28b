package unichrome

import (
	"fmt"
	"math/bits"

	"github.com/retrogl/retrogl/driver"
	"github.com/retrogl/retrogl/hal"
	uc "github.com/retrogl/retrogl/hal/unichrome"
)

// devTex is a texture object's copy in VRAM.
type devTex struct {
	id     uint32
	gen    uint64
	alloc  hal.Allocation
	code   uint8
	levels []devLevel
	used   uint64 // the uploader batch whose commands last bound it
}

type devLevel struct {
	addr       uint32
	pitch      int
	wlog, hlog int
}

// texCode is the engine format a GL format uploads as, and whether the
// data is copied as is (else converted to ABGR8888 texel by texel).
func texCode(f driver.TexFormat) (code uint8, direct bool) {
	switch f {
	case driver.TexRGBA8888:
		return uc.TexABGR8888, true // bytes R, G, B, A
	case driver.TexRGB888:
		return uc.TexABGR0888, false // widened to 4 bytes
	case driver.TexRGB565:
		return uc.TexRGB565, true // u16 R 15:11, as GL
	case driver.TexRGBA4444:
		return uc.TexRGBA4444, true // u16 R 15:12 ... A 3:0
	case driver.TexRGBA5551:
		return uc.TexRGBA5551, true // u16 R 15:11 ... A 0
	case driver.TexL8:
		return uc.TexL8, true
	case driver.TexA8:
		return uc.TexA8, true
	case driver.TexLA88:
		return uc.TexAL88, true // bytes L, A = u16 A 15:8, L 7:0
	case driver.TexDXT1, driver.TexDXT1A:
		return uc.TexDXT1, true
	case driver.TexDXT3:
		return uc.TexDXT3, true
	case driver.TexDXT5:
		return uc.TexDXT5, true
	}
	// Paletted and ETC1: decoded to ABGR8888.
	return uc.TexABGR8888, false
}

func log2(n int) int { return bits.Len(uint(n)) - 1 }

// upload returns the device copy of t, converting and writing it when t
// is new or changed.
func (c *Context) upload(t *driver.Texture) (*devTex, error) {
	if dt, ok := c.textures[t.ID]; ok {
		if dt.gen == t.Gen {
			dt.used = c.up.Batch()
			return dt, nil
		}
		c.ReleaseTexture(t.ID)
	}
	code, direct := texCode(t.Format)
	info, _ := uc.TexFormatOf(code)
	dt := &devTex{id: t.ID, gen: t.Gen, code: code}
	if len(t.Levels) > uc.MaxTexLevels {
		return nil, fmt.Errorf("unichrome: texture %d has %d levels, the engine reads 12", t.ID, len(t.Levels))
	}
	type plan struct {
		off, pitch, rows int
		data             []byte
	}
	var plans []plan
	total := 0
	for l, lv := range t.Levels {
		w, h := lv.Width, lv.Height
		var pitch, rows int
		var data []byte
		switch info.Kind {
		case uc.KindDXT1, uc.KindDXT3, uc.KindDXT5:
			bs := 8
			if info.Kind != uc.KindDXT1 {
				bs = 16
			}
			pitch, rows = (w+3)/4*bs, (h+3)/4
			data = lv.Data
		default:
			pitch, rows = w*info.Bits/8, h
			if direct {
				data = lv.Data
			} else {
				data = make([]byte, 4*w*h)
				for y := 0; y < h; y++ {
					for x := 0; x < w; x++ {
						p := t.TexelRGBA8(l, x, y)
						copy(data[4*(y*w+x):], p[:])
					}
				}
			}
		}
		if pitch&(pitch-1) != 0 {
			return nil, fmt.Errorf("unichrome: texture %d level %d pitch %d is not a power of two", t.ID, l, pitch)
		}
		if len(data) < pitch*rows {
			return nil, fmt.Errorf("unichrome: texture %d level %d holds %d bytes, want %d", t.ID, l, len(data), pitch*rows)
		}
		total = (total + 31) &^ 31
		plans = append(plans, plan{off: total, pitch: pitch, rows: rows, data: data[:pitch*rows]})
		dt.levels = append(dt.levels, devLevel{pitch: pitch, wlog: log2(w), hlog: log2(h)})
		total += pitch * rows
	}
	var a hal.Allocation
	err := driver.RetryOutOfMemory(func() (err error) {
		a, err = c.dev.Alloc(uint32(max(total, 32)), 256, "vram")
		return err
	}, func() error { return c.up.Reclaim(c.Flush, nil) })
	if err != nil {
		return nil, fmt.Errorf("unichrome: texture %d: %w", t.ID, err)
	}
	dt.alloc = a
	for i, p := range plans {
		dt.levels[i].addr = a.Addr + uint32(p.off)
		if err := c.dev.Write(dt.levels[i].addr, p.data); err != nil {
			return nil, fmt.Errorf("unichrome: texture %d upload: %w", t.ID, err)
		}
	}
	dt.used = c.up.Batch()
	c.textures[t.ID] = dt
	return dt, nil
}

// ReleaseTexture implements driver.Context: the memory is freed once every
// list that may read it has completed.
func (c *Context) ReleaseTexture(id uint32) {
	dt, ok := c.textures[id]
	if !ok {
		return
	}
	delete(c.textures, id)
	_ = c.up.Release(dt.alloc, dt.used) // submitted lists may still read it
	// The shadow may still name the old addresses; a new texture at the
	// same address must be sent again.
	for g := grpTex0; g <= grpTex1; g++ {
		c.cmd.valid[g] = [256]bool{}
	}
}

var filterCode = [...]uint32{driver.FilterNearest: 0, driver.FilterLinear: 1,
	driver.FilterNearestMipmapNearest: 0, driver.FilterLinearMipmapNearest: 1,
	driver.FilterNearestMipmapLinear: 0, driver.FilterLinearMipmapLinear: 1}

var mipCode = [...]string{driver.FilterNearest: "LEVEL0", driver.FilterLinear: "LEVEL0",
	driver.FilterNearestMipmapNearest: "NEAREST", driver.FilterLinearMipmapNearest: "NEAREST",
	driver.FilterNearestMipmapLinear: "LINEAR", driver.FilterLinearMipmapLinear: "LINEAR"}

var wrapCode = [...]string{driver.WrapRepeat: "REPEAT", driver.WrapClampToEdge: "CLAMP", driver.WrapMirroredRepeat: "MIRROR"}

var texRegs = struct {
	fm, lod, tb, mp, clod, w05, w6b, h05, h6b *uc.Reg
}{
	uc.Named(uc.SpaceTex, "HTXnFM"), uc.Named(uc.SpaceTex, "HTXnL0OS"), uc.Named(uc.SpaceTex, "HTXnTB"),
	uc.Named(uc.SpaceTex, "HTXnMPMD"), uc.Named(uc.SpaceTex, "HTXnCLODu"),
	uc.Named(uc.SpaceTex, "HTXnL0_5WE"), uc.Named(uc.SpaceTex, "HTXnL6_BWE"),
	uc.Named(uc.SpaceTex, "HTXnL0_5HE"), uc.Named(uc.SpaceTex, "HTXnL6_BHE"),
}

// setTexture programs chip texture n (02h, SubType n) for t.
func (c *Context) setTexture(n int, t *driver.Texture, dt *devTex) {
	g := grpTex0 + n
	var highs [4]uint32
	var we, he [2]uint32
	for l, lv := range dt.levels {
		c.cmd.set(g, uint8(uc.TexBaseL0+l), lv.addr&0xFFFFFF)
		highs[l/3] |= (lv.addr >> 24) << (8 * uint(l%3))
		c.cmd.set(g, uint8(uc.TexPitch0+l), uint32(log2(lv.pitch))<<20)
		we[l/6] |= uint32(lv.wlog) << (4 * uint(l%6))
		he[l/6] |= uint32(lv.hlog) << (4 * uint(l%6))
	}
	for i := 0; i <= (len(dt.levels)-1)/3; i++ {
		c.cmd.set(g, uint8(uc.TexBaseH012+i), highs[i])
	}
	c.cmd.set(g, uc.TexWidth05, we[0])
	c.cmd.set(g, uc.TexHeight05, he[0])
	if len(dt.levels) > 6 {
		c.cmd.set(g, uc.TexWidth6B, we[1])
		c.cmd.set(g, uc.TexHeight6B, he[1])
	}
	s := t.Sampler
	maxLevel := 0
	if s.MinFilter.Mipmapped() {
		maxLevel = len(dt.levels) - 1
	}
	c.cmd.set(g, uc.TexLOD, texRegs.lod.Build("lvmax", maxLevel, "lvmin", 0))
	mag := filterCode[s.MagFilter]
	min := filterCode[s.MinFilter]
	c.cmd.set(g, uc.TexFilter, texRegs.tb.Build("mag_s", mag, "mag_t", mag, "min_s", min, "min_t", min, "mip", mipCode[s.MinFilter]))
	c.cmd.set(g, uc.TexWrapMode, texRegs.mp.Build("s", wrapCode[s.WrapS], "t", wrapCode[s.WrapT]))
	c.cmd.set(g, uc.TexLODConst, 0)
	c.cmd.set(g, uc.TexFormat, texRegs.fm.Build("fmt", dt.code, "loc", "LOCAL"))
}
