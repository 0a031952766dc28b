package unichrome

import "fmt"

// TokKind is what a dword of a command buffer is.
type TokKind uint8

// The dword kinds a Walker reports.
const (
	TokHeader1  TokKind = iota // header 1; one data dword follows
	TokHeader2                 // header 2; a transmission setting follows
	TokTransSet                // a transmission setting (after header 2, or header 1 to 0x43C)
	TokFire                    // header 1 data written to HE3Fire (0x400)
	TokMMIO                    // header 1 data written to another MMIO offset
	TokParam                   // a type 01h/02h/10h/FEh parameter
	TokPalette                 // a type 03h palette dword
	TokCmdA                    // Command A
	TokCmdB                    // Command B
	TokVertex                  // one vertex component
	TokRepeat                  // a repeated list-end Command A (alignment), a no-op
	TokPad                     // a pad dword (CCCCCCCCh / DDDDDDDDh, sub-address CCh/DDh)
	TokError                   // a dword the CR rejects
)

var tokNames = [...]string{"HEADER1", "HEADER2", "TRANSSET", "FIRE", "MMIO", "PARAM", "PALETTE", "CMDA", "CMDB", "VERTEX", "REPEAT", "PAD", "ERROR"}

// String returns the kind's name.
func (k TokKind) String() string {
	if int(k) < len(tokNames) {
		return tokNames[k]
	}
	return fmt.Sprintf("TokKind(%d)", uint8(k))
}

// Token is one dword as the CR reads it.
type Token struct {
	Kind TokKind
	Word uint32
	// Off is the MMIO offset of header-1 data (TokFire, TokMMIO, and
	// parameters or settings that arrived through header 1).
	Off uint32
	// Space and SubType are the transmission setting in force; SubAddr and
	// Data split a parameter dword.
	Space   Space
	SubType uint8
	SubAddr uint8
	Data    uint32
	// Index is the palette dword index (TokPalette) or the vertex number in
	// its list (TokVertex).
	Index int
	// Comp is the vertex component; Last is set on a vertex's last dword.
	Comp Comp
	Last bool
	// ListStart is set on a Command A that opens a list (or changes the
	// command of an open one), ListEnd on one with HPLEND.
	ListStart, ListEnd bool
	// ErrBit is the HRErr bit a TokError sets, Reason why.
	ErrBit uint32
	Reason string
}

const (
	modeHeader = iota
	modeH1Data
	modeTransSet
	modeParams
)

const (
	listNone = iota
	listOpen
	listEnded
)

// Walker reads a command buffer dword by dword with the CR's grammar
// (guide §1.2, §7 proposal (a)/(b)):
//   - Outside a parameter stream a dword must be a header: header 1
//     ((w & FFFFFE00h) == F0000000h) carries exactly one data dword for MMIO
//     offset (w & 1FFh)<<2; header 2 (F210F110h) is followed by a
//     transmission setting and then parameters until the next header.
//     Header 3 and 4 are not simulated (the seed gives no layout).
//   - Writes to 0x43C set the transmission setting, writes to 0x440-0x6FC
//     push a parameter into one FIFO (the address is irrelevant, as the
//     DRM's use of 0x440 + (4n & 63) shows) and a write to 0x400 fires.
//   - In type 00h a list is Command B (optional after the first), Command
//     A, then vertices of len(Layout) dwords; a Command A at a vertex
//     boundary ends the list when HPLEND is set (or opens a new one with
//     new settings when not); inside an open list no header is recognised
//     (L2016: "CR cannot detect if any command header happen in the
//     vertex transmission"). After the list end the same Command A may be
//     repeated for 64-bit alignment.
//   - A palette dword that reads as a header ends the palette: the grammar
//     has no other way to end type 03h data. Drivers must not send such
//     entries (ARGB F0000000h-F00001FFh and F210F110h).
//
// The walker keeps the texture count from 02h/FEh sub-address 00h (HTXNum)
// because the vertex layout depends on it; it survives buffers, as the
// register does.
type Walker struct {
	mode      int
	h1Off     uint32
	lastWasH1 bool
	space     Space
	ptype     ParaType
	sub       uint8
	tsValid   bool
	palIndex  int
	palSize   int

	list     int
	cmdB     uint32
	haveCmdB bool
	lastA    uint32
	layout   []Comp
	comp     int
	vertex   int
	// Textures is HTXNum + 1, the number of texture coordinate sets.
	Textures int
}

// NewWalker returns a walker in its reset state (one texture).
func NewWalker() *Walker { return &Walker{Textures: 1} }

// Reset returns the walker to the state after a CR reset; the texture
// count, a register, survives.
func (w *Walker) Reset() {
	t := w.Textures
	*w = Walker{Textures: max(t, 1)}
}

