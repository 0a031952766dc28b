package texblock

import "testing"

// The values below are worked by hand from the extension specifications;
// driver's TestETC1 and TestDXT check more blocks through the texture
// layout.
func TestBlocks(t *testing.T) {
	// ETC1 individual mode, base 0x8 per channel (136), table 0, index 0: +2.
	if got := ETC1(uint64(0x84848400)<<32, 0, 0); got != [4]uint8{138, 138, 138, 255} {
		t.Errorf("ETC1 = %v", got)
	}
	// S3TC: c0 red, c1 blue, texel 2 index 2 = (2*red + blue)/3.
	blk := []byte{0x00, 0xF8, 0x1F, 0x00, 0b11100100, 0, 0, 0}
	if got := S3TCColor(blk, 2, true); got != [4]uint8{170, 0, 85, 255} {
		t.Errorf("S3TC four-colour = %v", got)
	}
	// c0 <= c1: index 3 is transparent black in DXT1, a colour otherwise.
	blk = []byte{0x1F, 0x00, 0x00, 0xF8, 0b11100100, 0, 0, 0}
	if got := S3TCColor(blk, 3, true); got != [4]uint8{0, 0, 0, 0} {
		t.Errorf("DXT1 punch-through = %v", got)
	}
	if got := S3TCColor(blk, 3, false); got != [4]uint8{170, 0, 85, 255} {
		t.Errorf("DXT3/5 colour block = %v", got)
	}
	// DXT3: texel 1 is the high nibble of byte 0; DXT5 index 2 with a0 > a1.
	if got := DXT3Alpha([]byte{0xA5}, 1); got != 0xAA {
		t.Errorf("DXT3Alpha = %#x", got)
	}
	if got := DXT5Alpha([]byte{255, 0, 2, 0, 0, 0, 0, 0}, 0); got != 218 {
		t.Errorf("DXT5Alpha = %d", got)
	}
}
