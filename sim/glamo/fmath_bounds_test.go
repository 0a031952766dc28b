package glamo

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestExp2Edges: a legal draw with fog and floats read at a misaligned
// stride panicked the simulator: y - floor(y) rounds to 1 for a tiny
// negative y and indexed past the table.
func TestExp2Edges(t *testing.T) {
	assert.Equal(t, 1.0, fexp2(-1e-20), "2^-1e-20 rounds to 2^0")
	assert.Equal(t, 0.5, fexp2(-1-1e-17), "2^(-1-1e-17) rounds to 2^-1")
	assert.Equal(t, 0.0, fexp2(math.NaN()))
	assert.Equal(t, 0.0, fexp2(math.Inf(-1)))
	assert.True(t, math.IsInf(fexp2(math.Inf(1)), 1))
	assert.Equal(t, 4.0, fexp2(2))
	for y := -30.0; y < 30; y += 0.37 {
		assert.InEpsilon(t, math.Exp2(y), fexp2(y), 1e-6, "y = %v", y)
	}
}
