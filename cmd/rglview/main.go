// Command rglview is a frame debugger in the browser for every retrogl
// chip. Given a device capture (a hal capture file: gles.Config.Capture,
// an example's -capture) or a GL call trace (package trace: an example's
// -trace), it serves a local web page that lists the submissions and
// their draws, with each draw's decoded command words (the chip's
// inspector, hal.InspectorFor) and, for a trace, the GL calls that
// produced them. For the selected draw it shows the render targets after
// it (from a replay on a fresh simulated device paused after the draw,
// tools/frame), the pixels the draw changed, the registers as decoded
// fields, the bound textures read from device memory and the shader
// programs disassembled. Clicking a pixel of the colour buffer lists every
// draw that wrote it, with the values after each. For a trace, /compare
// shows the last image on every backend and on Mesa softpipe, with the
// difference image and examples/compare's metric.
//
// Usage:
//
//	rglview [-addr HOST:PORT] [-backend NAME] FILE
//
// The page is served on 127.0.0.1 with a free port unless -addr says
// otherwise; rglview prints its URL. A trace plays on -backend (pspge for
// an ES 1.1 trace and r300 for an ES 2.0 trace by default). Work is done on
// demand: a draw's replay when the draw is first shown, the comparison
// when /compare is first opened; both are cached.
package main

import (
	"flag"
	"fmt"
	"net"
	"net/http"
	"os"
	"time"

	"github.com/retrogl/retrogl/backends"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:0", "`HOST:PORT` to serve on (port 0: a free port)")
	backend := flag.String("backend", "", "backend a trace plays on (default pspge for ES 1.1, r300 for ES 2.0): "+fmt.Sprint(backends.Names()))
	flag.Usage = func() {
		fmt.Fprintln(flag.CommandLine.Output(), "usage: rglview [-addr HOST:PORT] [-backend NAME] FILE")
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() != 1 {
		flag.Usage()
		os.Exit(2)
	}
	if err := run(flag.Arg(0), *addr, *backend); err != nil {
		fmt.Fprintln(os.Stderr, "rglview:", err)
		os.Exit(1)
	}
}

func run(file, addr, backend string) error {
	if backend != "" && !known(backend) {
		return fmt.Errorf("unknown backend %q (have %v)", backend, backends.Names())
	}
	data, err := os.ReadFile(file)
	if err != nil {
		return err
	}
	s := newServer(file, data, backend)
	if backend != "" && s.kind == "capture" {
		fmt.Fprintf(os.Stderr, "rglview: %s is a capture of a %s: -backend is for traces and is ignored\n", file, chipOf(s))
	}
	if s.err != nil {
		// The page says it too; the terminal hears it first.
		fmt.Fprintln(os.Stderr, "rglview:", s.err)
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	fmt.Printf("http://%s/\n", ln.Addr())
	srv := &http.Server{Handler: s, ReadHeaderTimeout: 10 * time.Second}
	return srv.Serve(ln)
}

func known(name string) bool {
	for _, b := range backends.Names() {
		if b == name {
			return true
		}
	}
	return false
}

// chipOf names the chip of a server's capture.
func chipOf(s *Server) string {
	if s.frame == nil {
		return "device"
	}
	return s.frame.Info.Chip
}
