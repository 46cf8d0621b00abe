package reports

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"crypto/sha512"
	"crypto/subtle"
	_ "embed"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"hash"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"time"

	"kcalab/internal/atomicfile"
	"kcalab/internal/inputfile"
)

// The lock file is the one statement of which ECharts build the pages use:
// `npm ci` installs from it, and the program fetches and verifies the same
// tarball from it, so the two can never disagree.
//
//go:embed package-lock.json
var packageLock []byte

// EChartsSRI is the Subresource Integrity hash of dist/echarts.min.js in the
// pinned package (ECharts 5.6.0). It cannot be derived from the lock file,
// which hashes the whole tarball, and a CDN fallback has to name it without
// the package at hand (offline), so it is computed once from the verified
// package (npm ci) and kept here; TestPinnedSRI checks it against
// reports/node_modules whenever that is installed.
const EChartsSRI = "sha384-pPi0zxBAoDu6+JXW/C68UZLvBUUtU+7zonhif43rqj7pxsGyqyqzcian2Rj37Rss"

// EnvRegistry may name another npm registry (a mirror, or a test server)
// to fetch the pinned ECharts package from.
const EnvRegistry = "KCALAB_NPM_REGISTRY"

// DefaultRegistry is npm's public registry.
const DefaultRegistry = "https://registry.npmjs.org"

// Pin names one build of ECharts: the npm package version, the integrity of
// its tarball (npm's "sha512-<base64>") and the SRI hash of its
// dist/echarts.min.js.
type Pin struct {
	Version   string
	Integrity string
	SRI       string
}

// Pinned is the build of package-lock.json.
func Pinned() Pin {
	p, err := parseLock(packageLock)
	if err != nil {
		// The file is embedded at build time and checked by a test, so
		// this is a broken build, not a user error.
		panic("reports: embedded package-lock.json: " + err.Error())
	}
	p.SRI = EChartsSRI
	return p
}

// parseLock reads the echarts entry of an npm lock file (version 2 or 3).
func parseLock(b []byte) (Pin, error) {
	var lock struct {
		Packages map[string]struct {
			Version   string `json:"version"`
			Integrity string `json:"integrity"`
		} `json:"packages"`
	}
	if err := json.Unmarshal(b, &lock); err != nil {
		return Pin{}, err
	}
	e, ok := lock.Packages["node_modules/echarts"]
	if !ok || e.Version == "" || !strings.HasPrefix(e.Integrity, "sha512-") {
		return Pin{}, errors.New(`no "node_modules/echarts" entry with a version and a sha512 integrity`)
	}
	return Pin{Version: e.Version, Integrity: e.Integrity}, nil
}

// TarballURL is where registry keeps the pinned package: npm's layout
// <registry>/<name>/-/<name>-<version>.tgz. (This lock file records no
// "resolved" URL, so it is derived the way npm derives it.)
func (p Pin) TarballURL(registry string) string {
	return strings.TrimSuffix(registry, "/") + "/echarts/-/echarts-" + p.Version + ".tgz"
}

// CDNURL is the pinned library on jsDelivr, which serves files of npm
// packages unchanged, so the SRI hash of the package's file holds.
func (p Pin) CDNURL() string {
	return "https://cdn.jsdelivr.net/npm/echarts@" + p.Version + "/dist/echarts.min.js"
}

// cachePath is where the verified library is kept under a cache directory.
func (p Pin) cachePath(cacheDir string) string {
	return filepath.Join(cacheDir, "echarts-"+p.Version, "echarts.min.js")
}

// checkSRI reports whether b hashes to the SRI value sri ("sha384-…",
// "sha256-…" or "sha512-…").
func checkSRI(b []byte, sri string) error {
	alg, want, ok := strings.Cut(sri, "-")
	if !ok {
		return fmt.Errorf("malformed integrity %q", sri)
	}
	var h hash.Hash
	switch alg {
	case "sha256":
		h = sha256.New()
	case "sha384":
		h = sha512.New384()
	case "sha512":
		h = sha512.New()
	default:
		return fmt.Errorf("integrity %q: unsupported algorithm %s", sri, alg)
	}
	h.Write(b)
	got := base64.StdEncoding.EncodeToString(h.Sum(nil))
	if subtle.ConstantTimeCompare([]byte(got), []byte(want)) != 1 {
		return fmt.Errorf("integrity mismatch: got %s-%s, want %s", alg, got, sri)
	}
	return nil
}

// Limits on what is read from the network: the 5.6.0 tarball is 10 MB and
// its echarts.min.js 1 MB, so these only stop a runaway response.
const (
	maxTarball = 64 << 20
	maxLibrary = 16 << 20
)

// fetchDialTimeout is short so that a machine without network falls back at
// once instead of hanging the run.
var fetchDialTimeout = 5 * time.Second

