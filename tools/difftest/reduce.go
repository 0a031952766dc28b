package difftest

import (
	"encoding/binary"
	"errors"
	"image"
	"regexp"
	"slices"
	"strings"

	"github.com/retrogl/retrogl/examples/compare"
	"github.com/retrogl/retrogl/trace"
)

// Failure is what a reduction keeps: the backend, its verdict (Differs or
// Failed) and, for Failed, the signature of its first error.
type Failure struct {
	Backend   string
	Verdict   Verdict
	Signature string
}

var digits = regexp.MustCompile(`(0x[0-9a-fA-F]+|[0-9]+(\.[0-9]+)?)`)

// Signature is an error's first message with its numbers blanked, so that
// the same refusal or fault in two scenes compares equal.
func Signature(err error) string {
	if err == nil {
		return ""
	}
	for _, line := range strings.Split(err.Error(), "\n") {
		line = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(line), "*"))
		if line == "" || strings.HasSuffix(line, "errors occurred:") || strings.HasSuffix(line, "error occurred:") {
			continue
		}
		return digits.ReplaceAllString(line, "#")
	}
	return digits.ReplaceAllString(err.Error(), "#")
}

// FailureOf returns the failure a backend result shows, if any.
func FailureOf(br BackendResult) (Failure, bool) {
	switch br.Verdict {
	case Differs:
		return Failure{Backend: br.Backend, Verdict: Differs}, true
	case Failed:
		return Failure{Backend: br.Backend, Verdict: Failed, Signature: Signature(br.Err)}, true
	}
	return Failure{}, false
}

// Reproduces reports whether tr still fails as f says, while staying a
// valid trace: Mesa replays it without a GL error and, for a Differs
// failure, the backend raises none either. The backend runs first: it is
// the cheaper test and rejects most candidates.
func (t *Tester) Reproduces(tr *trace.Trace, f Failure) bool {
	img, err := RenderBackend(f.Backend, tr)
	switch {
	case f.Verdict == Failed && (err == nil || Signature(err) != f.Signature):
		return false
	case f.Verdict == Differs && err != nil:
		return false
	case f.Verdict != Failed && f.Verdict != Differs:
		return false
	}
	ref, err := t.reference(tr, f.Backend)
	if err != nil {
		return false
	}
	return f.Verdict == Failed || differs(f.Backend, img, ref)
}

func differs(backend string, img, ref image.Image) bool {
	tol := compare.For(backend)
	cmp, err := compare.Images(img, ref, tol.Threshold)
	return err == nil && !cmp.Pass(tol)
}

// ErrNotReproduced is returned by Reduce when the whole trace does not show
// the failure.
var ErrNotReproduced = errors.New("difftest: the trace does not show the failure")

// Reduce shrinks tr to a trace that still fails as f says (see Reproduces
// and ReduceCalls).
func (t *Tester) Reduce(tr *trace.Trace, f Failure, budget int) (*trace.Trace, error) {
	return ReduceCalls(tr, func(c *trace.Trace) bool { return t.Reproduces(c, f) }, budget)
}

