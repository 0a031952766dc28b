package unichrome

import "fmt"

// TexKind is how a texture format's texels read.
type TexKind uint8

// The texel kinds of 7Bh (L2706-2708).
const (
	KindInvalid   TexKind = iota
	KindIndex             // palette index (palette 0, ARGB8888)
	KindIntensity         // I: every channel = I
	KindLuminance         // L: RGB = L, A = 1
	KindAlpha             // A: RGB = 0
	KindLumAlpha          // AL44 / AL88
	KindRGBA              // packed channels
	KindDXT1
	KindDXT3
	KindDXT5
	KindYUV  // not simulated: the conversion coefficients A, B1, C1 are lost
	KindBump // reserved in the seed
)

// Chan is a channel's place in a texel: bit shift and width (0 = absent).
type Chan struct{ Shift, Bits uint8 }

// TexFormatInfo describes one 8-bit texture format code (7Bh bits 23:16:
// group 23:19, sub-format 18:16).
type TexFormatInfo struct {
	Code uint8
	Name string
	Kind TexKind
	// Bits per texel (4 for DXT1, 8 for DXT3/5: per texel of a 4x4 block).
	Bits int
	// R, G, B, A locate the channels of a KindRGBA texel in its
	// little-endian 16- or 32-bit word; for L/A/I/AL formats R holds the
	// luminance or intensity and A the alpha.
	R, G, B, A Chan
}

// Texture format groups (7Bh bits 23:19).
const (
	GroupIndex     = 0x00
	GroupIntensity = 0x01
	GroupLuminance = 0x02
	GroupAlpha     = 0x03
	GroupDXT       = 0x05
	GroupYUV       = 0x06
	GroupBump      = 0x07
	GroupARGB16    = 0x11
	GroupARGB32    = 0x13
	GroupABGR16    = 0x15
	GroupABGR32    = 0x17
	GroupRGBA16    = 0x19
	GroupRGBA32    = 0x1B
	GroupBGRA16    = 0x1D
	GroupBGRA32    = 0x1F
)

// TexCode returns the 8-bit format code of a group and sub-format.
func TexCode(group, sub uint8) uint8 { return group<<3 | sub&7 }

// Texture format codes the driver uses (guide §8 fact 25: ABGR8888 ->
// 0xB9, RGB565 -> 0x89, L8 -> 0x13).
var (
	TexABGR8888 = TexCode(GroupABGR32, 1)
	TexABGR0888 = TexCode(GroupABGR32, 0)
	TexRGB565   = TexCode(GroupARGB16, 1)
	TexRGBA4444 = TexCode(GroupRGBA16, 3)
	TexRGBA5551 = TexCode(GroupRGBA16, 2)
	TexL8       = TexCode(GroupLuminance, 3)
	TexA8       = TexCode(GroupAlpha, 3)
	TexAL88     = TexCode(GroupLuminance, 5)
	TexI8       = TexCode(GroupIndex, 3)
	TexI4       = TexCode(GroupIndex, 2)
	TexDXT1     = TexCode(GroupDXT, 1)
	TexDXT3     = TexCode(GroupDXT, 2)
	TexDXT5     = TexCode(GroupDXT, 3)
)

