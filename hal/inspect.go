package hal

import (
	"fmt"
	"image"
	"image/color"
	"sort"
	"sync"
)

// Inspecting a command stream: what a frame debugger learns from the
// chip's decoder without running anything. Each hal/<chip> package
// registers an Inspector that walks command buffers one command at a time,
// tells which commands start and end a primitive (the draw boundaries,
// taken from the chip's command table) and keeps the chip's state as the
// commands set it: the register file as decoded fields, the render targets
// and bound textures as surfaces a tool can read from device memory, and the
// shader programs disassembled. A tool built on it needs no chip's name.

// DrawMark says how a command takes part in a draw, a primitive (or a run
// of primitives) the chip rasterises.
type DrawMark uint8

const (
	// DrawBegin marks the command that starts a primitive.
	DrawBegin DrawMark = 1 << iota
	// DrawEnd marks the command after which the primitive's pixels have
	// all been written. A single command that draws (a PSP PRIM, a PM4
	// draw packet) carries both marks.
	DrawEnd
)

// Command is one command of a buffer, the unit the chip's command processor
// takes at a time (a word, a packet, a register-write frame), with the
// registered decoder's lines for its words.
type Command struct {
	// Offset is the command's byte offset from the start of the buffer.
	Offset uint32
	// Size is its length in bytes. A last command of size 0 carries the
	// decoder's lines about a damaged tail.
	Size uint32
	// Lines are the decoder's lines for the command's words ("address
	// word text"); the lines of all commands of a buffer, in order, are
	// the decoder's listing of it.
	Lines []string
	// Draw marks the commands that start and end a primitive.
	Draw DrawMark
}

// SurfaceKind says what a surface holds.
type SurfaceKind uint8

// The surface kinds.
const (
	SurfaceColor SurfaceKind = iota
	SurfaceDepth
	SurfaceStencil
	SurfaceTexture
)

func (k SurfaceKind) String() string {
	switch k {
	case SurfaceColor:
		return "colour"
	case SurfaceDepth:
		return "depth"
	case SurfaceStencil:
		return "stencil"
	case SurfaceTexture:
		return "texture"
	}
	return fmt.Sprintf("SurfaceKind(%d)", k)
}

// Surface is an image in device memory that the chip's state points at: a
// render target (colour, depth, stencil) or a bound texture.
type Surface struct {
	Kind SurfaceKind
	// Name says which one: "colour buffer", "texture unit 1".
	Name string
	// Addr is the device address of its first byte.
	Addr uint32
	// Width and Height are its size in pixels (texels).
	Width, Height int
	// Format is the chip's name for its format; Info says more (layout,
	// palette, level).
	Format, Info string
	// Pixel gives the device address and the byte count of pixel (x, y),
	// 0 <= x < Width, 0 <= y < Height (row 0 first in memory), and the
	// bit its value starts at: the stored value is those bytes read
	// little-endian, shifted right by shift and masked with Mask (the
	// stencil bits of a colour word, the depth bits of a depth-stencil
	// word, one bit of a 1-bit stencil byte). Nil for surfaces whose
	// texels are not separate (block-compressed textures).
	Pixel func(x, y int) (addr uint32, n int, shift uint)
	// Mask selects the value's bits once shifted.
	Mask uint32
	// Color gives the colour a stored value shows as; nil for depth and
	// stencil, which tools show as scaled grey.
	Color func(v uint32) color.NRGBA
	// Decode reads the surface from memory when it has no Pixel (or its
	// texels need more than their own bytes, such as a palette): it
	// returns the image; Values may be nil.
	Decode func(read func(addr uint32, p []byte) error) (*Picture, error)
}

// Picture is a surface read from memory.
type Picture struct {
	// Image holds the colours; nil for depth and stencil surfaces.
	Image *image.NRGBA
	// Values holds each pixel's stored value, row-major; nil when the
	// surface has no per-pixel values (block-compressed textures).
	Values []uint32
	// Max is the largest value the surface's bits can hold.
	Max uint32
}

// Value returns the stored value of a pixel from its bytes and shift.
func (s *Surface) Value(p []byte, shift uint) uint32 { return le(p) >> shift & s.Mask }

// le reads up to four bytes little-endian.
func le(p []byte) uint32 {
	var v uint32
	for i := len(p) - 1; i >= 0 && i < 4; i-- {
		v = v<<8 | uint32(p[i])
	}
	return v
}