// ReduceCalls shrinks tr to a trace for which test still holds: first the
// shortest prefix ending after a draw (a binary search), then delta
// debugging over the calls (ddmin, removing complements of ever smaller
// chunks), then single calls, last first, until none can go. It tests at
// most budget candidates; ErrNotReproduced means test(tr) is false.
func ReduceCalls(tr *trace.Trace, test func(*trace.Trace) bool, budget int) (*trace.Trace, error) {
	if !test(tr) {
		return nil, ErrNotReproduced
	}
	tests := 0
	texMatrices := Plausible(tr)
	try := func(keep []int) bool {
		if tests >= budget {
			return false
		}
		cand := subset(tr, keep, Pinned(tr))
		if !plausible(cand, texMatrices) {
			return false
		}
		tests++
		return test(cand)
	}
	pinned := Pinned(tr)
	keep := make([]int, 0, len(tr.Calls))
	for i := pinned; i < len(tr.Calls); i++ {
		keep = append(keep, i)
	}
	// The shortest prefix that ends after a draw.
	var ends []int
	for k, i := range keep {
		if strings.HasPrefix(tr.Calls[i].Name, "Draw") {
			ends = append(ends, k+1)
		}
	}
	if len(ends) > 1 {
		lo, hi := 0, len(ends)-1 // ends[hi] (the whole) works
		for lo < hi {
			mid := (lo + hi) / 2
			if try(keep[:ends[mid]]) {
				hi = mid
			} else {
				lo = mid + 1
			}
		}
		keep = keep[:ends[hi]]
	}
	// ddmin, complements only.
	n := 2
	for len(keep) >= 2 && tests < budget {
		chunk := (len(keep) + n - 1) / n
		reduced := false
		for start := 0; start < len(keep); start += chunk {
			end := min(start+chunk, len(keep))
			cand := slices.Concat(keep[:start], keep[end:])
			if try(cand) {
				keep = cand
				n = max(n-1, 2)
				reduced = true
				break
			}
		}
		if !reduced {
			if n >= len(keep) {
				break
			}
			n = min(2*n, len(keep))
		}
	}
	// One call at a time, last first, until nothing more goes.
	for changed := true; changed && tests < budget; {
		changed = false
		for i := len(keep) - 1; i >= 0; i-- {
			cand := slices.Delete(slices.Clone(keep), i, i+1)
			if try(cand) {
				keep = cand
				changed = true
			}
		}
	}
	return subset(tr, keep, pinned), nil
}

// subset is the trace of the first pinned calls and the calls keep names.
func subset(tr *trace.Trace, keep []int, pinned int) *trace.Trace {
	out := &trace.Trace{Width: tr.Width, Height: tr.Height, DepthBits: tr.DepthBits, StencilBits: tr.StencilBits}
	out.Calls = append(out.Calls, tr.Calls[:pinned]...)
	for _, i := range keep {
		out.Calls = append(out.Calls, tr.Calls[i])
	}
	return out
}

// Pinned is the number of leading calls a reduction keeps: up to and
// including the first Clear of every buffer, and the projection set up
// after it (through the MatrixMode MODELVIEW that ends it). A surface's
// contents are undefined until cleared, so a trace without that Clear
// compares garbage; and a reduction that drops the MatrixMode MODELVIEW
// moves the scene's model-view transforms onto the projection, which
// would reduce to a different failure than the scene's.
func Pinned(tr *trace.Trace) int {
	clear := -1
	for i, c := range tr.Calls {
		if strings.HasPrefix(c.Name, "Draw") {
			break
		}
		if clear < 0 {
			if c.Name == "Clear" && len(c.Args) == 1 && c.Args[0].Text == clearAll {
				clear = i
			}
			continue
		}
		if c.Name == "MatrixMode" && len(c.Args) == 1 && c.Args[0].Text == "MODELVIEW" {
			return i + 1
		}
	}
	return clear + 1
}

// Plausible is a quick check of a candidate trace before it is replayed:
// every draw has the vertex array enabled, and every enabled array has had
// its Pointer call (GL would draw nothing, or read a null pointer); and no
// draw reads BYTE or SHORT texture coordinates beyond ±maxRepeats from
// client memory on a unit whose texture matrix is the identity. The
// generator scales such coordinates back with the texture matrix (the
// textures stay smooth); a candidate that drops that matrix repeats the
// texture hundreds of times per pixel, where the texel each implementation
// picks depends on its sub-texel precision alone, and would reduce to that
// instead of the scene's failure. (ReduceCalls applies that last rule
// only when the whole trace keeps it.)
func Plausible(tr *trace.Trace) bool { return plausible(tr, true) }

