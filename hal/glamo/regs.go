package glamo

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// Kind says how a field's bits read.
type Kind uint8

// The field kinds.
const (
	Uint  Kind = iota // unsigned integer
	Sint              // two's-complement integer
	Flag              // one bit
	Enum              // index into Field.Enum
	Hex               // unsigned, printed in hex (masks, raw colours)
	Addr2             // D[22:1]-style address: the value times 2 is a byte address
	KF32              // s[8].23 (IEEE float32), the whole 32 bits
	KF24              // s[7].16 in D[23:0]
	KF18              // s[7].10
	KFix              // fixed point: Field.Fix
	Pitch             // texture pitch: mantissa D[7:0] x 2^D[11:8] bytes
	C6565             // constant colour A6 R5 G6 B5 (see Color6565)
	Fact              // texture-blend factor (see Factor)
)

// Field is a bit field of a register. Lo and Hi are bit numbers of the
// register's value (0..31 for a 32-bit register).
type Field struct {
	Name   string
	Lo, Hi uint8
	Kind   Kind
	Fix    Fixed
	Enum   []string // value -> name; "" is reserved
}

// Mask returns the field's bits in place.
func (f Field) Mask() uint32 { return uint32(uint64(1)<<(f.Hi+1) - 1<<f.Lo) }

// Get extracts the field from a register value.
func (f Field) Get(v uint32) uint32 { return v >> f.Lo & uint32(uint64(1)<<(f.Hi-f.Lo+1)-1) }

// Put returns x placed in the field; bits that do not fit are dropped.
func (f Field) Put(x uint32) uint32 { return x << f.Lo & f.Mask() }

// Effect is what a write to a register does besides storing its value.
type Effect uint8

// The register side effects.
const (
	EffNone      Effect = iota
	EffFire             // EGFIRE 2058h: fire the engine on the immediate vertex (L768-769)
	EffPreFire          // MGBufCBMFire 203Ch: pre-fire for buffer / stream-index mode (L728)
	EffModeFire         // MGBufCMSFire 203Eh: command-mode setup fire, starts a list (L730)
	EffEnd              // EGEND 23E0h: end of primitive list (L4549-4551)
	EffParserEnd        // EGPASEND 23E4h: end of list for the parser (L4553)
	EffPalette0         // Tex0 palette RAM (2400h-25FFh)
	EffPalette1         // Tex1 palette RAM (1C00h-1DFFh)
	EffReadOnly         // status registers: writes are ignored
)

// Register describes one register of the 3D block. Addr is the byte offset
// of its low 16-bit half; a Wide register is a 32-bit field made of two
// 16-bit registers at Addr and Addr+2 (little-endian, L409-410).
type Register struct {
	Addr   uint16
	Name   string
	Wide   bool
	Line   int // seed line of the definition
	Fields []Field
	Effect Effect
	// Internal registers are the G/L output and setup ports (RGX*, EGS*),
	// listed for completeness; the CPU cannot write them (P1).
	Internal bool
	// Note records decisions where the seed is wrong or silent.
	Note string
}

// Field returns the named field.
func (r *Register) Field(name string) (Field, bool) {
	for _, f := range r.Fields {
		if f.Name == name {
			return f, true
		}
	}
	return Field{}, false
}

// MustField returns the named field and panics when it does not exist (a
// programming error in the driver or simulator).
func (r *Register) MustField(name string) Field {
	f, ok := r.Field(name)
	if !ok {
		panic(fmt.Sprintf("glamo: %s has no field %q", r.Name, name))
	}
	return f
}

// Defined returns the mask of the bits some field defines.
func (r *Register) Defined() uint32 {
	var m uint32
	for _, f := range r.Fields {
		m |= f.Mask()
	}
	return m
}

// The first and last byte of the 3D register block (L412, L1604).
const (
	BlockStart = 0x1B00
	BlockEnd   = 0x2F00 // exclusive
)

var (
	// byAddr maps the address of each 16-bit half to its register.
	byAddr = map[uint16]*Register{}
	byName = map[string]*Register{}
	all    []*Register
	// internal lists the RGX/EGS ports.
	internal []*Register
)

// Lookup returns the register whose low or high half is at addr, and
// whether addr is its high half.
func Lookup(addr uint16) (r *Register, high bool, ok bool) {
	r, ok = byAddr[addr]
	if !ok {
		return nil, false, false
	}
	return r, addr != r.Addr, true
}

// ByName returns the named register; it panics on an unknown name, which
// is a programming error.
func ByName(name string) *Register {
	r, ok := byName[name]
	if !ok {
		panic("glamo: no register " + name)
	}
	return r
}

// Registers returns every CPU-visible register in address order.
func Registers() []*Register { return all }

// Internal returns the G/L output and setup registers (not CPU-writable).
func Internal() []*Register { return internal }

