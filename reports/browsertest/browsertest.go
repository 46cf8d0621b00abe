package browsertest

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/png"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

// EnvRequire, set to 1 (CI does), turns a missing browser or library into a
// test failure instead of a skip.
const EnvRequire = "KCALAB_REQUIRE_BROWSER"

// EnvChromium may name the Chromium binary; otherwise it is looked up as
// chromium, chromium-browser, google-chrome on PATH.
const EnvChromium = "KCALAB_CHROMIUM"

// Required reports whether KCALAB_REQUIRE_BROWSER=1.
func Required() bool { return os.Getenv(EnvRequire) == "1" }

// Unavailable skips the test with the reason, or fails it when
// KCALAB_REQUIRE_BROWSER=1.
func Unavailable(t testing.TB, format string, args ...any) {
	t.Helper()
	msg := fmt.Sprintf(format, args...)
	if Required() {
		t.Fatalf("%s (%s=1, so this is a failure, not a skip)", msg, EnvRequire)
	}
	t.Skipf("%s (set %s=1 to make this a failure)", msg, EnvRequire)
}

// Chromium returns the browser's path, or calls Unavailable.
func Chromium(t testing.TB) string {
	t.Helper()
	if p := os.Getenv(EnvChromium); p != "" {
		if _, err := os.Stat(p); err != nil {
			t.Fatalf("%s=%s: %v", EnvChromium, p, err)
		}
		return p
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	Unavailable(t, "no Chromium found (install it with .ci/install-chromium.sh, or set %s)", EnvChromium)
	return ""
}

// Options size the window and bound the whole session.
type Options struct {
	Width, Height int           // window; 0 means 1400×1000
	Timeout       time.Duration // whole browser session; 0 means 90 s
}

// Page is a page open in a fresh headless Chromium that records the page's
// JavaScript errors.
type Page struct {
	t   testing.TB
	ctx context.Context

	mu   sync.Mutex
	errs []string
}

// Open starts Chromium with a new empty profile and no network beyond
// loopback and files, and loads rawURL (see FileURL). The browser stops when
// the test ends.
func Open(t testing.TB, rawURL string, o Options) *Page {
	t.Helper()
	exe := Chromium(t)
	w, h := o.Width, o.Height
	if w == 0 {
		w = 1400
	}
	if h == 0 {
		h = 1000
	}
	timeout := o.Timeout
	if timeout == 0 {
		timeout = 90 * time.Second
	}
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	t.Cleanup(cancel)
	actx, acancel := chromedp.NewExecAllocator(ctx,
		chromedp.ExecPath(exe),
		chromedp.Flag("headless", true),
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.Flag("disable-quic", true),
		chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck,
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-extensions", true),
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.Flag("hide-scrollbars", true),
		chromedp.Flag("mute-audio", true),
		chromedp.Flag("force-device-scale-factor", "1"),
		// Names resolve to nothing, so a page that tries the network fails
		// fast instead of reaching out.
		chromedp.Flag("host-resolver-rules", "MAP * ~NOTFOUND, EXCLUDE localhost"),
		chromedp.WindowSize(w, h),
		chromedp.UserDataDir(t.TempDir()),
	)
	t.Cleanup(acancel)
	bctx, bcancel := chromedp.NewContext(actx)
	t.Cleanup(bcancel)

	p := &Page{t: t, ctx: bctx}
	if err := chromedp.Listen(bctx, p.record); err != nil {
		t.Fatalf("starting Chromium (%s): %v", exe, err)
	}
	if err := chromedp.Do(bctx, chromedp.Navigate(rawURL)); err != nil {
		t.Fatalf("loading %s: %v", rawURL, err)
	}
	return p
}

// record keeps JavaScript exceptions, console.error/assert calls and
// error-level log entries (such as failed loads).
func (p *Page) record(ev any) {
	var msg string
	switch ev := ev.(type) {
	case *runtime.EventExceptionThrown:
		d := ev.ExceptionDetails
		msg = fmt.Sprintf("exception: %s", d.Text)
		if d.Exception != nil && d.Exception.Description != "" {
			msg += ": " + d.Exception.Description
		}
		msg += fmt.Sprintf(" (%s:%d:%d)", d.URL, d.LineNumber+1, d.ColumnNumber+1)
	case *runtime.EventConsoleAPICalled:
		if ev.Type != runtime.ConsoleAPICalledTypeError && ev.Type != runtime.ConsoleAPICalledTypeAssert {
			return
		}
		var parts []string
		for _, a := range ev.Args {
			if a.Description != "" {
				parts = append(parts, a.Description)
			} else {
				parts = append(parts, string(a.Value))
			}
		}
		msg = fmt.Sprintf("console.%s: %s", ev.Type, strings.Join(parts, " "))
	case *log.EventEntryAdded:
		if ev.Entry.Level != log.EntryLevelError {
			return
		}
		msg = fmt.Sprintf("log: %s %s", ev.Entry.Text, ev.Entry.URL)
	default:
		return
	}
	p.mu.Lock()
	p.errs = append(p.errs, msg)
	p.mu.Unlock()
}

// Errors returns the JavaScript errors seen so far.
func (p *Page) Errors() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]string(nil), p.errs...)
}

// Eval evaluates a JavaScript expression and decodes its JSON value.
func Eval[T any](p *Page, expr string) (T, error) {
	return chromedp.Run(p.ctx, chromedp.Evaluate[T](expr))
}

// WaitFor polls the JavaScript predicate until it is true or timeout passes.
func (p *Page) WaitFor(predicate string, timeout time.Duration) error {
	_, err := chromedp.Run(p.ctx, chromedp.Poll[bool](predicate,
		chromedp.WithPollingTimeout(timeout), chromedp.WithPollingInterval(50*time.Millisecond)))
	if err != nil {
		return fmt.Errorf("waiting for %s: %w", predicate, err)
	}
	return nil
}

// Screenshot returns a PNG of the whole page, beyond the window too.
func (p *Page) Screenshot() ([]byte, error) {
	return chromedp.Run(p.ctx, chromedp.FullScreenshot(100))
}

// ElementScreenshot returns a PNG of the first element matching the CSS
// selector.
func (p *Page) ElementScreenshot(sel string) ([]byte, error) {
	return chromedp.Run(p.ctx, chromedp.Screenshot(chromedp.CSS(sel)))
}

// Ink counts the pixels of a PNG that are not near-white (any channel below
// 230 of 255), and all pixels: a chart that failed to draw is all white.
func Ink(pngData []byte) (ink, total int, err error) {
	img, err := png.Decode(bytes.NewReader(pngData))
	if err != nil {
		return 0, 0, fmt.Errorf("decoding screenshot: %w", err)
	}
	return inkOf(img), img.Bounds().Dx() * img.Bounds().Dy(), nil
}

func inkOf(img image.Image) int {
	const light = 230 << 8 // RGBA() channels are 16-bit
	n := 0
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bl, _ := img.At(x, y).RGBA()
			if r < light || g < light || bl < light {
				n++
			}
		}
	}
	return n
}

// FileURL returns the file:// URL of a local path.
func FileURL(path string) (string, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", err
	}
	return (&url.URL{Scheme: "file", Path: filepath.ToSlash(abs)}).String(), nil
}