func plausible(tr *trace.Trace, texMatrices bool) bool {
	on := map[string]bool{}
	set := map[string]bool{}
	unit := "TEXTURE0"
	active, mode := "TEXTURE0", "MODELVIEW"
	scaled := map[string]bool{} // units whose texture matrix is not the identity
	wild := map[string]bool{}   // units whose integer coordinates need that matrix
	arrayBuffer := false
	key := func(array string) string {
		if array == "TEXTURE_COORD_ARRAY" {
			return array + "/" + unit
		}
		return array
	}
	pointers := map[string]string{"VertexPointer": "VERTEX_ARRAY", "ColorPointer": "COLOR_ARRAY",
		"NormalPointer": "NORMAL_ARRAY", "TexCoordPointer": "TEXTURE_COORD_ARRAY", "PointSizePointerOES": "POINT_SIZE_ARRAY_OES"}
	for _, c := range tr.Calls {
		switch c.Name {
		case "ClientActiveTexture":
			unit = c.Args[0].Text
		case "EnableClientState":
			on[key(c.Args[0].Text)] = true
		case "DisableClientState":
			on[key(c.Args[0].Text)] = false
		case "ActiveTexture":
			active = c.Args[0].Text
		case "MatrixMode":
			mode = c.Args[0].Text
		case "LoadIdentity":
			if mode == "TEXTURE" {
				scaled[active] = false
			}
		case "Scalef", "Translatef", "Rotatef", "LoadMatrixf", "MultMatrixf":
			if mode == "TEXTURE" {
				scaled[active] = true
			}
		case "BindBuffer":
			if len(c.Args) == 2 && c.Args[0].Text == "ARRAY_BUFFER" {
				arrayBuffer = c.Args[1].Text != "0"
			}
		case "DrawArrays", "DrawElements":
			if !on["VERTEX_ARRAY"] {
				return false
			}
			for k, v := range on {
				if v && !set[k] {
					return false
				}
			}
			for u, w := range wild {
				if texMatrices && w && on["TEXTURE_COORD_ARRAY/"+u] && !scaled[u] {
					return false
				}
			}
		default:
			if a, ok := pointers[c.Name]; ok {
				set[key(a)] = true
			}
			if c.Name == "TexCoordPointer" {
				wild[unit] = !arrayBuffer && len(c.Args) == 4 && wideIntegers(c.Args[1].Text, c.Args[3].Bytes)
			}
		}
	}
	return true
}

// maxRepeats bounds the integer texture coordinates Plausible accepts on a
// unit without a texture matrix.
const maxRepeats = 64

// wideIntegers reports whether BYTE or SHORT data holds a value beyond
// ±maxRepeats.
func wideIntegers(typ string, data []byte) bool {
	switch typ {
	case "BYTE":
		for _, b := range data {
			if v := int8(b); v > maxRepeats || v < -maxRepeats {
				return true
			}
		}
	case "SHORT":
		for i := 0; i+1 < len(data); i += 2 {
			if v := int16(binary.LittleEndian.Uint16(data[i:])); v > maxRepeats || v < -maxRepeats {
				return true
			}
		}
	}
	return false
}

