// Package golden compares test output with files under the module's
// testdata directory, and rewrites them when the tests run with -update:
//
//	go test ./driver/pspge -update   # then review the diff like code
//
// Text and byte goldens must match exactly. Image goldens must match pixel
// for pixel: the simulators are deterministic, so there is no tolerance.
package golden

import (
	"bytes"
	"flag"
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"testing"
)

var update = flag.Bool("update", false, "rewrite golden files under testdata/")

// Updating reports whether the test binary runs with -update.
func Updating() bool { return *update }

// Path returns the path of testdata/<elem...> at the module root, found by
// walking up from the test's directory to go.mod.
func Path(elem ...string) string {
	dir, err := os.Getwd()
	if err != nil {
		return filepath.Join(append([]string{"testdata"}, elem...)...)
	}
	for d := dir; ; d = filepath.Dir(d) {
		if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
			return filepath.Join(append([]string{d, "testdata"}, elem...)...)
		}
		if filepath.Dir(d) == d {
			return filepath.Join(append([]string{dir, "testdata"}, elem...)...)
		}
	}
}

func write(t testing.TB, path string, data []byte) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// Bytes compares got with the golden file at path (or rewrites it).
func Bytes(t testing.TB, path string, got []byte) {
	t.Helper()
	if *update {
		write(t, path, got)
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("missing golden file %s (run go test -update): %v", path, err)
	}
	if !bytes.Equal(want, got) {
		t.Errorf("%s differs from the golden file%s (rewrite with -update and review the diff)", path, firstDiff(want, got))
	}
}

// Text compares got with the golden text file at path (or rewrites it).
func Text(t testing.TB, path, got string) {
	t.Helper()
	Bytes(t, path, []byte(got))
}

// firstDiff names the first differing line of two texts.
func firstDiff(want, got []byte) string {
	wl, gl := bytes.Split(want, []byte("\n")), bytes.Split(got, []byte("\n"))
	for i := 0; i < len(wl) || i < len(gl); i++ {
		var w, g []byte
		if i < len(wl) {
			w = wl[i]
		}
		if i < len(gl) {
			g = gl[i]
		}
		if !bytes.Equal(w, g) {
			return ": line " + itoa(i+1) + ":\n  want " + string(w) + "\n  got  " + string(g) + "\n"
		}
	}
	return ""
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	var b []byte
	for ; n > 0; n /= 10 {
		b = append([]byte{byte('0' + n%10)}, b...)
	}
	return string(b)
}

// Image compares img with the golden PNG at path pixel for pixel (or
// rewrites it). It reports how many pixels differ.
func Image(t testing.TB, path string, img image.Image) {
	t.Helper()
	if *update {
		var b bytes.Buffer
		if err := png.Encode(&b, img); err != nil {
			t.Fatal(err)
		}
		write(t, path, b.Bytes())
		return
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatalf("missing golden image %s (run go test -update): %v", path, err)
	}
	defer f.Close()
	want, err := png.Decode(f)
	if err != nil {
		t.Fatalf("golden image %s: %v", path, err)
	}
	if want.Bounds() != img.Bounds() {
		t.Errorf("%s: size %v, golden %v", path, img.Bounds(), want.Bounds())
		return
	}
	diff := 0
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			if color.NRGBAModel.Convert(want.At(x, y)) != color.NRGBAModel.Convert(img.At(x, y)) {
				diff++
			}
		}
	}
	if diff != 0 {
		t.Errorf("%s: %d pixels differ from the golden image (rewrite with -update and look at it)", path, diff)
	}
}
