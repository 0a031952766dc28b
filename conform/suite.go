package conform

import (
	"bufio"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

// Kind is the kind of a piglit test file.
type Kind uint8

// The kinds of file the runner judges.
const (
	// ShaderTest is a .shader_test file (shader_runner's format): shaders,
	// uniforms, draws and probes.
	ShaderTest Kind = iota + 1
	// ParserTest is a glslparsertest file: one shader (.vert, .frag, ...)
	// with a [config] block giving the expected verdict.
	ParserTest
	// Constants is a built-in-constants file (minimum-maximums.txt): the
	// minimum value of each gl_Max* constant.
	Constants
)

// String names the kind as piglit names its runner.
func (k Kind) String() string {
	switch k {
	case ShaderTest:
		return "shader_test"
	case ParserTest:
		return "glslparsertest"
	case Constants:
		return "built-in-constants"
	}
	return "unknown"
}

// MarshalText writes the kind's name (for JSON).
func (k Kind) MarshalText() ([]byte, error) { return []byte(k.String()), nil }

// MarshalText writes "PASS", "FAIL" or "SKIP" (for JSON).
func (s Status) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// KindOf tells the kind of a test file from its name: .shader_test; the
// glslparsertest extensions .vert, .frag, .geom, .tesc, .tese and .comp;
// minimum-maximums*.txt. The second result is false for other files.
func KindOf(path string) (Kind, bool) {
	base := filepath.Base(path)
	switch ext := filepath.Ext(base); {
	case ext == ".shader_test":
		return ShaderTest, true
	case parserStages[ext] != 0 || ext == ".geom" || ext == ".tesc" || ext == ".tese" || ext == ".comp":
		return ParserTest, true
	case strings.HasPrefix(base, "minimum-maximums") && ext == ".txt":
		return Constants, true
	}
	return 0, false
}

// Find returns the test files under each root (a file or a directory),
// sorted: every file KindOf knows, or with glob only those whose base name
// matches it. A root that is a file is kept whatever its name (RunFile
// then judges it by its content's kind, or fails).
func Find(roots []string, glob string) ([]string, error) {
	var out []string
	for _, root := range roots {
		err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() {
				return nil
			}
			if _, ok := KindOf(p); !ok && p != root {
				return nil
			}
			if glob != "" {
				if ok, _ := filepath.Match(glob, filepath.Base(p)); !ok {
					return nil
				}
			}
			out = append(out, p)
			return nil
		})
		if err != nil {
			return nil, fmt.Errorf("conform: %w", err)
		}
	}
	sort.Strings(out)
	return out, nil
}

// RunFile judges one file of any kind, within r.Timeout.
func (r *Runner) RunFile(path string) Result {
	exec := r.exec
	if exec == nil {
		exec = r.runKind
	}
	if r.Timeout <= 0 {
		return exec(path)
	}
	done := make(chan Result, 1)
	go func() { done <- exec(path) }()
	t := time.NewTimer(r.Timeout)
	defer t.Stop()
	select {
	case res := <-done:
		return res
	case <-t.C:
		return Result{Fail, fmt.Sprintf("timed out after %v", r.Timeout)}
	}
}

// runKind judges a file by its kind.
func (r *Runner) runKind(path string) Result {
	switch k, _ := KindOf(path); k {
	case ParserTest:
		return r.runParserTest(path)
	case Constants:
		return r.runConstants(path)
	case ShaderTest:
		return r.runShaderTest(path)
	}
	return Result{Fail, "not a piglit test file (.shader_test, a glslparsertest shader or minimum-maximums.txt)"}
}

// runShaderTest parses and runs one .shader_test file.
func (r *Runner) runShaderTest(path string) Result {
	f, err := os.Open(path)
	if err != nil {
		return Result{Fail, err.Error()}
	}
	defer f.Close()
	t, err := Parse(path, f)
	if err != nil {
		return Result{Skip, err.Error()}
	}
	return r.Run(t)
}

// Expectations are the files expected to fail or be skipped, with the
// reason: "path: reason" lines, '#' comments.
type Expectations map[string]string

// ReadExpectations reads an expected-results file.
func ReadExpectations(r io.Reader) (Expectations, error) {
	e := Expectations{}
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		i := strings.Index(line, ": ")
		if i < 0 {
			return nil, fmt.Errorf("conform: expectation %q has no \": reason\"", line)
		}
		e[line[:i]] = line[i+2:]
	}
	return e, sc.Err()
}