// maxSurfacePixels bounds what Read decodes: a damaged register value must
// not make a tool allocate gigabytes.
const maxSurfacePixels = 4096 * 4096

// Read decodes the surface from device memory with read.
func (s *Surface) Read(read func(addr uint32, p []byte) error) (*Picture, error) {
	if s.Width <= 0 || s.Height <= 0 || s.Width*s.Height > maxSurfacePixels {
		return nil, fmt.Errorf("%s: size %dx%d out of range", s.Name, s.Width, s.Height)
	}
	if s.Pixel == nil {
		if s.Decode == nil {
			return nil, fmt.Errorf("%s: no decoder", s.Name)
		}
		return s.Decode(read)
	}
	// Read the span the pixels cover at once.
	lo, hi := uint64(1<<32), uint64(0)
	for _, c := range [][2]int{{0, 0}, {s.Width - 1, 0}, {0, s.Height - 1}, {s.Width - 1, s.Height - 1}} {
		a, n, _ := s.Pixel(c[0], c[1])
		lo = min(lo, uint64(a))
		hi = max(hi, uint64(a)+uint64(n))
	}
	if hi-lo > 64<<20 {
		return nil, fmt.Errorf("%s: spans %d bytes", s.Name, hi-lo)
	}
	mem := make([]byte, hi-lo)
	if err := read(uint32(lo), mem); err != nil {
		return nil, fmt.Errorf("%s at %#08x: %w", s.Name, s.Addr, err)
	}
	pic := &Picture{Values: make([]uint32, s.Width*s.Height), Max: s.Mask}
	if s.Color != nil {
		pic.Image = image.NewNRGBA(image.Rect(0, 0, s.Width, s.Height))
	}
	for y := 0; y < s.Height; y++ {
		for x := 0; x < s.Width; x++ {
			a, n, shift := s.Pixel(x, y)
			off := uint64(a) - lo
			if off+uint64(n) > uint64(len(mem)) {
				return nil, fmt.Errorf("%s: pixel (%d, %d) at %#08x outside the surface's span", s.Name, x, y, a)
			}
			v := s.Value(mem[off:off+uint64(n)], shift)
			pic.Values[y*s.Width+x] = v
			if pic.Image != nil {
				pic.Image.SetNRGBA(x, y, s.Color(v))
			}
		}
	}
	return pic, nil
}

// Program is a shader program as loaded on the chip, disassembled.
type Program struct {
	// Name says which one: "fragment program", "vertex shader".
	Name string
	// Lines is its disassembly.
	Lines []string
}

// RegisterValue is one register of the chip's state as last written.
type RegisterValue struct {
	// Name is the register's name in the chip's specification.
	Name string
	// Addr is its address (or command number, register ID).
	Addr uint32
	// Value is the value written.
	Value uint32
	// Text is the value as decoded fields.
	Text string
}

// Inspector follows a chip's state through its command stream. One
// Inspector walks the buffers of a capture in submission order, since
// state carries over from one buffer to the next.
type Inspector interface {
	// Walk decodes buf, a command buffer at device address base, and
	// calls fn for each command once the command's effect on the state
	// is applied, until fn returns false.
	Walk(buf []byte, base uint32, fn func(Command) bool)
	// Registers returns the registers written so far, in address order.
	Registers() []RegisterValue
	// Surfaces returns the render targets (colour, then depth and
	// stencil) and the textures bound to enabled units, as the state
	// stands.
	Surfaces() []Surface
	// Programs returns the shader programs the state holds,
	// disassembled.
	Programs() []Program
}

var (
	inspMu     sync.Mutex
	inspectors = map[string]func() Inspector{}
)

// RegisterInspector registers the Inspector constructor of a chip (backend
// name). It panics on a duplicate, since registration happens in init
// functions.
func RegisterInspector(chip string, f func() Inspector) {
	inspMu.Lock()
	defer inspMu.Unlock()
	if _, dup := inspectors[chip]; dup {
		panic("hal: duplicate inspector for " + chip)
	}
	inspectors[chip] = f
}

// NewInspector returns a fresh Inspector for chip, its state as a reset
// chip's.
func NewInspector(chip string) (Inspector, error) {
	inspMu.Lock()
	defer inspMu.Unlock()
	f, ok := inspectors[chip]
	if !ok {
		var names []string
		for n := range inspectors {
			names = append(names, n)
		}
		sort.Strings(names)
		return nil, fmt.Errorf("no inspector for chip %q (have %v)", chip, names)
	}
	return f(), nil
}