// add registers a row; duplicates and overlaps are programming errors.
func add(r *Register) {
	if r.Internal {
		internal = append(internal, r)
		return
	}
	if r.Addr < BlockStart || r.Addr >= BlockEnd || r.Addr%2 != 0 {
		panic(fmt.Sprintf("glamo: %s at %#04x outside the block", r.Name, r.Addr))
	}
	if _, dup := byName[r.Name]; dup {
		panic("glamo: duplicate register name " + r.Name)
	}
	halves := []uint16{r.Addr}
	if r.Wide {
		halves = append(halves, r.Addr+2)
	}
	for _, a := range halves {
		if o, dup := byAddr[a]; dup {
			panic(fmt.Sprintf("glamo: %s overlaps %s at %#04x", r.Name, o.Name, a))
		}
		byAddr[a] = r
	}
	for _, f := range r.Fields {
		if f.Hi < f.Lo || (!r.Wide && f.Hi > 15) || f.Hi > 31 {
			panic(fmt.Sprintf("glamo: %s.%s bits %d-%d", r.Name, f.Name, f.Hi, f.Lo))
		}
	}
	byName[r.Name] = r
	all = append(all, r)
}

func finish() {
	sort.Slice(all, func(i, j int) bool { return all[i].Addr < all[j].Addr })
}

// enums names the enumerations the compact field syntax refers to.
var enums = map[string][]string{}

// parseFields reads the compact field syntax of the table: space-separated
// "NAME:HI-LO" or "NAME:BIT", each optionally followed by "/kind": s
// (signed), x (hex), a (address x2), f32, f24, f18, p (pitch), c (colour
// 6565), k (blend factor), q<frac> / sq<frac> (fixed point), e:<enum>.
// A one-bit field without a kind is a Flag.
func parseFields(reg, spec string) []Field {
	var out []Field
	for _, tok := range strings.Fields(spec) {
		name, rest, ok := strings.Cut(tok, ":")
		if !ok {
			panic("glamo: bad field " + tok + " in " + reg)
		}
		bits, kind, _ := strings.Cut(rest, "/")
		f := Field{Name: name}
		hi, lo, rng := strings.Cut(bits, "-")
		h, err1 := strconv.Atoi(hi)
		l := h
		var err2 error
		if rng {
			l, err2 = strconv.Atoi(lo)
		}
		if err1 != nil || err2 != nil {
			panic("glamo: bad bits " + tok + " in " + reg)
		}
		f.Hi, f.Lo = uint8(h), uint8(l)
		switch {
		case kind == "" && h == l:
			f.Kind = Flag
		case kind == "":
			f.Kind = Uint
		case kind == "s":
			f.Kind = Sint
		case kind == "x":
			f.Kind = Hex
		case kind == "a":
			f.Kind = Addr2
		case kind == "f32":
			f.Kind = KF32
		case kind == "f24":
			f.Kind = KF24
		case kind == "f18":
			f.Kind = KF18
		case kind == "p":
			f.Kind = Pitch
		case kind == "c":
			f.Kind = C6565
		case kind == "k":
			f.Kind = Fact
		case strings.HasPrefix(kind, "e:"):
			f.Kind = Enum
			e, ok := enums[kind[2:]]
			if !ok {
				panic("glamo: unknown enum " + kind + " in " + reg)
			}
			f.Enum = e
		case strings.HasPrefix(kind, "q"), strings.HasPrefix(kind, "sq"):
			signed := kind[0] == 's'
			fr, err := strconv.Atoi(strings.TrimLeft(kind, "sq"))
			if err != nil {
				panic("glamo: bad fixed kind " + tok)
			}
			width := h - l + 1
			intBits := width - fr
			if signed {
				intBits--
			}
			f.Kind = KFix
			f.Fix = Fixed{Int: uint8(intBits), Frac: uint8(fr), Signed: signed}
		default:
			panic("glamo: bad kind " + tok + " in " + reg)
		}
		out = append(out, f)
	}
	return out
}

// FormatField renders a field value for the decoder.
func FormatField(f Field, v uint32) string {
	switch f.Kind {
	case Flag, Uint:
		return strconv.FormatUint(uint64(v), 10)
	case Sint:
		bits := f.Hi - f.Lo + 1
		return strconv.FormatInt(int64(int32(v<<(32-bits))>>(32-bits)), 10)
	case Enum:
		if int(v) < len(f.Enum) && f.Enum[v] != "" {
			return f.Enum[v]
		}
		return fmt.Sprintf("RESERVED(%d)", v)
	case Hex:
		return fmt.Sprintf("%#x", v)
	case Addr2:
		return fmt.Sprintf("%#06x", v<<f.Lo)
	case KF32:
		return strconv.FormatFloat(float64(FromF32(v)), 'g', -1, 32)
	case KF24:
		return strconv.FormatFloat(FromF24(v), 'g', 6, 64)
	case KF18:
		return strconv.FormatFloat(FromF18(v), 'g', 4, 64)
	case KFix:
		return strconv.FormatFloat(f.Fix.Decode(v), 'g', -1, 64)
	case Pitch:
		return strconv.FormatUint(uint64(v&0xFF)<<(v>>8&0xF), 10)
	case C6565:
		a, r, g, b := Split6565(v << f.Lo)
		return fmt.Sprintf("a%d/r%d/g%d/b%d", a, r, g, b)
	case Fact:
		r, g, b, a := SplitFactor(v << f.Lo)
		return fmt.Sprintf("r%d/g%d/b%d/a%d", r, g, b, a)
	}
	return strconv.FormatUint(uint64(v), 10)
}
