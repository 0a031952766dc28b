package difftest

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/hashicorp/go-multierror"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/retrogl/retrogl/backends"
	"github.com/retrogl/retrogl/gles"
	"github.com/retrogl/retrogl/internal/golden"
	"github.com/retrogl/retrogl/internal/testenv"
	"github.com/retrogl/retrogl/tools/mesaref"
	"github.com/retrogl/retrogl/trace"
)

func TestGenerateIsDeterministic(t *testing.T) {
	for seed := uint64(1); seed <= 20; seed++ {
		a, b := Generate(seed), Generate(seed)
		require.Equal(t, a.Text, b.Text, "seed %d", seed)
		assert.Equal(t, a.Families, b.Families)
		assert.NotEqual(t, a.Text, Generate(seed+1).Text)
		// The text is the trace.
		tr, err := trace.Parse(bytes.NewReader(a.Text))
		require.NoError(t, err)
		assert.Equal(t, textOf(a.Trace), textOf(tr))
	}
}

// TestEveryFamilyIsCovered: over 400 seeds the generator uses every state
// group at least 8 times.
func TestEveryFamilyIsCovered(t *testing.T) {
	count := map[Family]int{}
	for seed := uint64(1); seed <= 400; seed++ {
		for _, f := range Generate(seed).Families.List() {
			count[f]++
		}
	}
	for _, f := range AllFamilies() {
		assert.GreaterOrEqual(t, count[f], 8, "family %s", f)
	}
}

// glErrors returns the GL validation errors (gles.Error) among err's
// errors: a generated trace must raise none on any backend. Refusals
// (driver.Unsupported) and device faults are the backend's, not the
// generator's.
func glErrors(err error) []error {
	var out []error
	var m *multierror.Error
	var errs []error
	if errors.As(err, &m) {
		errs = m.Errors
	} else if err != nil {
		errs = []error{err}
	}
	for _, e := range errs {
		var ge *gles.Error
		if errors.As(e, &ge) {
			out = append(out, e)
		}
	}
	return out
}

// TestGeneratedTracesAreValid replays scenes on every backend: no call
// raises a GL validation error, whatever the backend can draw.
func TestGeneratedTracesAreValid(t *testing.T) {
	for seed := uint64(1); seed <= 30; seed++ {
		s := Generate(seed)
		for _, b := range backends.Names() {
			if len(missingExtensions(b, s.Needs)) > 0 {
				continue
			}
			_, err := RenderBackend(b, s.Trace)
			assert.Empty(t, glErrors(err), "seed %d on %s", seed, b)
		}
	}
}

// TestVerdicts runs a fixed set of seeds on Mesa and every backend and
// keeps every verdict in testdata/difftest/verdicts.golden: a backend that
// starts or stops agreeing with Mesa on one of them changes the file
// (go test ./tools/difftest -update, and say why in the commit).
func TestVerdicts(t *testing.T) {
	testenv.Need(t, mesaref.Package, mesaref.Available())
	tt := NewTester(backends.Names(), 2)
	defer tt.Close()
	var b strings.Builder
	fmt.Fprintf(&b, "# seed: verdict per backend (go run ./cmd/rgldiff -seed N -v shows one)\n")
	for _, res := range tt.RunSeeds(1, 24, 2, nil) {
		require.NoError(t, res.MesaErr, "seed %d: Mesa", res.Scene.Seed)
		fmt.Fprintf(&b, "%d:", res.Scene.Seed)
		for _, br := range res.Backends {
			fmt.Fprintf(&b, " %s=%s", br.Backend, br.Verdict)
			require.Empty(t, glErrors(br.Err), "seed %d on %s", res.Scene.Seed, br.Backend)
		}
		b.WriteString("\n")
	}
	golden.Bytes(t, golden.Path("difftest", "verdicts.golden"), []byte(b.String()))
}

// TestReduceCalls reduces a trace against a predicate known in advance:
// the result keeps exactly the calls the predicate needs, in order, and
// the pinned first Clear.
func TestReduceCalls(t *testing.T) {
	s := Generate(7)
	tr := s.Trace
	// The predicate: the trace still has its third Enable and its last
	// draw, and the last draw follows the Enable.
	var enable3, lastDraw int
	n := 0
	for i, c := range tr.Calls {
		if c.Name == "Enable" {
			n++
			if n == 3 {
				enable3 = i
			}
		}
		if strings.HasPrefix(c.Name, "Draw") {
			lastDraw = i
		}
	}
	require.Less(t, enable3, lastDraw)
	want := []string{tr.Calls[enable3].String(), tr.Calls[lastDraw].String()}
	test := func(c *trace.Trace) bool {
		k := 0
		for _, call := range c.Calls {
			if k < len(want) && call.String() == want[k] {
				k++
			}
		}
		return k == len(want)
	}
	got, err := ReduceCalls(tr, test, 1000)
	require.NoError(t, err)
	pinned := Pinned(tr)
	require.Positive(t, pinned)
	var lines []string
	for _, c := range got.Calls[pinned:] {
		lines = append(lines, c.String())
	}
	// The draw needs its vertex array (see Plausible): the reduction keeps
	// the last EnableClientState and VertexPointer before it.
	assert.Contains(t, lines, want[0])
	assert.Equal(t, want[1], lines[len(lines)-1])
	assert.LessOrEqual(t, len(lines), 6, "%q", lines)
	assert.Equal(t, tr.Calls[:pinned], got.Calls[:pinned])

	_, err = ReduceCalls(tr, func(*trace.Trace) bool { return false }, 10)
	assert.ErrorIs(t, err, ErrNotReproduced)
}

