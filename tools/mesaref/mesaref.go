// Package mesaref runs retrogl's GL call traces on Mesa's software
// renderers through OSMesa, the independent reference every backend is
// compared with (examples/compare, the differential tests, the benchmark).
//
// The C replayer (mesaref.c, with the enum table enums_gen.h that
// trace/internal/gen writes) is embedded and compiled on first use with the
// system C compiler against Debian's libosmesa6-dev, then cached in the
// user's cache directory under the hash of its source, so a clone needs no
// build step and a changed source is rebuilt. Build compiles any other
// OSMesa program the same way.
//
// Replay runs one process per trace. Server and Pool keep replayer
// processes running (mesaref -batch) for programs that replay many traces,
// such as the differential tester: OSMesa's start-up costs about six times
// the replay of a small scene.
//
// The C files start with a `//go:build ignore` line (a C comment) so the Go
// tool does not treat them as cgo sources of this package.
package mesaref

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	_ "embed"
	"encoding/hex"
	"errors"
	"fmt"
	"image"
	"io"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
)

//go:embed mesaref.c
var replayerSrc []byte

//go:embed enums_gen.h
var enumsHeader []byte

// Package names the Debian package that provides OSMesa, for messages.
const Package = "libosmesa6-dev"

// Renderer selects Mesa's rasterizer through GALLIUM_DRIVER.
type Renderer string

// The renderers the project compares with.
const (
	Softpipe Renderer = "softpipe" // Mesa's reference rasterizer
	Llvmpipe Renderer = "llvmpipe" // Mesa's fast JIT rasterizer
)

var (
	availOnce sync.Once
	availErr  error
	cflags    []string
)

// Available reports whether OSMesa programs can be built here: nil, or an
// error naming what is missing (the Debian package, pkg-config or a C
// compiler).
func Available() error {
	availOnce.Do(func() {
		if _, err := exec.LookPath("cc"); err != nil {
			availErr = fmt.Errorf("mesaref: no C compiler (apt-get install gcc): %w", err)
			return
		}
		out, err := exec.Command("pkg-config", "--cflags", "--libs", "osmesa").Output()
		if err != nil {
			availErr = fmt.Errorf("mesaref: OSMesa not found by pkg-config (apt-get install %s pkg-config): %w", Package, err)
			return
		}
		cflags = strings.Fields(string(out))
	})
	return availErr
}

var buildMu sync.Mutex

// Build compiles the C program src (with the files in headers beside it,
// by name) against OSMesa and returns the path of the binary. Binaries are
// cached by the hash of their sources and flags.
func Build(name string, src []byte, headers map[string][]byte) (string, error) {
	if err := Available(); err != nil {
		return "", err
	}
	h := sha256.New()
	h.Write(src)
	for _, k := range slices.Sorted(maps.Keys(headers)) {
		fmt.Fprintf(h, "\x00%s\x00", k)
		h.Write(headers[k])
	}
	fmt.Fprintf(h, "\x00%q", cflags)
	sum := hex.EncodeToString(h.Sum(nil))[:16]
	cache, err := os.UserCacheDir()
	if err != nil {
		cache = os.TempDir()
	}
	dir := filepath.Join(cache, "retrogl", "osmesa", name+"-"+sum)
	bin := filepath.Join(dir, name)
	buildMu.Lock()
	defer buildMu.Unlock()
	if _, err := os.Stat(bin); err == nil {
		return bin, nil
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", fmt.Errorf("mesaref: build %s: %w", name, err)
	}
	tmp, err := os.MkdirTemp(dir, "build")
	if err != nil {
		return "", fmt.Errorf("mesaref: build %s: %w", name, err)
	}
	defer os.RemoveAll(tmp)
	for k, v := range headers {
		if err := os.WriteFile(filepath.Join(tmp, k), v, 0o644); err != nil {
			return "", fmt.Errorf("mesaref: build %s: %w", name, err)
		}
	}
	cfile := filepath.Join(tmp, name+".c")
	if err := os.WriteFile(cfile, src, 0o644); err != nil {
		return "", fmt.Errorf("mesaref: build %s: %w", name, err)
	}
	out := filepath.Join(tmp, name)
	args := append([]string{"-O2", "-o", out, cfile}, cflags...)
	args = append(args, "-lm")
	if msg, err := exec.Command("cc", args...).CombinedOutput(); err != nil {
		return "", fmt.Errorf("mesaref: cc %s.c: %w\n%s", name, err, msg)
	}
	// Rename is atomic: a concurrent process sees the whole binary or none.
	if err := os.Rename(out, bin); err != nil {
		return "", fmt.Errorf("mesaref: build %s: %w", name, err)
	}
	return bin, nil
}