// texFormats lists every code the seed defines (L2706-2708), with [OUT]
// Index8.
var texFormats = func() map[uint8]TexFormatInfo {
	m := map[uint8]TexFormatInfo{}
	add := func(group, sub uint8, name string, kind TexKind, bits int, r, g, b, a Chan) {
		c := TexCode(group, sub)
		m[c] = TexFormatInfo{Code: c, Name: name, Kind: kind, Bits: bits, R: r, G: g, B: b, A: a}
	}
	none := Chan{}
	for i, n := range []int{1, 2, 4, 8} {
		add(GroupIndex, uint8(i), fmt.Sprintf("I%d", n), KindIndex, n, Chan{0, uint8(n)}, none, none, none)
		add(GroupIntensity, uint8(i), fmt.Sprintf("T%d", n), KindIntensity, n, Chan{0, uint8(n)}, none, none, Chan{0, uint8(n)})
		add(GroupLuminance, uint8(i), fmt.Sprintf("L%d", n), KindLuminance, n, Chan{0, uint8(n)}, none, none, none)
		add(GroupAlpha, uint8(i), fmt.Sprintf("A%d", n), KindAlpha, n, none, none, none, Chan{0, uint8(n)})
	}
	add(GroupLuminance, 4, "AL44", KindLumAlpha, 8, Chan{0, 4}, none, none, Chan{4, 4})
	add(GroupLuminance, 5, "AL88", KindLumAlpha, 16, Chan{0, 8}, none, none, Chan{8, 8})
	add(GroupDXT, 1, "DXT1", KindDXT1, 4, none, none, none, none)
	add(GroupDXT, 2, "DXT23", KindDXT3, 8, none, none, none, none)
	add(GroupDXT, 3, "DXT45", KindDXT5, 8, none, none, none, none)
	for i, n := range []string{"YUY2", "AYUV", "IA44", "AI44", "YUV_PLANAR", "YUV_Y_VU"} {
		bits := []int{16, 32, 8, 8, 8, 8}[i]
		add(GroupYUV, uint8(i), n, KindYUV, bits, none, none, none, none)
	}
	add(GroupBump, 0, "VU88", KindBump, 16, none, none, none, none)
	add(GroupBump, 1, "LVU655", KindBump, 16, none, none, none, none)
	add(GroupBump, 2, "LVU888", KindBump, 32, none, none, none, none)
	// 16-bit formats. ARGB16 sub 010 = 1555 and 011 = 4444 (L2708): the
	// reverse of the destination's 010 = 4444 (guide fact 22).
	type c16 struct {
		sub        uint8
		name       string
		r, g, b, a Chan
	}
	argb16 := []c16{
		{0, "RGB555", Chan{10, 5}, Chan{5, 5}, Chan{0, 5}, none},
		{1, "RGB565", Chan{11, 5}, Chan{5, 6}, Chan{0, 5}, none},
		{2, "ARGB1555", Chan{10, 5}, Chan{5, 5}, Chan{0, 5}, Chan{15, 1}},
		{3, "ARGB4444", Chan{8, 4}, Chan{4, 4}, Chan{0, 4}, Chan{12, 4}},
	}
	rgba16 := []c16{
		{0, "RGBA5550", Chan{11, 5}, Chan{6, 5}, Chan{1, 5}, none},
		{2, "RGBA5551", Chan{11, 5}, Chan{6, 5}, Chan{1, 5}, Chan{0, 1}},
		{3, "RGBA4444", Chan{12, 4}, Chan{8, 4}, Chan{4, 4}, Chan{0, 4}},
	}
	swap := func(s string) string { // ARGB -> ABGR, RGBA -> BGRA in names
		b := []byte(s)
		for i := range b {
			switch b[i] {
			case 'R':
				b[i] = 'B'
			case 'B':
				b[i] = 'R'
			}
		}
		return string(b)
	}
	for _, f := range argb16 {
		add(GroupARGB16, f.sub, f.name, KindRGBA, 16, f.r, f.g, f.b, f.a)
		add(GroupABGR16, f.sub, swap(f.name), KindRGBA, 16, f.b, f.g, f.r, f.a)
	}
	for _, f := range rgba16 {
		add(GroupRGBA16, f.sub, f.name, KindRGBA, 16, f.r, f.g, f.b, f.a)
		add(GroupBGRA16, f.sub, swap(f.name), KindRGBA, 16, f.b, f.g, f.r, f.a)
	}
	add(GroupARGB32, 0, "ARGB0888", KindRGBA, 32, Chan{16, 8}, Chan{8, 8}, Chan{0, 8}, none)
	add(GroupARGB32, 1, "ARGB8888", KindRGBA, 32, Chan{16, 8}, Chan{8, 8}, Chan{0, 8}, Chan{24, 8})
	add(GroupABGR32, 0, "ABGR0888", KindRGBA, 32, Chan{0, 8}, Chan{8, 8}, Chan{16, 8}, none)
	add(GroupABGR32, 1, "ABGR8888", KindRGBA, 32, Chan{0, 8}, Chan{8, 8}, Chan{16, 8}, Chan{24, 8})
	add(GroupRGBA32, 0, "RGBA8880", KindRGBA, 32, Chan{24, 8}, Chan{16, 8}, Chan{8, 8}, none)
	add(GroupRGBA32, 1, "RGBA8888", KindRGBA, 32, Chan{24, 8}, Chan{16, 8}, Chan{8, 8}, Chan{0, 8})
	add(GroupBGRA32, 0, "BGRA8880", KindRGBA, 32, Chan{8, 8}, Chan{16, 8}, Chan{24, 8}, none)
	add(GroupBGRA32, 1, "BGRA8888", KindRGBA, 32, Chan{8, 8}, Chan{16, 8}, Chan{24, 8}, Chan{0, 8})
	return m
}()