// InList reports whether a vertex list is open (Command A seen, no list end
// yet).
func (w *Walker) InList() bool { return w.list == listOpen }

// CmdBWord returns the Command B in force.
func (w *Walker) CmdBWord() uint32 { return w.cmdB }

func isHeader1(x uint32) bool { return x&Header1Mask == Header1 }

func isHeaderAny(x uint32) bool {
	return isHeader1(x) || x == Header2 || x&HeaderMask == Header3 || x&HeaderMask == Header4
}

func errTok(x uint32, bit uint32, format string, args ...any) Token {
	return Token{Kind: TokError, Word: x, ErrBit: bit, Reason: fmt.Sprintf(format, args...)}
}

// Next reads one dword.
func (w *Walker) Next(x uint32) Token {
	switch w.mode {
	case modeH1Data:
		w.mode = modeHeader
		w.lastWasH1 = true
		return w.h1Data(x)
	case modeTransSet:
		w.mode = modeParams
		t := w.transSet(x)
		t.Off = RegTransSet
		return t
	case modeParams:
		if !(w.space == SpaceCmd && w.list == listOpen) && isHeaderAny(x) {
			return w.header(x)
		}
		return w.param(x)
	}
	return w.header(x)
}

func (w *Walker) header(x uint32) Token {
	h1 := w.lastWasH1
	w.lastWasH1 = false
	switch {
	case isHeader1(x):
		w.mode = modeH1Data
		w.h1Off = (x & 0x1FF) << 2
		return Token{Kind: TokHeader1, Word: x, Off: w.h1Off}
	case x == Header2:
		if w.list == listOpen {
			w.mode = modeHeader
			return errTok(x, ErrUnexpectedHdr, "header 2 inside an open vertex list (no HPLEND yet)")
		}
		w.mode = modeTransSet
		return Token{Kind: TokHeader2, Word: x}
	case x&HeaderMask == Header3, x&HeaderMask == Header4:
		w.mode = modeHeader
		return errTok(x, ErrIllegalCommand, "header %d is not simulated (the seed gives no layout)", 3+(x>>25&1))
	case x == PadCC || x == PadDD:
		w.mode = modeHeader
		return Token{Kind: TokPad, Word: x}
	}
	w.mode = modeHeader
	if h1 {
		return errTok(x, ErrH1Overflow, "header 1 followed by more than one data dword")
	}
	return errTok(x, ErrUnexpectedHdr, "dword where a command header was expected")
}

func (w *Walker) h1Data(x uint32) Token {
	off := w.h1Off
	switch {
	case off == RegFire:
		if w.list == listOpen && w.comp != 0 {
			return errTok(x, ErrIllegalCommand, "HE3Fire in the middle of a vertex")
		}
		return Token{Kind: TokFire, Word: x, Off: off}
	case off == RegTransSet:
		t := w.transSet(x)
		t.Off = off
		return t
	case off >= RegPara0 && off <= RegParaLast:
		t := w.param(x)
		t.Off = off
		return t
	}
	return Token{Kind: TokMMIO, Word: x, Off: off, Data: x}
}

func (w *Walker) transSet(x uint32) Token {
	t, sub, _, adr := SplitTransSet(x)
	if w.list == listOpen {
		return errTok(x, ErrUnexpectedHdr, "transmission setting changed inside an open vertex list")
	}
	sp, ok := SpaceOf(t, sub)
	if !ok {
		w.tsValid = false
		return errTok(x, ErrIllegalCommand, "reserved transmission setting: HParaType %02Xh, HParaSubType %02Xh", uint8(t), sub)
	}
	w.space, w.ptype, w.sub, w.tsValid = sp, t, sub, true
	w.palIndex = int(adr)
	switch sub {
	case SubTexPalette:
		w.palSize = TexPaletteDwords
	case SubFogPalette:
		w.palSize = FogPaletteDwords
	default:
		w.palSize = StippleDwords
	}
	w.list = listNone
	return Token{Kind: TokTransSet, Word: x, Space: sp, SubType: sub, Data: x}
}

