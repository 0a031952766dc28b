package golden

import (
	"image"
	"image/color"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

type recorder struct {
	testing.TB
	errs []string
}

func (r *recorder) Errorf(format string, args ...any) { r.errs = append(r.errs, format) }
func (r *recorder) Helper()                           {}

func TestCompare(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "a.golden")
	if err := os.WriteFile(p, []byte("one\ntwo\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r := &recorder{TB: t}
	Text(r, p, "one\ntwo\n")
	if len(r.errs) != 0 {
		t.Fatalf("equal text reported: %v", r.errs)
	}
	Text(r, p, "one\nthree\n")
	if len(r.errs) != 1 {
		t.Fatalf("different text not reported")
	}
	if d := firstDiff([]byte("one\ntwo\n"), []byte("one\nthree\n")); !strings.Contains(d, "line 2") {
		t.Errorf("firstDiff = %q", d)
	}
	img := image.NewNRGBA(image.Rect(0, 0, 2, 2))
	*update = true
	Image(t, filepath.Join(dir, "i.png"), img)
	*update = false
	img.Set(1, 1, color.NRGBA{1, 2, 3, 4})
	r.errs = nil
	Image(r, filepath.Join(dir, "i.png"), img)
	if len(r.errs) != 1 {
		t.Fatalf("a changed pixel was not reported")
	}
	if !strings.HasSuffix(Path("x", "y"), filepath.Join("testdata", "x", "y")) {
		t.Errorf("Path = %s", Path("x", "y"))
	}
}
