// Command gallery renders every example on every registered backend and
// writes one PNG per (example, backend), plus contact.png: a grid with a
// row per example and a column per backend (and a first column with the
// Mesa reference when testdata/reference is found), each cell labelled with
// the example and backend names. A backend that lacks a feature the example
// needs shows its partial image under a "missing: ..." label. It prints a
// progress line per image, with the figure against the Mesa reference
// (docs/examples.md):
//
//	go run ./examples/gallery -out gallery
//
// It exits 1 only on a real failure (a backend that has every feature an
// example needs raised an error, or a file could not be written), never
// because a feature is missing. The output is the same on every run.
package main

import (
	"flag"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/image/draw"
	"golang.org/x/image/font"
	"golang.org/x/image/font/inconsolata"
	"golang.org/x/image/math/fixed"

	"github.com/retrogl/retrogl/backends"
	"github.com/retrogl/retrogl/examples/compare"
	"github.com/retrogl/retrogl/examples/internal/app"
	"github.com/retrogl/retrogl/examples/scenes"
)

func main() {
	out := flag.String("out", "gallery", "output directory")
	only := flag.String("backend", "", "comma-separated backends (default: every registered backend)")
	sceneList := flag.String("scene", "", "comma-separated example images (default: all)")
	refDir := flag.String("ref", "testdata/reference", "directory of the Mesa references (skipped when absent)")
	flag.Parse()
	ok, err := run(*out, split(*only), split(*sceneList), *refDir)
	if err != nil {
		fmt.Fprintln(os.Stderr, "gallery:", err)
		os.Exit(1)
	}
	if !ok {
		os.Exit(1)
	}
}

func split(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(s, ",")
}

// cell is one image of the sheet with its labels.
type cell struct {
	img     image.Image
	title   string
	status  string
	warning bool // status is drawn as a warning over the image
}

func run(out string, backendNames, sceneNames []string, refDir string) (bool, error) {
	if len(backendNames) == 0 {
		backendNames = backends.Names()
	}
	var ss []scenes.Scene
	if len(sceneNames) == 0 {
		ss = scenes.All()
	}
	for _, n := range sceneNames {
		s, found := scenes.Lookup(n)
		if !found {
			return false, fmt.Errorf("no example image %q", n)
		}
		ss = append(ss, s)
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		return false, err
	}
	total := len(ss) * len(backendNames)
	n := 0
	allOK := true
	var rows [][]cell
	for _, s := range ss {
		var row []cell
		ref := readPNG(filepath.Join(refDir, s.Name+".png"))
		if ref != nil {
			row = append(row, cell{img: ref, title: s.Name + " / mesa", status: "reference (softpipe)"})
		}
		for _, b := range backendNames {
			n++
			res := app.RenderScene(b, s, nil)
			c := cell{img: res.Image, title: s.Name + " / " + b}
			var status []string
			switch {
			case res.Failed():
				allOK = false
				c.status, c.warning = "FAILED: "+firstLine(res.Err), true
				status = append(status, "FAILED")
			case len(res.Missing) > 0:
				c.status, c.warning = app.MissingText(res.Missing), true
				status = append(status, "partial ("+c.status+")")
			default:
				status = append(status, "ok")
			}
			if ref != nil && res.Image != nil {
				tol := compare.For(b)
				if r, err := compare.Images(res.Image, ref, tol.Threshold); err == nil {
					status = append(status, "vs mesa: "+r.String())
					if !c.warning {
						c.status = "vs mesa: " + r.String()
					}
				}
			}
			path := filepath.Join(out, fmt.Sprintf("%s-%s.png", s.Name, b))
			if res.Image != nil {
				if err := app.WritePNG(path, res.Image); err != nil {
					return false, err
				}
			} else {
				path = "(no image)"
			}
			fmt.Printf("[%2d/%d] %-13s %-10s %s  %s\n", n, total, s.Name, b, path, strings.Join(status, "; "))
			if res.Failed() {
				fmt.Fprintf(os.Stderr, "%v\n", res.Err)
			}
			row = append(row, c)
		}
		rows = append(rows, row)
	}
	sheet := contactSheet(rows)
	path := filepath.Join(out, "contact.png")
	if err := app.WritePNG(path, sheet); err != nil {
		return false, err
	}
	fmt.Println(path)
	return allOK, nil
}

func firstLine(err error) string {
	if err == nil {
		return ""
	}
	s, _, _ := strings.Cut(err.Error(), "\n")
	return s
}

func readPNG(path string) image.Image {
	f, err := os.Open(path)
	if err != nil {
		return nil
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		return nil
	}
	return img
}

// The sheet's geometry: thumbnails at 3/4 of the examples' 320x240.
const (
	thumbW, thumbH = 240, 180
	pad            = 8
	titleH         = 18
	cellW          = thumbW + 2*pad
	cellH          = titleH + thumbH + 2*pad
)

var (
	background = color.NRGBA{24, 24, 28, 255}
	titleColor = color.NRGBA{230, 230, 230, 255}
	okColor    = color.NRGBA{140, 220, 140, 255}
	warnColor  = color.NRGBA{255, 120, 90, 255}
	warnBand   = color.NRGBA{0, 0, 0, 190}
)

// contactSheet lays the cells out in a grid, scaling each image into its
// thumbnail with Catmull-Rom filtering.
func contactSheet(rows [][]cell) *image.NRGBA {
	cols := 0
	for _, r := range rows {
		cols = max(cols, len(r))
	}
	sheet := image.NewNRGBA(image.Rect(0, 0, max(cols, 1)*cellW, max(len(rows), 1)*cellH))
	draw.Draw(sheet, sheet.Bounds(), image.NewUniform(background), image.Point{}, draw.Src)
	face := inconsolata.Regular8x16
	for y, r := range rows {
		for x, c := range r {
			ox, oy := x*cellW+pad, y*cellH+pad
			text(sheet, face, ox, oy+13, c.title, titleColor)
			thumb := image.Rect(ox, oy+titleH, ox+thumbW, oy+titleH+thumbH)
			if c.img != nil {
				draw.CatmullRom.Scale(sheet, thumb, c.img, c.img.Bounds(), draw.Src, nil)
			}
			if c.status == "" {
				continue
			}
			lines := wrap(c.status, thumbW/8-1)
			band := image.Rect(thumb.Min.X, thumb.Max.Y-len(lines)*16-4, thumb.Max.X, thumb.Max.Y)
			col := okColor
			if c.warning {
				col = warnColor
			}
			draw.Draw(sheet, band, image.NewUniform(warnBand), image.Point{}, draw.Over)
			for i, l := range lines {
				text(sheet, face, band.Min.X+4, band.Min.Y+14+16*i, l, col)
			}
		}
	}
	return sheet
}

// wrap breaks s into lines of at most n characters at blanks.
func wrap(s string, n int) []string {
	var lines []string
	line := ""
	for _, w := range strings.Fields(s) {
		switch {
		case line == "":
			line = w
		case len(line)+1+len(w) <= n:
			line += " " + w
		default:
			lines = append(lines, line)
			line = w
		}
	}
	if line != "" {
		lines = append(lines, line)
	}
	if len(lines) > 4 {
		lines = append(lines[:3], lines[3]+" ...")
	}
	return lines
}

func text(dst draw.Image, face font.Face, x, y int, s string, c color.Color) {
	d := font.Drawer{Dst: dst, Src: image.NewUniform(c), Face: face, Dot: fixed.P(x, y)}
	d.DrawString(s)
}
