package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/retrogl/retrogl/internal/testenv"
	"github.com/retrogl/retrogl/tools/mesaref"
)

// fakeMesa stands in for OSMesa: every run draws frames in a fixed time.
type fakeMesa struct {
	avail error
	runs  []string
}

func (f *fakeMesa) Available() error { return f.avail }

func (f *fakeMesa) Bench(r mesaref.Renderer, scene string, w, h int, opt mesaref.BenchOptions) (*mesaref.BenchRun, error) {
	f.runs = append(f.runs, string(r)+" "+scene)
	wall := time.Second
	if r == mesaref.Llvmpipe {
		wall = time.Second / 10
	}
	return &mesaref.BenchRun{Renderer: string(r), Frames: 2, Wall: wall, CPU: wall}, nil
}

// cheap is a run that takes milliseconds: glamo3365's flat fill, one frame.
var cheap = []string{"-backend", "glamo3365", "-scene", "fill-flat", "-frames", "1", "-time", "0", "-workers", "1"}

func runJSON(t *testing.T, m mesaBench, args ...string) ([]map[string]any, string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code := run(append(append([]string{}, cheap...), append(args, "-json")...), &out, &errOut, m)
	require.Equal(t, 0, code, errOut.String())
	var res []map[string]any
	require.NoError(t, json.Unmarshal(out.Bytes(), &res), out.String())
	return res, errOut.String()
}

func TestJSONKeysWithMesa(t *testing.T) {
	m := &fakeMesa{}
	res, _ := runJSON(t, m, "-mesa", "-rounds", "2")
	require.Len(t, res, 1)
	r := res[0]
	for _, k := range []string{"backend", "scene", "mpix", "tris", "cpu_per_frame", "softpipe", "llvmpipe1", "vs_llvmpipe1", "vs_softpipe", "vs_llvmpipe1_min", "vs_softpipe_min"} {
		require.Contains(t, r, k)
	}
	require.Equal(t, "glamo3365", r["backend"])
	require.Equal(t, "fill-flat", r["scene"])
	require.EqualValues(t, 2, r["rounds"])
	require.EqualValues(t, 1, r["workers"])
	// Rounds interleave: ours, softpipe, llvmpipe, ours, ...
	require.Equal(t, []string{"softpipe fill-flat", "llvmpipe fill-flat", "softpipe fill-flat", "llvmpipe fill-flat"}, m.runs)
	// 8 quads of 480x480 pixels, 2 frames a second on softpipe, 20 on llvmpipe.
	px := 8 * 480 * 480.0
	require.InDelta(t, 2*px/1e6, r["softpipe"], 1e-9)
	require.InDelta(t, 20*px/1e6, r["llvmpipe1"], 1e-9)
	require.InDelta(t, 0.5, r["softpipe_cpu_per_frame"], 1e-9)
	// Both rounds' Mesa figures are equal, so the median ratio is our
	// median over Mesa's and the minimum is the ratio of our slower round.
	require.InDelta(t, r["mpix"].(float64)/r["softpipe"].(float64), r["vs_softpipe"], 1e-9)
	require.InDelta(t, r["mpix"].(float64)/r["llvmpipe1"].(float64), r["vs_llvmpipe1"], 1e-9)
	require.LessOrEqual(t, r["vs_softpipe_min"], r["vs_softpipe"])
}

func TestMissingMesa(t *testing.T) {
	m := &fakeMesa{avail: errors.New("mesaref: OSMesa not found by pkg-config")}
	res, stderr := runJSON(t, m, "-mesa")
	require.Contains(t, stderr, "libosmesa6-dev")
	require.Contains(t, stderr, "figures alone")
	require.Empty(t, m.runs)
	require.Len(t, res, 1)
	require.Contains(t, res[0], "mpix")
	for _, k := range []string{"softpipe", "llvmpipe1", "vs_llvmpipe1", "vs_softpipe"} {
		require.NotContains(t, res[0], k)
	}

	var out, errOut bytes.Buffer
	require.Equal(t, 0, run(append(append([]string{}, cheap...), "-mesa"), &out, &errOut, m))
	require.Contains(t, out.String(), "Mesa not available (install libosmesa6-dev)")
	require.NotContains(t, out.String(), "softpipe")
}

func TestWithoutMesaFlagMesaIsNotAsked(t *testing.T) {
	m := &fakeMesa{avail: errors.New("must not be asked")}
	res, stderr := runJSON(t, m)
	require.Empty(t, stderr)
	require.Empty(t, m.runs)
	require.NotContains(t, res[0], "softpipe")
}

func TestTextTable(t *testing.T) {
	var out, errOut bytes.Buffer
	require.Equal(t, 0, run(append(append([]string{}, cheap...), "-mesa"), &out, &errOut, &fakeMesa{}), errOut.String())
	s := out.String()
	require.Contains(t, s, "glamo3365  fill-flat       480x480  glamo3365")
	// softpipe: 2 frames/s of 8 x 480 x 480 pixels = 3.69 Mpix/s, 500 ms a frame.
	require.Contains(t, s, "softpipe         3.69        0.0    500.00    500.00")
	require.Contains(t, s, "llvmpipe1       36.86        0.3     50.00     50.00")
}

func TestBadArguments(t *testing.T) {
	for _, args := range [][]string{
		{"-scene", "no-such-scene"},
		{"-backend", "no-such-backend"},
		{"-rounds", "0"},
		{"-workers", "0"},
		{"extra"},
	} {
		var out, errOut bytes.Buffer
		require.Equal(t, 2, run(args, &out, &errOut, &fakeMesa{}), "%v", args)
		require.NotEmpty(t, errOut.String(), "%v", args)
	}
}

// TestRealMesa runs the cheap scene beside OSMesa: the Mesa keys are there.
func TestRealMesa(t *testing.T) {
	testenv.Need(t, mesaref.Package, mesaref.Available())
	res, _ := runJSON(t, osMesa{}, "-mesa", "-rounds", "1")
	require.Len(t, res, 1)
	for _, k := range []string{"softpipe", "llvmpipe1", "vs_llvmpipe1", "vs_softpipe"} {
		require.Contains(t, res[0], k)
		require.Greater(t, res[0][k], 0.0)
	}
}
