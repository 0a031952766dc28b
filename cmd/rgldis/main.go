// Command rgldis disassembles command streams into one text line per
// command word, with the chip's decoder (hal/<chip>):
//
//	go run ./cmd/rgldis capture.rglcap                    # every submission of a capture
//	go run ./cmd/rgldis -chip pspge -base 0x08000000 list.bin   # a raw buffer
//
// A capture names its chip in its header; a raw buffer needs -chip. Each
// line reads "address  word  NAME field=value ...".
package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"

	_ "github.com/retrogl/retrogl/backends"
	"github.com/retrogl/retrogl/hal"
)

func main() {
	chip := flag.String("chip", "", "chip (backend name) of a raw buffer")
	base := flag.String("base", "0", "device address of the raw buffer's first byte")
	flag.Parse()
	if flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: rgldis [-chip NAME -base ADDR] FILE")
		os.Exit(2)
	}
	data, err := os.ReadFile(flag.Arg(0))
	if err == nil {
		err = disassemble(os.Stdout, data, *chip, *base)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "rgldis:", err)
		os.Exit(1)
	}
}

func disassemble(w io.Writer, data []byte, chip, baseText string) error {
	if bytes.HasPrefix(data, []byte{0x1f, 0x8b}) {
		cr, err := hal.NewCaptureReader(bytes.NewReader(data))
		if err != nil {
			return err
		}
		info := cr.Header().Info
		text, err := hal.Listing(bytes.NewReader(data))
		if err != nil {
			return err
		}
		fmt.Fprintf(w, "# capture of %s (%s)\n%s", info.Chip, info.Revision, text)
		return nil
	}
	if chip == "" {
		return errors.New("a raw buffer needs -chip (the file is not a capture)")
	}
	base, err := strconv.ParseUint(baseText, 0, 32)
	if err != nil {
		return fmt.Errorf("-base %q: %w", baseText, err)
	}
	dec, err := hal.LookupDecoder(chip)
	if err != nil {
		return err
	}
	for _, l := range dec(data, uint32(base)) {
		fmt.Fprintln(w, l)
	}
	return nil
}