// TexFormatOf returns the description of a format code.
func TexFormatOf(code uint8) (TexFormatInfo, bool) {
	f, ok := texFormats[code]
	return f, ok
}

// TexFormatName names a format code ("ABGR8888", or "RSV_xx").
func TexFormatName(code uint8) string {
	if f, ok := texFormats[code]; ok {
		return f.Name
	}
	return fmt.Sprintf("RSV_%02X", code)
}

// Destination buffer format codes (42h bits 19:16, L2506; guide fact 21:
// ARGB8888 = 0x09, RGB565 = 0x01).
const (
	DstRGB555   = 0x0
	DstRGB565   = 0x1
	DstARGB4444 = 0x2
	DstARGB1555 = 0x3
	DstBGR555   = 0x4
	DstBGR565   = 0x5
	DstABGR4444 = 0x6
	DstABGR1555 = 0x7
	DstARGB0888 = 0x8
	DstARGB8888 = 0x9
	DstABGR0888 = 0xA
	DstABGR8888 = 0xB
	DstYUY2     = 0xF
)

// DstFormatInfo describes a destination format: bytes per pixel and the
// channels of its little-endian word (A absent for the x888/555/565 forms).
type DstFormatInfo struct {
	Code       uint8
	Bytes      int
	R, G, B, A Chan
}

// DstFormatOf returns the layout of a destination format code, or false for
// a reserved code. YUY2 returns Bytes 4 per pixel pair (handled apart).
func DstFormatOf(code uint8) (DstFormatInfo, bool) {
	none := Chan{}
	d := DstFormatInfo{Code: code, Bytes: 2}
	switch code & 0xF {
	case DstRGB555:
		d.R, d.G, d.B = Chan{10, 5}, Chan{5, 5}, Chan{0, 5}
	case DstRGB565:
		d.R, d.G, d.B = Chan{11, 5}, Chan{5, 6}, Chan{0, 5}
	case DstARGB4444:
		d.R, d.G, d.B, d.A = Chan{8, 4}, Chan{4, 4}, Chan{0, 4}, Chan{12, 4}
	case DstARGB1555:
		d.R, d.G, d.B, d.A = Chan{10, 5}, Chan{5, 5}, Chan{0, 5}, Chan{15, 1}
	case DstBGR555:
		d.B, d.G, d.R = Chan{10, 5}, Chan{5, 5}, Chan{0, 5}
	case DstBGR565:
		d.B, d.G, d.R = Chan{11, 5}, Chan{5, 6}, Chan{0, 5}
	case DstABGR4444:
		d.B, d.G, d.R, d.A = Chan{8, 4}, Chan{4, 4}, Chan{0, 4}, Chan{12, 4}
	case DstABGR1555:
		d.B, d.G, d.R, d.A = Chan{10, 5}, Chan{5, 5}, Chan{0, 5}, Chan{15, 1}
	case DstARGB0888, DstARGB8888:
		d.Bytes = 4
		d.R, d.G, d.B = Chan{16, 8}, Chan{8, 8}, Chan{0, 8}
		if code == DstARGB8888 {
			d.A = Chan{24, 8}
		}
	case DstABGR0888, DstABGR8888:
		d.Bytes = 4
		d.B, d.G, d.R = Chan{16, 8}, Chan{8, 8}, Chan{0, 8}
		if code == DstABGR8888 {
			d.A = Chan{24, 8}
		}
	case DstYUY2:
		d.Bytes = 2
		d.R, d.G, d.B, d.A = none, none, none, none
	default:
		return d, false
	}
	return d, true
}
