package multipass

import (
	"fmt"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/retrogl/retrogl/driver"
	"github.com/retrogl/retrogl/driver/swtnl"
)

// Chip is what a driver implements to run the fallback's programs. Tiles
// are rectangles of window pixels; a register covers one tile at a time.
type Chip interface {
	// Registers readies n registers and returns their size in pixels,
	// which is the largest tile the runner hands out.
	Registers(n int) (w, h int, err error)
	// Pass runs register operation op over tile t, drawing batch b (or
	// the tile's rectangle when op.F.Geometry() is false).
	Pass(t Rect, b *Batch, op Op) error
	// Upload stores the software stage's colours for tile t (t.W() x
	// t.H() RGBA bytes, row 0 the tile's bottom row) in register r.
	Upload(t Rect, r Reg, pix []byte) error
	// Composite draws batch b into the framebuffer inside tile t with the
	// application's per-fragment state, each fragment's colour and alpha
	// coming from the program's registers (Program.Color, Alpha).
	Composite(t Rect, b *Batch, p *Program) error
}

// Stats count what a Run did.
type Stats struct {
	// Batches and Tiles are the overlap-free batches and the register
	// tiles they were drawn in; Passes the chip passes (register
	// operations, alpha merges, uploads and composites).
	Batches, Tiles, Passes int
	// SoftwarePixels is the number of pixels the CPU shaded.
	SoftwarePixels int
}

// Add accumulates s into the receiver.
func (s *Stats) Add(o Stats) {
	s.Batches += o.Batches
	s.Tiles += o.Tiles
	s.Passes += o.Passes
	s.SoftwarePixels += o.SoftwarePixels
}

// Run executes program p for a draw's window-space mesh: the mesh is cut
// into overlap-free batches (Batches), each batch's box into register
// tiles, and each tile runs the register operations (or the software
// stage) and then the composite. bounds is the drawable rectangle (the
// surface, scissor and viewport).
func Run(chip Chip, st *driver.State, p *Program, m *swtnl.Mesh, fp Footprint, bounds Rect) (Stats, error) {
	var s Stats
	if bounds.Empty() {
		return s, nil
	}
	batches := Batches(m, fp, bounds)
	if len(batches) == 0 {
		return s, nil
	}
	tw, th, err := chip.Registers(max(p.Regs, 1))
	if err != nil {
		return s, fmt.Errorf("multipass: registers: %w", err)
	}
	if tw <= 0 || th <= 0 {
		return s, fmt.Errorf("multipass: the chip offers %dx%d registers", tw, th)
	}
	for i := range batches {
		b := &batches[i]
		s.Batches++
		for y := b.Box.Y0; y < b.Box.Y1; y += th {
			for x := b.Box.X0; x < b.Box.X1; x += tw {
				t := Rect{x, y, min(x+tw, b.Box.X1), min(y+th, b.Box.Y1)}
				s.Tiles++
				if p.Software {
					pix := Shade(st, b, t, fp)
					s.SoftwarePixels += t.W() * t.H()
					if err := chip.Upload(t, p.Color, pix); err != nil {
						return s, err
					}
				}
				for _, op := range p.Ops {
					if err := chip.Pass(t, b, op); err != nil {
						return s, err
					}
				}
				if err := chip.Composite(t, b, p); err != nil {
					return s, err
				}
				s.Passes += p.Passes
			}
		}
	}
	return s, nil
}

// PrimaryColor returns a vertex's colour for a per-vertex source (VPrimary
// with its operand and constant, VConst, VWhite, VFog).
func PrimaryColor(f Frag, st *driver.State, v *swtnl.Vertex) [4]float32 {
	switch f.V {
	case VConst:
		return f.K
	case VPrimary:
		c := v.Color
		switch f.VOp {
		case driver.OperandOneMinusSrcColor:
			c = [4]float32{1 - c[0], 1 - c[1], 1 - c[2], 1 - c[3]}
		case driver.OperandSrcAlpha:
			c = [4]float32{c[3], c[3], c[3], c[3]}
		case driver.OperandOneMinusSrcAlpha:
			c = [4]float32{1 - c[3], 1 - c[3], 1 - c[3], 1 - c[3]}
		}
		if f.VK {
			for k := range c {
				c[k] *= f.K[k]
			}
		}
		return c
	case VFog:
		fc := st.Fog.Color
		return [4]float32{fc[0], fc[1], fc[2], 1 - clamp01(v.Fog)}
	}
	return [4]float32{1, 1, 1, 1}
}

// Derived makes and keeps textures whose texels are an operand of another
// texture's (1 - colour, alpha in every channel, 1 - alpha), in RGBA8888
// with the same levels and sampler, for chips whose texture stage cannot
// apply the operand itself. Derived textures have IDs of their own,
// counting down from 0xFFFFFFFF, so a chip's texture cache keeps them
// apart from the application's.
type Derived struct {
	m    map[derivedKey]*driver.Texture
	next uint32
}

type derivedKey struct {
	id     uint32
	gen    uint64
	op     driver.CombineOperand
	mirror [2]bool
}

