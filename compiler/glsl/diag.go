package glsl

import (
	"fmt"
	"sort"
	"strings"
)

// Pos is a source position: source string number (changed by #line), line and
// column, both 1-based. The zero Pos means "no position" (built-ins).
type Pos struct {
	File int
	Line int
	Col  int
}

// String formats the position as "file:line(col)".
func (p Pos) String() string { return fmt.Sprintf("%d:%d(%d)", p.File, p.Line, p.Col) }

// IsValid reports whether p names a place in the source.
func (p Pos) IsValid() bool { return p.Line > 0 }

// Severity tells an error from a warning.
type Severity uint8

// Severities.
const (
	SevError Severity = iota
	SevWarning
)

// String returns the name of the Severity.
func (s Severity) String() string {
	if s == SevWarning {
		return "warning"
	}
	return "error"
}

// Diagnostic is one message of the info log.
type Diagnostic struct {
	Pos Pos
	Sev Severity
	Msg string
}

// String formats the diagnostic as "0:12(5): error: message".
func (d Diagnostic) String() string {
	return fmt.Sprintf("%s: %s: %s", d.Pos, d.Sev, d.Msg)
}

// ErrorList is the error returned by Compile and Link: every diagnostic, in
// source order, with at least one error among them. Its Error text is the
// info log GL would show.
type ErrorList []Diagnostic

// Error joins the diagnostics, one per line.
func (l ErrorList) Error() string {
	var b strings.Builder
	for i, d := range l {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(d.String())
	}
	return b.String()
}

// maxDiagnostics bounds the number of errors kept for one shader: a
// pathological source must not build an unbounded log.
const maxDiagnostics = 100

// diags collects diagnostics for one compilation.
type diags struct {
	list   []Diagnostic
	errors int
}

func (d *diags) errorf(p Pos, format string, args ...any) {
	d.errors++
	if len(d.list) < maxDiagnostics {
		d.list = append(d.list, Diagnostic{Pos: p, Sev: SevError, Msg: fmt.Sprintf(format, args...)})
	}
}

func (d *diags) warnf(p Pos, format string, args ...any) {
	if len(d.list) < maxDiagnostics {
		d.list = append(d.list, Diagnostic{Pos: p, Sev: SevWarning, Msg: fmt.Sprintf(format, args...)})
	}
}

// sorted returns the diagnostics in source order (stable for equal positions).
func (d *diags) sorted() []Diagnostic {
	out := append([]Diagnostic(nil), d.list...)
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i].Pos, out[j].Pos
		if a.File != b.File {
			return a.File < b.File
		}
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		return a.Col < b.Col
	})
	return out
}

// err returns every diagnostic (warnings included, as GL's info log shows
// them) as an ErrorList, or nil when there were no errors.
func (d *diags) err() error {
	if d.errors == 0 {
		return nil
	}
	return ErrorList(d.sorted())
}