// TraceFamilies reads the families a trace's calls touch, as a name for
// the class of a reduced trace (a reduced trace keeps only the calls its
// failure needs, so what it touches is what the failure is about).
func TraceFamilies(tr *trace.Trace) Families {
	var f Families
	arg := func(c *trace.Call, i int) string {
		if i < len(c.Args) {
			return c.Args[i].Text
		}
		return ""
	}
	for i := range tr.Calls {
		c := &tr.Calls[i]
		switch c.Name {
		case "DrawArrays", "DrawElements":
			switch arg(c, 0) {
			case "POINTS":
				f = f.With(FamPoints)
			case "LINES", "LINE_STRIP", "LINE_LOOP":
				f = f.With(FamLines)
			default:
				f = f.With(FamTriangles)
			}
			if c.Name == "DrawElements" {
				f = f.With(FamDrawElements)
			}
		case "VertexPointer", "ColorPointer", "TexCoordPointer", "NormalPointer", "PointSizePointerOES":
			typ := arg(c, 1)
			if c.Name == "NormalPointer" || c.Name == "PointSizePointerOES" {
				typ = arg(c, 0)
			}
			switch typ {
			case "BYTE":
				f = f.With(FamByte)
			case "SHORT":
				f = f.With(FamShort)
			case "FIXED":
				f = f.With(FamFixed)
			}
			if c.Name == "PointSizePointerOES" {
				f = f.With(FamPointSizeArray)
			}
		case "BufferData":
			f = f.With(FamBufferObjects)
		case "TexImage2D":
			switch {
			case arg(c, 7) != "UNSIGNED_BYTE":
				f = f.With(FamTex16)
			case arg(c, 2) == "RGB" || arg(c, 2) == "RGBA":
				f = f.With(FamTexRGBA8)
			default:
				f = f.With(FamTexLumAlpha)
			}
		case "CompressedTexImage2D":
			if strings.HasPrefix(arg(c, 2), "PALETTE") {
				f = f.With(FamTexPaletted)
			} else {
				f = f.With(FamTexETC1)
			}
		case "TexSubImage2D", "CopyTexImage2D", "CopyTexSubImage2D":
			f = f.With(FamTexSubImage)
		case "TexParameteri":
			switch arg(c, 2) {
			case "CLAMP_TO_EDGE", "MIRRORED_REPEAT":
				f = f.With(FamTexClamp)
			case "LINEAR", "LINEAR_MIPMAP_LINEAR", "LINEAR_MIPMAP_NEAREST", "NEAREST_MIPMAP_LINEAR":
				f = f.With(FamTexLinear)
			}
			if strings.Contains(arg(c, 2), "MIPMAP") {
				f = f.With(FamMipmap)
			}
			if arg(c, 1) == "GENERATE_MIPMAP" {
				f = f.With(FamGenerateMipmap)
			}
		case "TexEnvi", "TexEnvf", "TexEnvfv":
			switch {
			case arg(c, 0) == "POINT_SPRITE_OES":
				f = f.With(FamPointSprite)
			case arg(c, 2) == "COMBINE":
				f = f.With(FamCombine)
			case strings.HasPrefix(arg(c, 2), "DOT3"):
				f = f.With(FamCombineDot3)
			case arg(c, 1) == "TEXTURE_ENV_MODE":
				f = f.With(FamTexEnv)
			}
		case "PointSize", "PointParameterf", "PointParameterfv":
			f = f.With(FamPointParams)
		case "LineWidth":
			f = f.With(FamWideLines)
		case "ShadeModel":
			if arg(c, 0) == "FLAT" {
				f = f.With(FamFlatShading)
			}
		case "LightModelf":
			if arg(c, 0) == "LIGHT_MODEL_TWO_SIDE" {
				f = f.With(FamTwoSide)
			}
		case "Viewport", "DepthRangef":
			f = f.With(FamViewport)
		case "ColorMask", "DepthMask", "StencilMask":
			f = f.With(FamMasks)
		case "BlendEquationOES", "BlendEquationSeparateOES", "BlendFuncSeparateOES":
			f = f.With(FamBlendExt)
		case "Clear":
			if i > 0 && slices.ContainsFunc(tr.Calls[:i], func(c trace.Call) bool { return strings.HasPrefix(c.Name, "Draw") }) {
				f = f.With(FamClear)
			}
		case "MatrixMode":
			if arg(c, 0) == "TEXTURE" {
				f = f.With(FamTexMatrix)
			}
		case "Enable":
			if fam, ok := enableFamilies[arg(c, 0)]; ok {
				f = f.With(fam)
			}
			if strings.HasPrefix(arg(c, 0), "LIGHT") && arg(c, 0) >= "LIGHT4" && arg(c, 0) <= "LIGHT7" {
				f = f.With(FamManyLights)
			}
		case "Lightfv", "Lightf":
			if arg(c, 1) == "SPOT_CUTOFF" {
				f = f.With(FamSpotLights)
			}
		}
	}
	if tr.DepthBits == 0 && f.Has(FamDepthTest) {
		f = f&^(1<<FamDepthTest) | 1<<FamNoDepthBuffer
	}
	return f
}

var enableFamilies = map[string]Family{
	"TEXTURE_2D": FamTexture, "LIGHTING": FamLighting, "COLOR_MATERIAL": FamColorMaterial,
	"NORMALIZE": FamNormalize, "RESCALE_NORMAL": FamNormalize, "FOG": FamFog, "CULL_FACE": FamCull,
	"CLIP_PLANE0": FamClipPlanes, "POLYGON_OFFSET_FILL": FamPolygonOffset, "SCISSOR_TEST": FamScissor,
	"ALPHA_TEST": FamAlphaTest, "STENCIL_TEST": FamStencil, "DEPTH_TEST": FamDepthTest, "BLEND": FamBlend,
	"COLOR_LOGIC_OP": FamLogicOp, "POINT_SPRITE_OES": FamPointSprite,
}
