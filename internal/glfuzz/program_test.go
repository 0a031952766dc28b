package glfuzz

import (
	"testing"

	"github.com/stretchr/testify/require"

	_ "github.com/retrogl/retrogl/backends"
)

// TestFormatParse checks that every generated program survives printing
// as Go and parsing back.
func TestFormatParse(t *testing.T) {
	for seed := uint64(0); seed < 300; seed++ {
		p := Generate(RandSource(seed), GenOptions{})
		src := p.Format("seed")
		q, err := Parse(src)
		require.NoError(t, err, "seed %d:\n%s", seed, src)
		require.Equal(t, p.Backend, q.Backend)
		require.Equal(t, p.Config, q.Config, "seed %d", seed)
		require.Len(t, q.Calls, len(p.Calls), "seed %d", seed)
		// Formatting is exact (NaN compares unequal, so compare text).
		require.Equal(t, src, q.Format("seed"), "seed %d", seed)
	}
}
