package r300

// Comp is one texel component: Bits bits at Shift, component 0 holding the
// least significant bits ("components are numbered right to left", L1382).
type Comp struct {
	Shift, Bits uint8
}

// TexFormat describes a TX_FORMAT1.TXFORMAT code.
type TexFormat struct {
	Code uint8
	Name string
	// Bits is the size of one texel; BlockBytes the size of a 4x4 block
	// of a compressed format (Bits is 0 then).
	Bits       int
	BlockBytes int
	// Comps lists the components, component 0 first; Float marks IEEE
	// half (16-bit) or single (32-bit) components.
	Comps []Comp
	Float bool
	// Simulated is false for the formats sim/r300 does not decode (YUV,
	// MPEG, W24_FP): a draw that samples one faults.
	Simulated bool
}

func c(shift, bits uint8) Comp { return Comp{shift, bits} }

// TexFormats is indexed by TXFORMAT. The component layouts follow the
// names (listed MSB first, guide §4); DXT1/3/5 decode to components R, G,
// B, A from component 0 [PROP], so the identity swizzle reads them.
var TexFormats = [32]TexFormat{
	{0, "8", 8, 0, []Comp{c(0, 8)}, false, true},
	{1, "16", 16, 0, []Comp{c(0, 16)}, false, true},
	{2, "4_4", 8, 0, []Comp{c(0, 4), c(4, 4)}, false, true},
	{3, "8_8", 16, 0, []Comp{c(0, 8), c(8, 8)}, false, true},
	{4, "16_16", 32, 0, []Comp{c(0, 16), c(16, 16)}, false, true},
	{5, "3_3_2", 8, 0, []Comp{c(0, 2), c(2, 3), c(5, 3)}, false, true},
	{6, "5_6_5", 16, 0, []Comp{c(0, 5), c(5, 6), c(11, 5)}, false, true},
	{7, "6_5_5", 16, 0, []Comp{c(0, 5), c(5, 5), c(10, 6)}, false, true},
	{8, "11_11_10", 32, 0, []Comp{c(0, 10), c(10, 11), c(21, 11)}, false, true},
	{9, "10_11_11", 32, 0, []Comp{c(0, 11), c(11, 11), c(22, 10)}, false, true},
	{10, "4_4_4_4", 16, 0, []Comp{c(0, 4), c(4, 4), c(8, 4), c(12, 4)}, false, true},
	{11, "1_5_5_5", 16, 0, []Comp{c(0, 5), c(5, 5), c(10, 5), c(15, 1)}, false, true},
	{12, "8_8_8_8", 32, 0, []Comp{c(0, 8), c(8, 8), c(16, 8), c(24, 8)}, false, true},
	{13, "2_10_10_10", 32, 0, []Comp{c(0, 10), c(10, 10), c(20, 10), c(30, 2)}, false, true},
	{14, "16_16_16_16", 64, 0, []Comp{c(0, 16), c(16, 16), c(32, 16), c(48, 16)}, false, true},
	{15, "DXT1", 0, 8, nil, false, true},
	{16, "DXT3", 0, 16, nil, false, true},
	{17, "DXT5", 0, 16, nil, false, true},
	{18, "Y8", 8, 0, nil, false, false},
	{19, "AVYU444", 32, 0, nil, false, false},
	{20, "VYUY422", 16, 0, nil, false, false},
	{21, "YVYU422", 16, 0, nil, false, false},
	{22, "16_MPEG", 16, 0, nil, false, false},
	{23, "16_16_MPEG", 32, 0, nil, false, false},
	{24, "16F", 16, 0, []Comp{c(0, 16)}, true, true},
	{25, "16F_16F", 32, 0, []Comp{c(0, 16), c(16, 16)}, true, true},
	{26, "16F_16F_16F_16F", 64, 0, []Comp{c(0, 16), c(16, 16), c(32, 16), c(48, 16)}, true, true},
	{27, "32F", 32, 0, []Comp{c(0, 32)}, true, true},
	{28, "32F_32F", 64, 0, []Comp{c(0, 32), c(32, 32)}, true, true},
	{29, "32F_32F_32F_32F", 128, 0, []Comp{c(0, 32), c(32, 32), c(64, 32), c(96, 32)}, true, true},
	{30, "W24_FP", 32, 0, nil, false, false},
	{31, "RESERVED31", 0, 0, nil, false, false},
}

// Texture format codes named in code.
const (
	TxFmt8       = 0
	TxFmt8_8     = 3
	TxFmt5_6_5   = 6
	TxFmt4_4_4_4 = 10
	TxFmt1_5_5_5 = 11
	TxFmt8_8_8_8 = 12
	TxFmtDXT1    = 15
	TxFmtDXT3    = 16
	TxFmtDXT5    = 17
)

// TexLevel is the memory layout of one mipmap level.
type TexLevel struct {
	// Offset is the byte offset from TX_OFFSET.TXOFFSET.
	Offset        uint32
	Width, Height int
	// Pitch is the distance in bytes between rows of texels (rows of
	// 4x4 blocks for compressed formats); Size the level's bytes.
	Pitch, Size uint32
}

func align32(n uint32) uint32 { return (n + 31) &^ 31 }

// TexLayout returns the layout of levels mipmap levels of a w x h texture.
// The seed gives no mip layout (guide §6 "Missing"); ours [PROP], shared by
// the driver and the simulator: linear rows whose pitch is rounded up to 32
// bytes (the "32 byte cache line", L1457), levels one after another from
// level 0, each starting on a 32-byte boundary. With TXPITCH_EN, pitch is
// the level-0 row length in texels (TX_FORMAT2.TXPITCH+1) and level l uses
// pitch>>l.
func TexLayout(f *TexFormat, w, h, levels, pitch int) []TexLevel {
	out := make([]TexLevel, 0, levels)
	var off uint32
	for l := 0; l < levels; l++ {
		lw, lh := max(1, w>>l), max(1, h>>l)
		row := lw
		if pitch > 0 {
			row = max(1, pitch>>l)
		}
		var lv TexLevel
		lv.Offset, lv.Width, lv.Height = off, lw, lh
		if f.BlockBytes > 0 {
			lv.Pitch = align32(uint32((row + 3) / 4 * f.BlockBytes))
			lv.Size = lv.Pitch * uint32((lh+3)/4)
		} else {
			lv.Pitch = align32(uint32(row * f.Bits / 8))
			lv.Size = lv.Pitch * uint32(lh)
		}
		out = append(out, lv)
		off += align32(lv.Size)
	}
	return out
}
