package difftest

import (
	"bytes"
	"errors"
	"fmt"
	"image"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"sync"

	_ "github.com/retrogl/retrogl/backends" // the tester judges every registered backend
	"github.com/retrogl/retrogl/examples/compare"
	"github.com/retrogl/retrogl/gles"
	"github.com/retrogl/retrogl/tools/mesaref"
	"github.com/retrogl/retrogl/trace"
)

// Verdict is what a backend made of a scene.
type Verdict uint8

// The verdicts.
const (
	// NotJudged: the scene needs an extension the backend does not offer.
	NotJudged Verdict = iota
	// Pass: drawn without a GL error and within the backend's tolerance
	// of Mesa.
	Pass
	// Differs: drawn without a GL error, but outside the tolerance.
	Differs
	// Failed: a GL error (a refused state, a device fault) or a panic.
	Failed
)

var verdictNames = [...]string{"n/a", "pass", "differs", "error"}

// String returns "n/a", "pass", "differs" or "error".
func (v Verdict) String() string {
	if int(v) < len(verdictNames) {
		return verdictNames[v]
	}
	return fmt.Sprintf("Verdict(%d)", uint8(v))
}

// BackendResult is one backend's rendering of a scene.
type BackendResult struct {
	Backend string
	Verdict Verdict
	// Err holds the GL errors and faults of a Failed verdict, or names the
	// missing extension of a NotJudged one.
	Err error
	// Cmp is the comparison with Mesa's image (Pass and Differs).
	Cmp   compare.Result
	Image image.Image
}

// Result is a scene replayed on Mesa and on each backend.
type Result struct {
	Scene *Scene
	// Mesa is Mesa's image; MesaErr is set when Mesa could not replay the
	// scene or raised a GL error (a generator bug: the scene is then not
	// judged at all).
	Mesa    image.Image
	MesaErr error
	// Backends are in the order asked for.
	Backends []BackendResult
}

// Tester replays scenes on Mesa and on backends.
type Tester struct {
	// Backends are the backends judged, in report order.
	Backends []string
	// KeepImages keeps every image in the results (for writing them out).
	KeepImages bool
	// Log, when set, receives progress lines of long steps (reductions).
	Log   func(format string, args ...any)
	pools map[mesaref.Renderer]*mesaref.Pool
}

// NewTester returns a tester for backends that replays on Mesa with up to
// procs replayer processes per renderer (see mesaref.Pool).
func NewTester(backends []string, procs int) *Tester {
	procs = max(procs, 1)
	return &Tester{Backends: backends, pools: map[mesaref.Renderer]*mesaref.Pool{
		mesaref.Softpipe: mesaref.NewPool(mesaref.Softpipe, procs),
		mesaref.Llvmpipe: mesaref.NewPool(mesaref.Llvmpipe, procs),
	}}
}

// Close ends the Mesa processes.
func (t *Tester) Close() error {
	return errors.Join(t.pools[mesaref.Softpipe].Close(), t.pools[mesaref.Llvmpipe].Close())
}

// Mesa replays a trace's text on Mesa's softpipe; a GL error Mesa raises
// is an error (the trace is not what the generator meant).
func (t *Tester) Mesa(text []byte) (image.Image, error) {
	return t.mesaOn(mesaref.Softpipe, text)
}

func (t *Tester) mesaOn(r mesaref.Renderer, text []byte) (image.Image, error) {
	res, err := t.pools[r].Replay(text)
	if err != nil {
		return nil, err
	}
	return res.Image, nil
}

// Run replays a scene on Mesa and on each backend and judges every
// backend.
func (t *Tester) Run(s *Scene) *Result {
	res := &Result{Scene: s}
	refs := map[refKind]image.Image{}
	for _, b := range t.Backends {
		k := refKindOf(b, s.Trace)
		ref, ok := refs[k]
		if !ok {
			var err error
			if ref, err = t.referenceOf(k, s.Trace); err != nil {
				res.MesaErr = err
				return res
			}
			refs[k] = ref
		}
		if t.KeepImages && res.Mesa == nil {
			res.Mesa = ref
		}
		res.Backends = append(res.Backends, Judge(s, b, ref, t.KeepImages))
	}
	return res
}