func (w *Walker) param(x uint32) Token {
	if !w.tsValid {
		return errTok(x, ErrIllegalCommand, "parameter without a valid transmission setting")
	}
	switch w.space {
	case SpaceCmd:
		return w.cmd(x)
	case SpacePalette:
		if w.palIndex >= w.palSize {
			return errTok(x, ErrIllegalCommand, "palette %02Xh overflow: dword %d of %d", w.sub, w.palIndex, w.palSize)
		}
		t := Token{Kind: TokPalette, Word: x, Space: w.space, SubType: w.sub, Index: w.palIndex, Data: x}
		w.palIndex++
		return t
	}
	sa := uint8(x >> 24)
	if sa == 0xCC || sa == 0xDD {
		return Token{Kind: TokPad, Word: x, Space: w.space, SubType: w.sub}
	}
	if sa == 0xFF {
		return errTok(x, ErrIllegalCommand, "sub-address FFh is prohibited (L2334)")
	}
	space := w.space
	if space == SpaceAttr && sa >= AttrAGPStartL && sa <= AttrAGPPauseH {
		// Listed under type 01h (L2534), shadowed under 10h: one file.
		space = SpacePreCR
	}
	if Table[space][sa] == nil {
		return errTok(x, ErrIllegalCommand, "undefined sub-address %02Xh in %s", sa, w.space)
	}
	if w.space == SpaceTexGen && sa == TexGenMode {
		w.Textures = int(x>>3&7) + 1
	}
	return Token{Kind: TokParam, Word: x, Space: space, SubType: w.sub, SubAddr: sa, Data: x & 0xFFFFFF}
}

// VertexData is Next for a vertex dword without building the Token: when
// the walker is inside an open list and x is vertex data (not a Command A
// at a vertex boundary), it takes x as Next does and returns the
// component, the vertex's number in its list and whether x completes the
// vertex; otherwise it changes nothing and ok is false.
func (w *Walker) VertexData(x uint32) (c Comp, index int, last, ok bool) {
	if w.mode != modeParams || w.space != SpaceCmd || w.list != listOpen || !w.tsValid ||
		w.comp == 0 && x>>25 == CmdAHeader {
		return 0, 0, false, false
	}
	c, index = w.layout[w.comp], w.vertex
	w.comp++
	if w.comp == len(w.layout) {
		last = true
		w.comp = 0
		w.vertex++
	}
	return c, index, last, true
}

func (w *Walker) cmd(x uint32) Token {
	if w.list == listOpen {
		if w.comp == 0 && x>>25 == CmdAHeader {
			t := Token{Kind: TokCmdA, Word: x, Space: SpaceCmd, Data: x}
			w.lastA = x
			if x&CmdAPLEnd != 0 {
				w.list = listEnded
				t.ListEnd = true
				return t
			}
			return w.open(t)
		}
		c := w.layout[w.comp]
		t := Token{Kind: TokVertex, Word: x, Space: SpaceCmd, Comp: c, Index: w.vertex, Data: x}
		w.comp++
		if w.comp == len(w.layout) {
			t.Last = true
			w.comp = 0
			w.vertex++
		}
		return t
	}
	switch {
	case x>>25 == CmdBHeader:
		w.cmdB, w.haveCmdB = x, true
		return Token{Kind: TokCmdB, Word: x, Space: SpaceCmd, Data: x}
	case x>>25 == CmdAHeader:
		if w.list == listEnded && x == w.lastA {
			return Token{Kind: TokRepeat, Word: x, Space: SpaceCmd, Data: x}
		}
		w.lastA = x
		t := Token{Kind: TokCmdA, Word: x, Space: SpaceCmd, Data: x}
		if x&CmdAPLEnd != 0 {
			// An empty list: opened and ended by one word.
			t.ListStart, t.ListEnd = true, true
			w.list = listEnded
			return t
		}
		return w.open(t)
	case x == PadCC || x == PadDD:
		return Token{Kind: TokPad, Word: x, Space: SpaceCmd}
	}
	return errTok(x, ErrIllegalCommand, "expected Command A or B in a type 00h stream")
}

// open starts a vertex list with the Command B in force.
func (w *Walker) open(t Token) Token {
	x := t.Word
	if !w.haveCmdB {
		w.list = listNone
		return errTok(x, ErrIllegalCommand, "Command A without a preceding Command B")
	}
	if w.cmdB&MaskXYZW == 0 {
		w.list = listNone
		return errTok(x, ErrIllegalCommand, "vertex mask %s has none of X, Y, Z, W (L2329)", MaskText(w.cmdB))
	}
	if w.Textures > 2 {
		w.list = listNone
		return errTok(x, ErrIllegalCommand, "HTXNum says %d textures; the engine has 2", w.Textures)
	}
	w.layout = Layout(w.cmdB, w.Textures)
	w.comp, w.vertex = 0, 0
	w.list = listOpen
	t.ListStart = true
	return t
}

// End checks the state at the end of a buffer: a header without its data or
// an open list is an error.
func (w *Walker) End() (Token, bool) {
	switch {
	case w.mode == modeH1Data:
		return errTok(0, ErrIllegalCommand, "buffer ends after header 1 without its data dword"), false
	case w.mode == modeTransSet:
		return errTok(0, ErrIllegalCommand, "buffer ends after header 2 without a transmission setting"), false
	case w.list == listOpen:
		return errTok(0, ErrIllegalCommand, "buffer ends inside an open vertex list (no HPLEND)"), false
	}
	return Token{}, true
}