// fetchECharts downloads the pinned package from registry, checks the
// tarball against pin.Integrity and its dist/echarts.min.js against
// pin.SRI, and returns the library. Nothing is returned unverified.
func fetchECharts(ctx context.Context, pin Pin, registry string, log io.Writer) ([]byte, error) {
	url := pin.TarballURL(registry)
	client := &http.Client{Transport: &http.Transport{
		Proxy:                 http.ProxyFromEnvironment,
		DialContext:           (&net.Dialer{Timeout: fetchDialTimeout}).DialContext,
		TLSHandshakeTimeout:   fetchDialTimeout,
		ResponseHeaderTimeout: 30 * time.Second,
	}}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return nil, err
	}
	resp, err := client.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("GET %s: server answered %s", url, resp.Status)
	}
	if resp.ContentLength > maxTarball {
		return nil, fmt.Errorf("GET %s: %d bytes announced, more than the %d a package may have", url, resp.ContentLength, maxTarball)
	}
	fmt.Fprintf(log, "reports: fetching ECharts %s from %s\n", pin.Version, url)
	var buf bytes.Buffer
	pw := &fetchProgress{w: &buf, log: log, total: resp.ContentLength}
	n, err := io.Copy(pw, io.LimitReader(resp.Body, maxTarball+1))
	if err != nil {
		return nil, fmt.Errorf("GET %s: after %d bytes: %w", url, n, err)
	}
	if n > maxTarball {
		return nil, fmt.Errorf("GET %s: more than %d bytes", url, maxTarball)
	}
	if err := checkSRI(buf.Bytes(), pin.Integrity); err != nil {
		return nil, fmt.Errorf("%s: tarball does not match package-lock.json: %w", url, err)
	}
	lib, err := untarFile(buf.Bytes(), "package/dist/echarts.min.js")
	if err != nil {
		return nil, fmt.Errorf("%s: %w", url, err)
	}
	if err := checkSRI(lib, pin.SRI); err != nil {
		return nil, fmt.Errorf("%s: dist/echarts.min.js: %w", url, err)
	}
	return lib, nil
}

// untarFile returns the member name of a gzipped tarball.
func untarFile(tgz []byte, name string) ([]byte, error) {
	zr, err := gzip.NewReader(bytes.NewReader(tgz))
	if err != nil {
		return nil, fmt.Errorf("not a gzipped tarball: %w", err)
	}
	tr := tar.NewReader(zr)
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			return nil, fmt.Errorf("no %s in the package", name)
		}
		if err != nil {
			return nil, fmt.Errorf("reading the tarball: %w", err)
		}
		if h.Name != name || h.Typeflag != tar.TypeReg {
			continue
		}
		if h.Size > maxLibrary {
			return nil, fmt.Errorf("%s is %d bytes, more than %d", name, h.Size, maxLibrary)
		}
		b, err := io.ReadAll(tr)
		if err != nil {
			return nil, fmt.Errorf("reading %s: %w", name, err)
		}
		return b, nil
	}
}

// fetchProgress prints a line at every quarter of a download of known
// size: enough to see a slow link is moving, few enough for a log.
type fetchProgress struct {
	w          io.Writer
	log        io.Writer
	total, n   int64
	lastFourth int64
}

func (p *fetchProgress) Write(b []byte) (int, error) {
	n, err := p.w.Write(b)
	p.n += int64(n)
	if p.total > 0 {
		if q := 4 * p.n / p.total; q > p.lastFourth && q < 4 {
			p.lastFourth = q
			fmt.Fprintf(p.log, "reports: ECharts download %d%% (%.1f of %.1f MB)\n", 25*q, float64(p.n)/1e6, float64(p.total)/1e6)
		}
	}
	return n, err
}

// readCached returns the cached library when it is there and intact; a
// damaged copy is reported and ignored (it is fetched and replaced).
func readCached(pin Pin, cacheDir string, warn io.Writer) []byte {
	path := pin.cachePath(cacheDir)
	b, err := inputfile.ReadFile(path, inputfile.Spec{What: "a cached ECharts library (a regular file this program wrote)", Limit: maxTarball, NoFollow: true})
	if err != nil {
		if !errors.Is(err, os.ErrNotExist) {
			fmt.Fprintf(warn, "reports: warning: cached ECharts %s: %v; fetching it again\n", path, err)
		}
		return nil
	}
	if err := checkSRI(b, pin.SRI); err != nil {
		fmt.Fprintf(warn, "reports: warning: cached ECharts %s is damaged (%v); fetching it again\n", path, err)
		return nil
	}
	return b
}

// storeCached keeps a verified library for the next runs. The write is
// atomic, so a crash or a concurrent run never leaves a partial file that
// would have to be detected.
func storeCached(pin Pin, cacheDir string, lib []byte) error {
	return atomicfile.WriteFile(pin.cachePath(cacheDir), lib)
}
