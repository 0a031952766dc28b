package main

import (
	"context"
	"encoding/base64"
	"flag"
	"fmt"
	"net/http/httptest"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/retrogl/retrogl/hal"
	"github.com/retrogl/retrogl/internal/testenv"
	"github.com/retrogl/retrogl/tools/frame"
)

var screenshot = flag.String("screenshot", "", "write a screenshot of the page the browser test ends on to this PNG file (docs/rglview.png)")

// browser starts Debian's chromium headless, cut off from the network
// (this machine's is closed), with a fresh profile.
func browser(t *testing.T) context.Context {
	t.Helper()
	path, err := exec.LookPath("chromium")
	if err != nil {
		if _, e := os.Stat("/usr/bin/chromium"); e == nil {
			path, err = "/usr/bin/chromium", nil
		}
	}
	testenv.Need(t, "chromium", err)
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(path),
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.UserDataDir(t.TempDir()),
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.WindowSize(1280, 900),
	)
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancel := chromedp.NewContext(actx)
	t.Cleanup(func() { cancel(); cancelAlloc() })
	// The first Run starts the browser; it lives as long as ctx (no
	// timeout on it: each step below has its own).
	require.NoError(t, chromedp.Do(ctx), "starting chromium")
	return ctx
}

// step runs an action with a time limit.
func step[T any](t *testing.T, ctx context.Context, a chromedp.Action[T]) T {
	t.Helper()
	tctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	v, err := chromedp.Run(tctx, a)
	require.NoError(t, err)
	return v
}

// shownColour is a script that waits for the colour buffer's image to load
// and returns its pixels, drawn into a canvas at its natural size, as a
// PNG data URL.
const shownColour = `new Promise((resolve, reject) => {
	const img = document.getElementById('color');
	const grab = () => {
		const c = document.createElement('canvas');
		c.width = img.naturalWidth; c.height = img.naturalHeight;
		c.getContext('2d').drawImage(img, 0, 0);
		resolve(c.toDataURL('image/png'));
	};
	if (img.complete && img.naturalWidth > 0) grab(); else { img.onload = grab; img.onerror = () => reject('colour image failed'); }
})`

func TestBrowser(t *testing.T) {
	data := triangleCapture(t, "r300")
	f, err := frame.Load(data)
	require.NoError(t, err)
	require.GreaterOrEqual(t, len(f.Draws), 2)
	srv := httptest.NewServer(newServer("triangle.cap", data, ""))
	defer srv.Close()
	ctx := browser(t)

	step(t, ctx, chromedp.Navigate(srv.URL+"/"))
	title := step(t, ctx, chromedp.Text(chromedp.ID("title")))
	assert.True(t, strings.HasPrefix(title, "draw 0"), title)

	// Step to the second draw with the page's own link.
	step(t, ctx, chromedp.Click(chromedp.ID("next")))
	step(t, ctx, chromedp.WaitVisible(chromedp.ID("prev"))) // only after draw 0
	title = step(t, ctx, chromedp.Text(chromedp.ID("title")))
	assert.True(t, strings.HasPrefix(title, "draw 1"), title)

	dataURL := step(t, ctx, chromedp.Evaluate[string](shownColour, chromedp.EvalAwaitPromise))
	b64, ok := strings.CutPrefix(dataURL, "data:image/png;base64,")
	require.True(t, ok, dataURL[:min(len(dataURL), 40)])
	raw, err := base64.StdEncoding.DecodeString(b64)
	require.NoError(t, err)
	shown := decodePNG(t, raw)
	snap, err := f.After(1)
	require.NoError(t, err)
	var colour *frame.SurfaceView
	for i := range snap.Surfaces {
		if snap.Surfaces[i].Kind == hal.SurfaceColor {
			colour = &snap.Surfaces[i]
			break
		}
	}
	require.NotNil(t, colour)
	require.NoError(t, colour.Err)
	sameImage(t, surfaceImage(colour), shown)

	// Click the pixel (160, 130) of the colour buffer.
	const px, py = 160, 130
	rect := step(t, ctx, chromedp.Evaluate[map[string]float64](
		`(() => { const r = document.getElementById('color').getBoundingClientRect(); return {x: r.left, y: r.top}; })()`))
	step(t, ctx, chromedp.MouseClickXY(rect["x"]+px+0.5, rect["y"]+py+0.5))
	step(t, ctx, chromedp.WaitVisible(chromedp.ID("pixel-writes")))
	draws := step(t, ctx, chromedp.Evaluate[[]string](`[...document.querySelectorAll('#pixel-writes tr.write')].map(r => r.dataset.draw)`))
	h, err := f.History(1, px, py)
	require.NoError(t, err)
	var want []string
	for _, w := range h.Writes {
		want = append(want, fmt.Sprint(w.Draw))
	}
	require.NotEmpty(t, want)
	assert.Equal(t, want, draws)
	heading := step(t, ctx, chromedp.Text(chromedp.CSS("#pixel h3")))
	assert.Contains(t, heading, fmt.Sprintf("Pixel (%d, %d)", px, py))

	if *screenshot != "" {
		step(t, ctx, chromedp.Evaluate[any](`window.scrollTo(0, 0)`))
		png := step(t, ctx, chromedp.CaptureScreenshot())
		require.NoError(t, os.WriteFile(*screenshot, png, 0o644))
	}
}
