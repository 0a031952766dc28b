package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/retrogl/retrogl/internal/glfuzz"
)

// TestMain lets the test binary serve as the fuzzer's child process.
func TestMain(m *testing.M) {
	for _, a := range os.Args[1:] {
		if a == "-child" {
			o := options{deadline: 30 * time.Second, heapMB: 256, maxCalls: glfuzz.DefaultMaxCalls}
			os.Exit(child(o))
		}
	}
	os.Exit(m.Run())
}

func testOptions(t *testing.T) options {
	return options{n: 3, seed: 7, parallel: 1, maxCalls: 20, deadline: 5 * time.Second, heapMB: 256,
		out: t.TempDir(), minimize: 20, quiet: true, backend: "glamo3365"}
}

// TestFuzzRun runs three short programs in a child process: nothing to
// find, every program counted.
func TestFuzzRun(t *testing.T) {
	o := testOptions(t)
	f := &fuzzer{o: o, gopt: o.genOptions(), programs: map[string]int{}, calls: map[string]int{}, found: map[string]*finding{}}
	f.work()
	var out bytes.Buffer
	f.summary(&out, time.Second)
	assert.Equal(t, 3, f.programs["glamo3365"])
	assert.Empty(t, f.found)
	assert.Contains(t, out.String(), "rglfuzz: 3 programs")
	assert.Contains(t, out.String(), "found nothing")
}

// TestChildCrashAndHang: a child that dies is a crash with its fatal
// error as the signature, one that stops answering is a hang; either way
// the finding is minimised and written as a Go program.
func TestChildCrashAndHang(t *testing.T) {
	for _, tc := range []struct {
		env   string
		class glfuzz.Class
		sig   string
	}{
		{"crash", glfuzz.ClassCrash, "crash: fatal error: out of memory (test)"},
		{"hang", glfuzz.ClassHang, "hang (child killed)"},
	} {
		t.Run(tc.env, func(t *testing.T) {
			t.Setenv("RGLFUZZ_TEST_CHILD", tc.env)
			o := testOptions(t)
			o.n, o.deadline, o.minimize, o.killAfter = 1, 100*time.Millisecond, 3, time.Second
			f := &fuzzer{o: o, gopt: o.genOptions(), programs: map[string]int{}, calls: map[string]int{}, found: map[string]*finding{}}
			f.work()
			require.Len(t, f.found, 1)
			for _, fd := range f.found {
				assert.Equal(t, tc.class, fd.Class)
				assert.Equal(t, tc.sig, fd.Sig)
				src, err := os.ReadFile(fd.file)
				require.NoError(t, err)
				p, err := glfuzz.Parse(string(src))
				require.NoError(t, err)
				assert.Equal(t, "glamo3365", p.Backend)
				assert.Equal(t, filepath.Dir(fd.file), o.out)
			}
		})
	}
}

func TestFirstRepoFrame(t *testing.T) {
	tb := `fatal error: out of memory

goroutine 7 [running]:
runtime.throw({0x1, 0x2})
	/usr/local/go/src/runtime/panic.go:1101 +0x48
github.com/retrogl/retrogl/gles.(*Context).BufferData(0x1)
	/work/retrogl/gles/arrays.go:274 +0x1c5
github.com/retrogl/retrogl/internal/glfuzz.call(0x1)
	/work/retrogl/internal/glfuzz/exec.go:300 +0x5
`
	assert.Equal(t, "gles/arrays.go:274", firstRepoFrame(tb))
	var b tailBuffer
	b.max = 4
	b.Write([]byte("abcdef"))
	assert.Equal(t, "cdef", b.String())
}