// refKind says how Mesa's reference of a trace is made for a backend.
type refKind struct {
	// noAlpha: the backend's colour buffer has no alpha; see
	// WithoutDstAlpha.
	noAlpha bool
	// renderer is softpipe, or llvmpipe for traces that draw points or
	// wide lines: softpipe samples sprite coordinates 1/8 pixel off,
	// places the square of a wide aliased point up to a pixel away from
	// where ES 1.1 section 3.3.1 puts it, and takes the colour and
	// texture coordinates of a wide line's fragments half a pixel further
	// along the line than their centres (section 3.4); llvmpipe follows
	// the sections (Mesa deviations, docs/differential.md; tools/mesaref
	// TestSoftpipeSpriteShift, TestPointSizeDeviations,
	// TestSoftpipeWideLineShift).
	renderer mesaref.Renderer
}

func refKindOf(backend string, tr *trace.Trace) refKind {
	k := refKind{noAlpha: needsNoAlpha(backend, tr), renderer: mesaref.Softpipe}
	if drawsPoints(tr) || drawsWideLines(tr) {
		k.renderer = mesaref.Llvmpipe
	}
	return k
}

func (t *Tester) referenceOf(k refKind, tr *trace.Trace) (image.Image, error) {
	if k.noAlpha {
		tr = WithoutDstAlpha(tr)
	}
	return t.mesaOn(k.renderer, textOf(tr))
}

// reference is Mesa's image of tr as backend should draw it.
func (t *Tester) reference(tr *trace.Trace, backend string) (image.Image, error) {
	return t.referenceOf(refKindOf(backend, tr), tr)
}

// drawsPoints reports whether tr draws points.
func drawsPoints(tr *trace.Trace) bool {
	for _, c := range tr.Calls {
		if (c.Name == "DrawArrays" || c.Name == "DrawElements") && len(c.Args) > 0 && c.Args[0].Text == "POINTS" {
			return true
		}
	}
	return false
}

// drawsWideLines reports whether tr sets a line width that rounds to more
// than one pixel and draws lines.
func drawsWideLines(tr *trace.Trace) bool {
	var wide, lines bool
	for _, c := range tr.Calls {
		switch {
		case c.Name == "LineWidth" && len(c.Args) == 1:
			if w, err := strconv.ParseFloat(c.Args[0].Text, 64); err == nil && w >= 1.5 {
				wide = true
			}
		case (c.Name == "DrawArrays" || c.Name == "DrawElements") && len(c.Args) > 0 && strings.HasPrefix(c.Args[0].Text, "LINE"):
			lines = true
		}
	}
	return wide && lines
}

func needsNoAlpha(backend string, tr *trace.Trace) bool {
	return !infoOf(backend).alpha && readsDstAlpha(tr)
}

// dstAlphaFactors are the blend factors that read the destination alpha,
// with what each becomes when the destination alpha is 1.
var dstAlphaFactors = map[string]string{
	"DST_ALPHA":           "ONE",
	"ONE_MINUS_DST_ALPHA": "ZERO",
	// min(As, 1-Ad) = 0 for red, green and blue; the alpha factor 1
	// changes nothing the comparison sees (it ignores alpha).
	"SRC_ALPHA_SATURATE": "ZERO",
}

// readsDstAlpha reports whether a colour blend factor of tr reads the
// destination alpha (the alpha factors do not show in the comparison).
func readsDstAlpha(tr *trace.Trace) bool {
	for _, c := range tr.Calls {
		if c.Name == "BlendFunc" || c.Name == "BlendFuncSeparateOES" {
			for _, a := range c.Args[:min(2, len(c.Args))] {
				if _, ok := dstAlphaFactors[a.Text]; ok {
					return true
				}
			}
		}
	}
	return false
}

