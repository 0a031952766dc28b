package glsl

import (
	"os"
	"path/filepath"
	"testing"
)

// addSeeds adds every shader of the repository's own test suite to the
// fuzz corpus (the committed corpus under testdata/fuzz adds edge cases).
func addSeeds(f *testing.F, add func(src string)) {
	paths, _ := filepath.Glob("../../testdata/glsl/*/*.*")
	for _, p := range paths {
		if filepath.Ext(p) != ".vert" && filepath.Ext(p) != ".frag" {
			continue
		}
		src, err := os.ReadFile(p)
		if err == nil {
			add(string(src))
		}
	}
}

func FuzzPreprocess(f *testing.F) {
	addSeeds(f, func(s string) { f.Add(s) })
	f.Fuzz(func(t *testing.T, src string) {
		d := &diags{}
		preprocess(src, &Options{Stage: StageFragment}, d)
	})
}

func FuzzParse(f *testing.F) {
	addSeeds(f, func(s string) { f.Add(s) })
	f.Fuzz(func(t *testing.T, src string) {
		d := &diags{}
		pp := preprocess(src, &Options{}, d)
		toks := lex(pp.toks, pp.version, d)
		parse(toks, pp.version, d)
	})
}

func FuzzCompile(f *testing.F) {
	addSeeds(f, func(s string) { f.Add(s, uint8(0)) })
	f.Fuzz(func(t *testing.T, src string, mode uint8) {
		opts := Options{Stage: Stage(mode & 1), Version: []int{100, 110, 120, 100}[mode>>1&3], AppendixA: mode&8 != 0}
		sh, err := Compile(src, opts)
		if err != nil {
			if _, ok := err.(ErrorList); !ok {
				t.Fatalf("error of type %T", err)
			}
			return
		}
		_ = sh.String()
		if sh.Stage == StageVertex {
			_, _ = Link(sh, nil, LinkOptions{})
		} else {
			_, _ = Link(nil, sh, LinkOptions{})
		}
	})
}