// Get returns t with operand op applied to every texel.
func (d *Derived) Get(t *driver.Texture, op driver.CombineOperand) *driver.Texture {
	if d.m == nil {
		d.m = map[derivedKey]*driver.Texture{}
		d.next = 0xFFFFFFFF
	}
	k := derivedKey{id: t.ID, gen: t.Gen, op: op}
	if g, ok := d.m[k]; ok {
		g.Sampler = t.Sampler
		return g
	}
	for old := range d.m {
		if old.id == t.ID && old.gen != t.Gen {
			delete(d.m, old)
		}
	}
	g := &driver.Texture{ID: d.next, Gen: t.Gen, Format: driver.TexRGBA8888, Sampler: t.Sampler, Crop: t.Crop}
	d.next--
	for l := range t.Levels {
		lv := &t.Levels[l]
		data := make([]byte, 4*lv.Width*lv.Height)
		for y := 0; y < lv.Height; y++ {
			for x := 0; x < lv.Width; x++ {
				p := t.TexelRGBA8(l, x, y)
				switch op {
				case driver.OperandOneMinusSrcColor:
					p = [4]uint8{255 - p[0], 255 - p[1], 255 - p[2], 255 - p[3]}
				case driver.OperandSrcAlpha:
					p = [4]uint8{p[3], p[3], p[3], p[3]}
				case driver.OperandOneMinusSrcAlpha:
					a := 255 - p[3]
					p = [4]uint8{a, a, a, a}
				}
				copy(data[4*(y*lv.Width+x):], p[:])
			}
		}
		g.Levels = append(g.Levels, driver.Level{Width: lv.Width, Height: lv.Height, Data: data})
	}
	d.m[k] = g
	return g
}

// Mirrored returns t for a chip without GL_MIRRORED_REPEAT: every level
// doubled along each axis whose wrap mode is MIRRORED_REPEAT (the level
// followed by its mirror image), with REPEAT there. Sampled at half the
// coordinate along those axes (ScaleMirrored), it gives GL's mirrored
// repeat exactly, filters and level of detail included: texel -1 is texel 0
// again and the doubled level has twice the texels over twice the period.
func (d *Derived) Mirrored(t *driver.Texture) *driver.Texture {
	ms, mt := t.Sampler.WrapS == driver.WrapMirroredRepeat, t.Sampler.WrapT == driver.WrapMirroredRepeat
	if !ms && !mt {
		return t
	}
	if d.m == nil {
		d.m = map[derivedKey]*driver.Texture{}
		d.next = 0xFFFFFFFF
	}
	k := derivedKey{id: t.ID, gen: t.Gen, mirror: [2]bool{ms, mt}}
	if g, ok := d.m[k]; ok {
		g.Sampler = mirroredSampler(t.Sampler)
		return g
	}
	// The copy keeps the base format (an ALPHA texture stays ALPHA, RGB
	// stays RGB): the texture environment's rules depend on it (MODULATE
	// passes the fragment colour through an alpha texture, REPLACE keeps
	// the fragment alpha over an RGB one), so widening every texture to
	// RGBA would change what GL draws.
	f, unpack := mirroredFormat(t.Base())
	bpp := f.BytesPerTexel()
	g := &driver.Texture{ID: d.next, Gen: t.Gen, Format: f, Sampler: mirroredSampler(t.Sampler), Crop: t.Crop}
	d.next--
	for l := range t.Levels {
		lv := &t.Levels[l]
		w, h := lv.Width, lv.Height
		if ms {
			w *= 2
		}
		if mt {
			h *= 2
		}
		data := make([]byte, bpp*w*h)
		for y := 0; y < h; y++ {
			sy := y
			if sy >= lv.Height {
				sy = 2*lv.Height - 1 - y
			}
			for x := 0; x < w; x++ {
				sx := x
				if sx >= lv.Width {
					sx = 2*lv.Width - 1 - x
				}
				unpack(data[bpp*(y*w+x):], t.TexelRGBA8(l, sx, sy))
			}
		}
		g.Levels = append(g.Levels, driver.Level{Width: w, Height: h, Data: data})
	}
	d.m[k] = g
	return g
}

// mirroredFormat is the 8-bit-per-channel format of base format b and how
// an RGBA8 texel (TexelRGBA8: luminance in red, alpha-only texels black)
// is stored in it.
func mirroredFormat(b driver.BaseFormat) (driver.TexFormat, func([]byte, [4]uint8)) {
	switch b {
	case driver.BaseRGB:
		return driver.TexRGB888, func(d []byte, p [4]uint8) { copy(d, p[:3]) }
	case driver.BaseAlpha:
		return driver.TexA8, func(d []byte, p [4]uint8) { d[0] = p[3] }
	case driver.BaseLuminance:
		return driver.TexL8, func(d []byte, p [4]uint8) { d[0] = p[0] }
	case driver.BaseLuminanceAlpha:
		return driver.TexLA88, func(d []byte, p [4]uint8) { d[0], d[1] = p[0], p[3] }
	}
	return driver.TexRGBA8888, func(d []byte, p [4]uint8) { copy(d, p[:]) }
}

func mirroredSampler(s driver.Sampler) driver.Sampler {
	if s.WrapS == driver.WrapMirroredRepeat {
		s.WrapS = driver.WrapRepeat
	}
	if s.WrapT == driver.WrapMirroredRepeat {
		s.WrapT = driver.WrapRepeat
	}
	return s
}

// ScaleMirrored returns a texture matrix that follows m with the halving
// of the coordinates along the mirrored axes of sampler s (Mirrored).
func ScaleMirrored(m mgl32.Mat4, s driver.Sampler) mgl32.Mat4 {
	sc := mgl32.Ident4()
	if s.WrapS == driver.WrapMirroredRepeat {
		sc[0] = 0.5
	}
	if s.WrapT == driver.WrapMirroredRepeat {
		sc[5] = 0.5
	}
	return sc.Mul4(m)
}

// Release forgets the derived textures of texture id and returns their
// IDs, for the chip's texture cache.
func (d *Derived) Release(id uint32) []uint32 {
	var ids []uint32
	for k, t := range d.m {
		if k.id == id {
			ids = append(ids, t.ID)
			delete(d.m, k)
		}
	}
	return ids
}