// WithoutDstAlpha returns tr with the blend factors that read the
// destination alpha replaced by their values when it is 1. Mesa's surface
// always has alpha bits; a backend whose colour buffer has none (Glamo's
// RGB565) blends as if the destination alpha were 1, as GL specifies for a
// colour buffer without alpha (ES 1.1 section 4.1.7), so it is compared
// with Mesa replaying this trace.
func WithoutDstAlpha(tr *trace.Trace) *trace.Trace {
	out := *tr
	out.Calls = slices.Clone(tr.Calls)
	for i, c := range out.Calls {
		if c.Name != "BlendFunc" && c.Name != "BlendFuncSeparateOES" {
			continue
		}
		args := slices.Clone(c.Args)
		for k, a := range args {
			if to, ok := dstAlphaFactors[a.Text]; ok && (c.Name == "BlendFunc" || k < 2) {
				args[k] = trace.Value{Kind: trace.Name, Text: to}
			}
		}
		out.Calls[i].Args = args
	}
	return &out
}

// Judge renders a scene on one backend and compares it with Mesa's image.
func Judge(s *Scene, backend string, ref image.Image, keepImage bool) BackendResult {
	br := BackendResult{Backend: backend}
	if miss := missingExtensions(backend, s.Needs); len(miss) > 0 {
		br.Err = fmt.Errorf("%s lacks %v", backend, miss)
		return br
	}
	img, err := RenderBackend(backend, s.Trace)
	if keepImage {
		br.Image = img
	}
	if err != nil {
		br.Verdict, br.Err = Failed, err
		return br
	}
	tol := compare.For(backend)
	cmp, err := compare.Images(img, ref, tol.Threshold)
	if err != nil {
		br.Verdict, br.Err = Failed, err
		return br
	}
	br.Cmp = cmp
	br.Verdict = Differs
	if cmp.Pass(tol) {
		br.Verdict = Pass
	}
	return br
}

// RenderBackend replays a trace on a backend (one shading worker: the tester
// runs scenes in parallel instead) and returns its image and every GL error
// and fault the replay raised; a panic is an error too.
func RenderBackend(backend string, tr *trace.Trace) (img image.Image, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("%s: panic: %v\n%s", backend, p, debug.Stack())
		}
	}()
	cfg := tr.Config()
	cfg.Workers = 1
	ctx, err := gles.NewContext(backend, cfg)
	if err != nil {
		return nil, err
	}
	defer ctx.Close()
	perr := trace.NewPlayer(ctx).Play(tr)
	img = ctx.Image()
	return img, errors.Join(perr, ctx.Err())
}

// backendInfo is what the tester needs of a backend's capabilities.
type backendInfo struct {
	extensions map[string]bool
	alpha      bool // the default colour buffer has alpha bits
}

var (
	infoMu    sync.Mutex
	infoCache = map[string]*backendInfo{}
)

func infoOf(backend string) *backendInfo {
	infoMu.Lock()
	defer infoMu.Unlock()
	if bi, ok := infoCache[backend]; ok {
		return bi
	}
	bi := &backendInfo{extensions: map[string]bool{}}
	if ctx, err := gles.NewContext(backend, gles.Config{Width: 8, Height: 8}); err == nil {
		for _, e := range ctx.Caps().Extensions {
			bi.extensions[e] = true
		}
		// AlphaBits, not the format's: the PSP GE's alpha bits hold
		// the stencil (SurfaceConfig.NoAlpha).
		bi.alpha = ctx.Config().AlphaBits() > 0
		ctx.Close()
	}
	infoCache[backend] = bi
	return bi
}

// missingExtensions returns the extensions of needs the backend lacks.
func missingExtensions(backend string, needs []string) []string {
	var out []string
	for _, n := range needs {
		if !infoOf(backend).extensions[n] {
			out = append(out, n)
		}
	}
	return out
}

// textOf writes a trace as text.
func textOf(tr *trace.Trace) []byte {
	var b bytes.Buffer
	tr.WriteTo(&b) // a bytes.Buffer does not fail
	return b.Bytes()
}
