package main

import (
	"bytes"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/retrogl/retrogl/examples/scenes"
	"github.com/retrogl/retrogl/gles"
)

// TestREADMESample checks the README's sample dump ("Reading a
// command-stream dump") against what rgldis prints for the triangle
// example's capture on pspge, so the sample cannot go stale: every line
// must appear, in order ("..." stands for lines or fields left out).
func TestREADMESample(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	require.NoError(t, err)
	_, after, ok := strings.Cut(string(readme), "`rgldis` prints one line per command word")
	require.True(t, ok, "the README's dump section")
	// The sample is the first indented block after that sentence.
	var sample []string
	for _, l := range strings.Split(after, "\n") {
		if strings.HasPrefix(l, "    ") {
			sample = append(sample, strings.TrimPrefix(l, "    "))
		} else if len(sample) > 0 {
			break
		}
	}
	require.NotEmpty(t, sample)

	var capture, out bytes.Buffer
	s := scenes.Triangle()
	cfg := s.Config
	cfg.Capture = &capture
	ctx, err := gles.NewContext("pspge", cfg)
	require.NoError(t, err)
	require.NoError(t, s.Draw(ctx))
	require.NoError(t, ctx.Close())
	require.NoError(t, disassemble(&out, capture.Bytes(), "", "0"))
	got := strings.Split(out.String(), "\n")

	i := 0
	for _, want := range sample {
		if want == "..." {
			continue
		}
		head, tail, elided := strings.Cut(want, " ... ")
		for ; i < len(got); i++ {
			if got[i] == want || elided && strings.HasPrefix(got[i], head+" ") && strings.HasSuffix(got[i], " "+tail) {
				break
			}
		}
		if !assert.Less(t, i, len(got), "README sample line %q is not in rgldis's output (in order):\n%s", want, out.String()) {
			return
		}
		i++
	}
}
