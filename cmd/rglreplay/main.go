// Command rglreplay runs a capture (see hal.NewCapture and the examples'
// -capture flag) on a fresh simulated device, with no driver, and checks
// that every wait and read-back gives what was recorded:
//
//	go run ./cmd/rglreplay capture.rglcap
//
// It prints the counts and every difference, and exits 1 when the replay
// differs from the capture: a capture is how a driver bug is reported and
// reproduced.
package main

import (
	"bytes"
	"fmt"
	"io"
	"os"

	_ "github.com/retrogl/retrogl/backends"
	"github.com/retrogl/retrogl/driver"
	"github.com/retrogl/retrogl/hal"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: rglreplay CAPTURE")
		os.Exit(2)
	}
	data, err := os.ReadFile(os.Args[1])
	if err != nil {
		fmt.Fprintln(os.Stderr, "rglreplay:", err)
		os.Exit(1)
	}
	ok, err := replay(os.Stdout, data)
	if err != nil {
		fmt.Fprintln(os.Stderr, "rglreplay:", err)
		os.Exit(1)
	}
	if !ok {
		os.Exit(1)
	}
}

func replay(w io.Writer, data []byte) (bool, error) {
	cr, err := hal.NewCaptureReader(bytes.NewReader(data))
	if err != nil {
		return false, err
	}
	chip := cr.Header().Info.Chip
	b, err := driver.Lookup(chip)
	if err != nil {
		return false, err
	}
	dev, err := b.NewDevice()
	if err != nil {
		return false, err
	}
	defer dev.Close()
	rep, err := hal.Replay(bytes.NewReader(data), dev)
	if err != nil {
		return false, err
	}
	fmt.Fprintf(w, "%s: %d writes, %d submissions, %d waits, %d read-backs\n", chip, rep.Writes, rep.Submits, rep.Waits, rep.Reads)
	for _, m := range rep.Mismatches {
		fmt.Fprintf(w, "record %d: %s\n", m.Record, m.What)
	}
	if len(rep.Mismatches) == 0 {
		fmt.Fprintln(w, "replay matches the capture")
		return true, nil
	}
	return false, nil
}