func TestPlausible(t *testing.T) {
	parse := func(s string) *trace.Trace {
		tr, err := trace.Parse(strings.NewReader("retrogl-trace 1\nSurface 8 8 0 0\n" + s))
		require.NoError(t, err)
		return tr
	}
	assert.True(t, Plausible(parse("EnableClientState VERTEX_ARRAY\nVertexPointer 2 FLOAT 0 [8]AAAAAAAAAAA=\nDrawArrays POINTS 0 1\n")))
	assert.False(t, Plausible(parse("VertexPointer 2 FLOAT 0 [8]AAAAAAAAAAA=\nDrawArrays POINTS 0 1\n")), "array disabled")
	assert.False(t, Plausible(parse("EnableClientState VERTEX_ARRAY\nDrawArrays POINTS 0 1\n")), "no pointer")
	assert.False(t, Plausible(parse("EnableClientState VERTEX_ARRAY\nVertexPointer 2 FLOAT 0 [8]AAAAAAAAAAA=\n"+
		"ClientActiveTexture TEXTURE1\nEnableClientState TEXTURE_COORD_ARRAY\nClientActiveTexture TEXTURE0\n"+
		"TexCoordPointer 2 FLOAT 0 [8]AAAAAAAAAAA=\nDrawArrays POINTS 0 1\n")), "unit 1's pointer never set")
}

// TestWithoutDstAlpha: the blend factors that read the destination alpha
// become their values for a destination alpha of 1; the alpha factors of
// BlendFuncSeparateOES stay.
func TestWithoutDstAlpha(t *testing.T) {
	tr, err := trace.Parse(strings.NewReader("retrogl-trace 1\nSurface 8 8 0 0\nBlendFunc DST_ALPHA ONE_MINUS_DST_ALPHA\n" +
		"BlendFunc SRC_ALPHA_SATURATE ONE\nBlendFuncSeparateOES ONE_MINUS_DST_ALPHA DST_ALPHA DST_ALPHA ONE_MINUS_DST_ALPHA\nEnable BLEND\n"))
	require.NoError(t, err)
	require.True(t, readsDstAlpha(tr))
	got := WithoutDstAlpha(tr)
	assert.Equal(t, "retrogl-trace 1\nSurface 8 8 0 0\nBlendFunc ONE ZERO\nBlendFunc ZERO ONE\n"+
		"BlendFuncSeparateOES ZERO ONE DST_ALPHA ONE_MINUS_DST_ALPHA\nEnable BLEND\n", string(textOf(got)))
	assert.Equal(t, "BlendFunc DST_ALPHA ONE_MINUS_DST_ALPHA", tr.Calls[0].String(), "the original is unchanged")
	assert.False(t, readsDstAlpha(got))
}

func TestSignature(t *testing.T) {
	err := multierror.Append(nil, errors.New("glDrawArrays: pspge: multitexture is not supported: unit 1 at 0x40 with 3 passes"),
		errors.New("glDrawArrays: second"))
	assert.Equal(t, "glDrawArrays: pspge: multitexture is not supported: unit # at # with # passes", Signature(err))
	assert.Equal(t, "", Signature(nil))
}

// TestDeviations keeps the evidence of the Mesa deviations the generator
// and the replayer avoid (docs/differential.md): on each trace in
// testdata/difftest/deviations a backend that follows GL ES 1.1 there
// differs from the Mesa renderer named when Mesa sizes the points itself
// (MESAREF_MESA_POINT_SIZE=1, see tools/mesaref's draw_points), and passes
// against the replayer as the tester runs it and against softpipe. When
// Debian's Mesa changes and they agree, the test fails: the workaround can
// go.
func TestDeviations(t *testing.T) {
	testenv.Need(t, mesaref.Package, mesaref.Available())
	cases := []struct {
		file, backend string
		renderer      mesaref.Renderer
	}{
		// A point is clipped by its centre only (ES 1.1 section 2.11);
		// llvmpipe cuts these attenuated size-24 points at the viewport
		// edge when it computes their sizes per vertex itself, softpipe
		// does not. The replayer's own attenuation (one point at a time,
		// each with its size) avoids it too; the generator keeps 1-pixel
		// points under a small viewport all the same, so that the seeds'
		// scenes stay what they were.
		{"wide-points-viewport.trace", "r300", mesaref.Llvmpipe},
	}
	scenes := make([]*Scene, len(cases))
	tt := NewTester([]string{}, 1)
	defer tt.Close()
	for i, tc := range cases {
		text, err := os.ReadFile(golden.Path("difftest", "deviations", tc.file))
		require.NoError(t, err)
		scenes[i], err = SceneOf(text)
		require.NoError(t, err)
		for _, r := range []mesaref.Renderer{tc.renderer, mesaref.Softpipe} {
			ref, err := tt.mesaOn(r, scenes[i].Text)
			require.NoError(t, err)
			br := Judge(scenes[i], tc.backend, ref, false)
			assert.Equal(t, Pass, br.Verdict, "%s on %s against %s: %v", tc.file, tc.backend, r, br.Cmp)
		}
	}
	// The servers of own start after Setenv: Mesa sizes the points.
	t.Setenv("MESAREF_MESA_POINT_SIZE", "1")
	own := NewTester([]string{}, 1)
	defer own.Close()
	for i, tc := range cases {
		ref, err := own.mesaOn(tc.renderer, scenes[i].Text)
		require.NoError(t, err)
		br := Judge(scenes[i], tc.backend, ref, false)
		assert.Equal(t, Differs, br.Verdict, "%s on %s against %s sizing the points: %v", tc.file, tc.backend, tc.renderer, br.Cmp)
	}
}
