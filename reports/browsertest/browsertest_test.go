package browsertest

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func pngOf(t *testing.T, img image.Image) []byte {
	var buf bytes.Buffer
	require.NoError(t, png.Encode(&buf, img))
	return buf.Bytes()
}

func TestInk(t *testing.T) {
	img := image.NewRGBA(image.Rect(0, 0, 10, 10))
	for i := range img.Pix {
		img.Pix[i] = 255
	}
	ink, total, err := Ink(pngOf(t, img))
	require.NoError(t, err)
	assert.Equal(t, 0, ink)
	assert.Equal(t, 100, total)

	img.Set(1, 1, color.RGBA{0, 0, 0, 255})
	img.Set(2, 2, color.RGBA{255, 255, 200, 255}) // pale yellow counts
	img.Set(3, 3, color.RGBA{240, 240, 240, 255}) // near-white does not
	ink, _, err = Ink(pngOf(t, img))
	require.NoError(t, err)
	assert.Equal(t, 2, ink)

	_, _, err = Ink([]byte("not a png"))
	assert.Error(t, err)
}

func TestFileURL(t *testing.T) {
	u, err := FileURL("/tmp/a b/report.html")
	require.NoError(t, err)
	assert.Equal(t, "file:///tmp/a%20b/report.html", u)
}

// TestOpen checks the helper itself on a tiny page: a drawn canvas has ink,
// and a thrown exception and a console.error are both recorded.
func TestOpen(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "p.html")
	require.NoError(t, os.WriteFile(path, []byte(`<!DOCTYPE html><html><body style="margin:0;background:#fff">
<canvas id="c" width="200" height="100"></canvas>
<script>
var g = document.getElementById("c").getContext("2d");
g.fillStyle = "#000"; g.fillRect(10, 10, 50, 50);
window.done = true;
console.error("boom");
setTimeout(function () { throw new Error("late"); }, 0);
</script></body></html>`), 0o644))
	u, err := FileURL(path)
	require.NoError(t, err)
	p := Open(t, u, Options{Width: 400, Height: 300})
	require.NoError(t, p.WaitFor(`window.done === true`, 10*time.Second))
	require.NoError(t, p.WaitFor(`true`, time.Second))
	shot, err := p.ElementScreenshot("#c")
	require.NoError(t, err)
	ink, total, err := Ink(shot)
	require.NoError(t, err)
	assert.Equal(t, 200*100, total)
	assert.InDelta(t, 2500, ink, 200)

	n, err := Eval[int](p, `1 + 2`)
	require.NoError(t, err)
	assert.Equal(t, 3, n)

	require.Eventually(t, func() bool { return len(p.Errors()) >= 2 }, 5*time.Second, 50*time.Millisecond)
	errs := p.Errors()
	assert.Contains(t, errs[0]+errs[1], "boom")
	assert.Contains(t, errs[0]+errs[1], "late")
}
