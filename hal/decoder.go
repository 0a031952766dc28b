package hal

import (
	"fmt"
	"sort"
	"sync"
)

// Decoder turns a command buffer that starts at device address base into
// one text line per command word. Every hal/<chip> package registers one;
// the disassembler command, golden files and fault messages use them.
type Decoder func(buf []byte, base uint32) []string

var (
	decMu    sync.Mutex
	decoders = map[string]Decoder{}
)

// RegisterDecoder registers the decoder for a chip (backend name). It panics
// on a duplicate, since registration happens in init functions.
func RegisterDecoder(chip string, d Decoder) {
	decMu.Lock()
	defer decMu.Unlock()
	if _, dup := decoders[chip]; dup {
		panic("hal: duplicate decoder for " + chip)
	}
	decoders[chip] = d
}

// LookupDecoder returns the decoder registered for chip.
func LookupDecoder(chip string) (Decoder, error) {
	decMu.Lock()
	defer decMu.Unlock()
	d, ok := decoders[chip]
	if !ok {
		var names []string
		for n := range decoders {
			names = append(names, n)
		}
		sort.Strings(names)
		return nil, fmt.Errorf("no decoder for chip %q (have %v)", chip, names)
	}
	return d, nil
}
