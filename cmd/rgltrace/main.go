// Command rgltrace plays GL call traces (package trace: an example's
// -trace output) from the command line.
//
// Usage:
//
//	rgltrace play [-backend NAME] [-out DIR] TRACE
//	rgltrace compare [-out DIR] [-renderer softpipe|llvmpipe] TRACE
//	rgltrace stat TRACE
//
// play plays the trace on one backend (pspge for an ES 1.1 trace and r300
// for an ES 2.0 trace by default) and writes the colour buffer to a PNG
// file in DIR at each Finish (NAME-BACKEND-N.png, N from 1), or once at
// the end when the trace has no Finish; it prints each file's name.
//
// compare plays the trace on every backend and on Mesa (tools/mesaref,
// OSMesa softpipe by default) and compares each backend's last image with
// Mesa's using examples/compare's metric and the backend's tolerance; it
// prints one line per backend and, with -out, writes each image and its
// difference image. A backend that cannot play the trace (an ES 2.0 trace
// on a chip without shaders) is listed with its error. The exit status is
// 1 when a backend that played the trace is outside its tolerance.
//
// stat counts the trace's calls by name, its draws, frames, textures and
// shader programs.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
)

func main() {
	if len(os.Args) < 2 {
		usage(os.Stderr)
		os.Exit(2)
	}
	var err error
	switch cmd, args := os.Args[1], os.Args[2:]; cmd {
	case "play":
		err = playCmd(os.Stdout, args)
	case "compare":
		err = compareCmd(os.Stdout, args)
	case "stat":
		err = statCmd(os.Stdout, args)
	case "help", "-h", "-help", "--help":
		usage(os.Stdout)
		return
	default:
		usage(os.Stderr)
		os.Exit(2)
	}
	var fail *failError
	switch {
	case errors.As(err, &fail):
		fmt.Fprintln(os.Stderr, "rgltrace:", err)
		os.Exit(1)
	case errors.Is(err, flag.ErrHelp):
		os.Exit(2)
	case err != nil:
		fmt.Fprintln(os.Stderr, "rgltrace:", err)
		os.Exit(1)
	}
}

func usage(w io.Writer) {
	fmt.Fprint(w, `usage:
  rgltrace play [-backend NAME] [-out DIR] TRACE   play on a backend, one PNG per Finish
  rgltrace compare [-out DIR] [-renderer R] TRACE  every backend against Mesa
  rgltrace stat TRACE                              calls, draws, frames, textures
`)
}

// failError is a comparison outside a tolerance.
type failError struct{ n int }

func (e *failError) Error() string {
	return fmt.Sprintf("%d backend(s) outside their tolerance", e.n)
}
