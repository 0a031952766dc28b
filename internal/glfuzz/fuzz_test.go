package glfuzz

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/retrogl/retrogl/gles"
)

// seedLimits bound the short runs of go test: a program of the seeds or
// of FuzzGL's corpus must finish each call well inside this.
var seedLimits = Limits{Deadline: 60 * time.Second}

// TestSeeds runs every program under testdata/seeds, one per class of
// failure issue 15 found (and the fuzzer since): each must now run clean.
func TestSeeds(t *testing.T) {
	files, err := filepath.Glob("testdata/seeds/*.go")
	require.NoError(t, err)
	require.NotEmpty(t, files)
	sort.Strings(files)
	for _, f := range files {
		t.Run(strings.TrimSuffix(filepath.Base(f), ".go"), func(t *testing.T) {
			src, err := os.ReadFile(f)
			require.NoError(t, err)
			p, err := Parse(string(src))
			require.NoError(t, err)
			require.NotEmpty(t, p.Calls)
			r := Run(p, seedLimits)
			assert.Equal(t, OK, r.Class, "%v\n%s", r, r.Stack)
		})
	}
}

// FuzzGL runs a program generated from the fuzzer's bytes on a backend
// they choose: a panic, a hang past the deadline, heap growth past the
// bound or a device fault fails it. The corpus starts with the recorded
// choices of a few seeds of cmd/rglfuzz; `go test ./internal/glfuzz -fuzz
// FuzzGL` fuzzes further, though cmd/rglfuzz (child processes, fatal
// errors caught) is the tool for long runs.
func FuzzGL(f *testing.F) {
	for _, seed := range []uint64{1, 2, 3, 5, 8, 13} {
		rec := RecordSource(RandSource(seed))
		Generate(rec, GenOptions{MaxCalls: 40})
		f.Add(rec.Bytes())
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		p := Generate(ByteSource(data), GenOptions{MaxCalls: 200})
		r := Run(p, seedLimits)
		if r.Class != OK {
			t.Fatalf("%v\n%s\n%s", r, r.Stack, p.Format(string(r.Class)+": "+r.Sig))
		}
	})
}

// TestRecordSource checks that recorded choices replay as the same
// program.
func TestRecordSource(t *testing.T) {
	for seed := uint64(1); seed < 50; seed++ {
		rec := RecordSource(RandSource(seed))
		p := Generate(rec, GenOptions{})
		q := Generate(ByteSource(rec.Bytes()), GenOptions{})
		require.Equal(t, p.Format(""), q.Format(""), "seed %d", seed)
	}
}

// TestEveryEntryPoint checks that the fuzzer calls every entry point of
// *gles.Context: each one the generator can pick runs by reflection.
func TestEveryEntryPoint(t *testing.T) {
	ctx, err := gles.NewContext("r300", gles.Config{Width: 8, Height: 8, ES2: true})
	require.NoError(t, err)
	defer ctx.Close()
	g := &gen{src: RandSource(1)}
	for i := range api {
		m := &api[i]
		if m.Name == "Close" {
			continue
		}
		c := Call{Recv: m.Recv, Method: m.Name}
		for _, p := range m.Params {
			c.Args = append(c.Args, g.argFor(m, p))
		}
		recv := receiver(ctx, m.Recv)
		assert.NoError(t, call(recv, c), "%s", m.Name)
	}
	assert.Greater(t, len(api), 200)
}
