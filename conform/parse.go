// Package conform reads piglit .shader_test files and runs them on a
// retrogl backend: the sections [require], [vertex shader], [fragment
// shader], [vertex data], [fragment program] and [test], and the test
// commands the target files use (clear, draw rect, draw arrays, uniform,
// probe, texture, enable/disable, blend func, depthfunc, ...).
package conform

import (
	"bufio"
	"fmt"
	"io"
	"strings"
)

// Test is a parsed .shader_test file.
type Test struct {
	// Name is the file name the test came from.
	Name string
	// Require holds the [require] lines ("GLSL >= 1.10", "GL_ARB_...").
	Require []Line
	// VertexShader and FragmentShader hold GLSL source; an empty vertex
	// shader with PassthroughVS set means [vertex shader passthrough].
	VertexShader, FragmentShader string
	VertexLine, FragmentLine     int
	PassthroughVS                bool
	// FragmentProgram holds ARB_fragment_program assembly, if any.
	FragmentProgram string
	// VertexData holds the [vertex data] section: a header naming the
	// attributes and rows of values.
	VertexData []Line
	// Commands are the [test] lines.
	Commands []Line
}

// Line is one non-empty line with its 1-based line number.
type Line struct {
	N    int
	Text string
}

// Fields splits the line into whitespace-separated words.
func (l Line) Fields() []string { return strings.Fields(l.Text) }

// Parse reads a .shader_test file. Unknown sections are an error naming
// the line, so a test is never half-understood.
func Parse(name string, r io.Reader) (*Test, error) {
	t := &Test{Name: name}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	section := ""
	var src *strings.Builder
	var vs, fs, fp strings.Builder
	n := 0
	for sc.Scan() {
		n++
		raw := sc.Text()
		trimmed := strings.TrimSpace(raw)
		if strings.HasPrefix(trimmed, "[") && strings.HasSuffix(trimmed, "]") && !strings.Contains(trimmed[1:len(trimmed)-1], "[") {
			section = trimmed[1 : len(trimmed)-1]
			src = nil
			switch section {
			case "require", "test", "vertex data":
			case "vertex shader":
				src, t.VertexLine = &vs, n+1
			case "vertex shader passthrough":
				t.PassthroughVS = true
			case "fragment shader":
				src, t.FragmentLine = &fs, n+1
			case "fragment program":
				src = &fp
			default:
				return nil, fmt.Errorf("%s:%d: unsupported section [%s]", name, n, section)
			}
			continue
		}
		if src != nil {
			src.WriteString(raw)
			src.WriteByte('\n')
			continue
		}
		// Outside source sections, '#' starts a comment.
		if i := strings.Index(trimmed, "#"); i >= 0 {
			trimmed = strings.TrimSpace(trimmed[:i])
		}
		if trimmed == "" {
			continue
		}
		switch section {
		case "require":
			t.Require = append(t.Require, Line{n, trimmed})
		case "test":
			t.Commands = append(t.Commands, Line{n, trimmed})
		case "vertex data":
			t.VertexData = append(t.VertexData, Line{n, trimmed})
		case "":
			return nil, fmt.Errorf("%s:%d: text before the first section", name, n)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	t.VertexShader, t.FragmentShader, t.FragmentProgram = vs.String(), fs.String(), fp.String()
	return t, nil
}

// GLSLVersion returns the version the [require] section asks for (in
// hundredths: 110 for "GLSL >= 1.10", "GLSL ES >= 1.00" gives 100 and es
// true), or 0 when it names none.
func (t *Test) GLSLVersion() (v int, es bool) {
	for _, r := range t.Require {
		f := r.Fields()
		if len(f) < 3 || f[0] != "GLSL" {
			continue
		}
		i := 1
		if f[1] == "ES" {
			es, i = true, 2
		}
		if i+1 < len(f) {
			var maj, min int
			if _, err := fmt.Sscanf(f[i+1], "%d.%d", &maj, &min); err == nil {
				return maj*100 + min, es
			}
		}
	}
	return 0, es
}