// Replayer returns the path of the compiled trace replayer.
func Replayer() (string, error) {
	return Build("mesaref", replayerSrc, map[string][]byte{"enums_gen.h": enumsHeader})
}

// Result is what one replay produced.
type Result struct {
	// Image is the colour buffer at the end of the trace.
	Image *image.NRGBA
	// Renderer is Mesa's GL_RENDERER and GL_VERSION, one line.
	Renderer string
}

// ErrGL is wrapped by Replay errors when Mesa raised GL errors while
// replaying: the image was made, but not from the calls the trace meant.
var ErrGL = errors.New("mesa reported GL errors")

// Replay plays a trace (the text format of package trace) on renderer and
// returns the final colour buffer.
func Replay(trace []byte, renderer Renderer) (*Result, error) {
	bin, err := Replayer()
	if err != nil {
		return nil, err
	}
	tmp, err := os.MkdirTemp("", "mesaref")
	if err != nil {
		return nil, fmt.Errorf("mesaref: %w", err)
	}
	defer os.RemoveAll(tmp)
	in, pam := filepath.Join(tmp, "in.trace"), filepath.Join(tmp, "out.pam")
	if err := os.WriteFile(in, trace, 0o644); err != nil {
		return nil, fmt.Errorf("mesaref: %w", err)
	}
	cmd := exec.Command(bin, in, pam)
	cmd.Env = append(os.Environ(), "GALLIUM_DRIVER="+string(renderer), "LIBGL_ALWAYS_SOFTWARE=1", "LP_NUM_THREADS=1")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("mesaref: replay on %s: %w\n%s", renderer, err, stderr.String())
	}
	res := &Result{Renderer: strings.Join(strings.Fields(stdout.String()), " ")}
	if !strings.HasPrefix(res.Renderer, string(renderer)) {
		return nil, fmt.Errorf("mesaref: asked for %s, Mesa ran on %q", renderer, res.Renderer)
	}
	img, err := ReadPAM(pam)
	if err != nil {
		return nil, err
	}
	res.Image = img
	if stderr.Len() > 0 {
		return res, fmt.Errorf("%w:\n%s", ErrGL, stderr.String())
	}
	return res, nil
}

// ReadPAM reads the P7 RGB_ALPHA image the replayer writes (top row first).
func ReadPAM(path string) (*image.NRGBA, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("mesaref: %w", err)
	}
	defer f.Close()
	return decodePAM(bufio.NewReader(f), path)
}

func decodePAM(r *bufio.Reader, name string) (*image.NRGBA, error) {
	w, h := 0, 0
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			return nil, fmt.Errorf("mesaref: %s: header: %w", name, err)
		}
		line = strings.TrimSpace(line)
		if line == "ENDHDR" {
			break
		}
		fmt.Sscanf(line, "WIDTH %d", &w)
		fmt.Sscanf(line, "HEIGHT %d", &h)
	}
	if w <= 0 || h <= 0 || w > 1<<14 || h > 1<<14 {
		return nil, fmt.Errorf("mesaref: %s: bad size %dx%d in header", name, w, h)
	}
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	if _, err := io.ReadFull(r, img.Pix); err != nil {
		return nil, fmt.Errorf("mesaref: %s: pixels: %w", name, err)
	}
	return img, nil
}

// Server is one long-running replayer process (mesaref -batch) that
// replays any number of traces: OSMesa's start-up, which is most of the
// time of a small trace, is paid once. A Server serves one call at a time;
// Pool shares several between goroutines.
type Server struct {
	renderer Renderer
	cmd      *exec.Cmd
	in       io.WriteCloser
	out      *bufio.Reader
	stderr   bytes.Buffer
	dead     error
}

