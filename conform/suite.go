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
)

// Find returns the .shader_test files under each root (a file or a
// directory), sorted, with names relative to base when base is a prefix.
func Find(roots []string, glob string) ([]string, error) {
	var out []string
	for _, root := range roots {
		err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() || !strings.HasSuffix(p, ".shader_test") {
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

// RunFile parses and runs one file.
func (r *Runner) RunFile(path string) Result {
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