// NewServer starts a replayer process on renderer.
func NewServer(renderer Renderer) (*Server, error) {
	bin, err := Replayer()
	if err != nil {
		return nil, err
	}
	s := &Server{renderer: renderer, cmd: exec.Command(bin, "-batch")}
	s.cmd.Env = append(os.Environ(), "GALLIUM_DRIVER="+string(renderer), "LIBGL_ALWAYS_SOFTWARE=1", "LP_NUM_THREADS=1")
	s.cmd.Stderr = &s.stderr
	if s.in, err = s.cmd.StdinPipe(); err != nil {
		return nil, fmt.Errorf("mesaref: %w", err)
	}
	out, err := s.cmd.StdoutPipe()
	if err != nil {
		return nil, fmt.Errorf("mesaref: %w", err)
	}
	s.out = bufio.NewReader(out)
	if err := s.cmd.Start(); err != nil {
		return nil, fmt.Errorf("mesaref: start %s: %w", bin, err)
	}
	return s, nil
}

// Replay plays a trace, as the package's Replay does, on the server's
// process. An error that is not ErrGL and not a failed trace means the
// process is gone; the Server is then unusable.
func (s *Server) Replay(trace []byte) (*Result, error) {
	if s.dead != nil {
		return nil, s.dead
	}
	_, err := fmt.Fprintf(s.in, "T %d\n", len(trace))
	if err == nil {
		_, err = s.in.Write(trace)
	}
	var status, line string
	var ninfo, nimg int
	if err == nil {
		line, err = s.out.ReadString('\n')
	}
	if err == nil {
		_, err = fmt.Sscanf(line, "R %s %d %d", &status, &ninfo, &nimg)
	}
	if err == nil && (ninfo < 0 || nimg < 0 || ninfo > 1<<20 || nimg > 1<<30) {
		err = fmt.Errorf("bad answer %q", line)
	}
	info := make([]byte, max(ninfo, 0))
	if err == nil {
		_, err = io.ReadFull(s.out, info)
	}
	if err != nil {
		s.kill()
		s.dead = fmt.Errorf("mesaref: replayer process on %s: %w\n%s", s.renderer, err, s.stderr.String())
		return nil, s.dead
	}
	lines := strings.SplitN(string(info), "\n", 3)
	res := &Result{}
	if len(lines) >= 2 && strings.HasPrefix(lines[0], string(s.renderer)) {
		res.Renderer = lines[0] + " " + lines[1]
		info = []byte(strings.Join(lines[2:], ""))
	}
	if status != "ok" {
		return nil, fmt.Errorf("mesaref: replay on %s: %s", s.renderer, info)
	}
	img, err := decodePAM(bufio.NewReader(io.LimitReader(s.out, int64(nimg))), "answer")
	if err != nil {
		s.kill()
		s.dead = err
		return nil, err
	}
	if res.Renderer == "" {
		return nil, fmt.Errorf("mesaref: asked for %s, Mesa ran on %q", s.renderer, lines[0])
	}
	res.Image = img
	if len(info) > 0 {
		return res, fmt.Errorf("%w:\n%s", ErrGL, info)
	}
	return res, nil
}

func (s *Server) kill() {
	s.in.Close()
	if s.cmd.Process != nil {
		s.cmd.Process.Kill()
	}
	s.cmd.Wait()
}

// Close ends the process.
func (s *Server) Close() error {
	if s.dead != nil {
		return nil
	}
	s.dead = errors.New("mesaref: server closed")
	s.in.Close()
	return s.cmd.Wait()
}

// Pool shares replayer processes between goroutines: each Replay takes an
// idle process (starting one, up to Size) and gives it back; a process that
// died is replaced.
type Pool struct {
	renderer Renderer
	idle     chan *Server
	slots    chan struct{}
}

// NewPool returns a pool of up to size processes on renderer.
func NewPool(renderer Renderer, size int) *Pool {
	return &Pool{renderer: renderer, idle: make(chan *Server, size), slots: make(chan struct{}, size)}
}

// Replay plays a trace on one of the pool's processes.
func (p *Pool) Replay(trace []byte) (*Result, error) {
	var s *Server
	select {
	case s = <-p.idle:
	case p.slots <- struct{}{}:
		var err error
		if s, err = NewServer(p.renderer); err != nil {
			<-p.slots
			return nil, err
		}
	}
	res, err := s.Replay(trace)
	if s.dead != nil {
		<-p.slots
	} else {
		p.idle <- s
	}
	return res, err
}

// Close ends every idle process.
func (p *Pool) Close() error {
	var errs []error
	for {
		select {
		case s := <-p.idle:
			errs = append(errs, s.Close())
			<-p.slots
		default:
			return errors.Join(errs...)
		}
	}
}
