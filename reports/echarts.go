package reports

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"kcalab/internal/inputfile"
	"kcalab/reports/page"
)

// EChartsVersion is the ECharts version that package.json pins and the pages
// are written for.
const EChartsVersion = "5.6.0"

// EnvECharts names the environment variable that may point at an
// echarts.min.js to inline, overriding the search in the module.
const EnvECharts = "KCALAB_ECHARTS"

// EChartsRelPath is where `npm ci` in reports/ puts the library, relative to
// the module root.
const EChartsRelPath = "reports/node_modules/echarts/dist/echarts.min.js"

// Script says how a page loads ECharts (page.Script): the library inlined
// in a <script> element, or a <script src> that needs the network when the
// page is viewed. The zero Script is invalid: Write refuses it, so that no
// page silently depends on the network.
type Script = page.Script

// InlineScript returns a Script that inlines src. about names the library in
// the page footer (e.g. "ECharts 5.6.0, inlined"). It fails when src could
// end the <script> element early.
func InlineScript(src, about string) (Script, error) {
	s, err := page.InlineScript(src, about)
	if err != nil {
		return Script{}, fmt.Errorf("reports: %w", err)
	}
	return s, nil
}

// CDNScript returns a Script that loads the pinned ECharts from a CDN. The
// element carries the file's integrity hash, so the browser runs exactly the
// pinned build or nothing.
func CDNScript() Script { return cdnScript(Pinned()) }

func cdnScript(p Pin) Script {
	return page.SrcScript(p.CDNURL(), p.SRI, "ECharts "+p.Version+" loaded from "+p.CDNURL()+" (needs network)")
}

// FindOptions tells FindECharts where to look.
type FindOptions struct {
	// Path is an echarts.min.js to inline. When empty, $KCALAB_ECHARTS is
	// used, and when that is empty too, EChartsRelPath under the module root
	// (the nearest directory at or above Dir that has a go.mod).
	Path string
	// Dir is where the search for the module root starts; "" means the
	// current directory.
	Dir string
	// CacheDir holds a verified copy of the pinned library
	// (<CacheDir>/echarts-<version>/echarts.min.js), looked up after the
	// module's node_modules and written after a fetch. "" means no cache.
	CacheDir string
	// Fetch allows downloading the pinned package from the npm registry
	// when it is neither installed nor cached. Off by default so that a
	// library caller or a test never reaches the network unasked.
	Fetch bool
	// Registry is the npm registry to fetch from; "" means $KCALAB_NPM_REGISTRY,
	// else DefaultRegistry.
	Registry string
	// Pin is the build to fetch and verify; the zero Pin means Pinned(),
	// the build of package-lock.json.
	Pin Pin
	// Warn receives the warning when FindECharts falls back to the CDN, and
	// a download's progress; nil means os.Stderr.
	Warn io.Writer
}

// FindECharts is FindEChartsContext without a context.
func FindECharts(o FindOptions) (Script, error) {
	return FindEChartsContext(context.Background(), o)
}

// FindEChartsContext returns a Script that inlines ECharts, taken from the
// first of: o.Path or $KCALAB_ECHARTS; reports/node_modules (npm ci); the
// verified copy in o.CacheDir; a download of the pinned package (when
// o.Fetch), verified against package-lock.json and then cached. An explicit
// Path or $KCALAB_ECHARTS that cannot be read is an error. When none of
// them gives the library it returns CDNScript (the pinned build, with its
// integrity hash) and writes one warning saying why to o.Warn.
func FindEChartsContext(ctx context.Context, o FindOptions) (Script, error) {
	warn := o.Warn
	if warn == nil {
		warn = os.Stderr
	}
	path, how := o.Path, "FindOptions.Path"
	if path == "" {
		path, how = os.Getenv(EnvECharts), "$"+EnvECharts
	}
	if path != "" {
		s, err := loadECharts(path, warn)
		if err != nil {
			return Script{}, fmt.Errorf("reports: ECharts from %s: %w", how, err)
		}
		return s, nil
	}
	installed, missing, err := installedECharts(o.Dir)
	if err != nil {
		return Script{}, fmt.Errorf("reports: looking for ECharts: %w", err)
	}
	if installed != "" {
		return loadECharts(installed, warn)
	}
	pin := o.Pin
	if pin == (Pin{}) {
		pin = Pinned()
	}
	inline := func(lib []byte, how string) (Script, error) {
		s, err := InlineScript(string(lib), "ECharts "+pin.Version+", inlined ("+how+")")
		if err != nil {
			return Script{}, fmt.Errorf("reports: ECharts %s (%s): %w", pin.Version, how, err)
		}
		return s, nil
	}
	if o.CacheDir != "" {
		if lib := readCached(pin, o.CacheDir, warn); lib != nil {
			// The footer names no local path: a page is read on other
			// machines, where the cache directory means nothing.
			return inline(lib, "verified copy from the cache directory")
		}
	}
	if o.Fetch {
		lib, how, err := fetchAndCache(ctx, o, pin, warn)
		if err == nil {
			return inline(lib, how)
		}
		missing += fmt.Sprintf("; fetching it failed: %v", err)
		if o.CacheDir == "" {
			missing += "; no cache directory"
		}
	}
	fmt.Fprintf(warn, "reports: warning: ECharts is not available to inline: %s. The report loads ECharts %s from %s instead (integrity-checked) and shows no charts offline\n",
		missing, pin.Version, pin.CDNURL())
	return cdnScript(pin), nil
}

// installedECharts returns the library npm ci installed in the module
// (EChartsRelPath under the nearest go.mod at or above dir, "" meaning the
// current directory), or "" and why it is not there, for the warning.
func installedECharts(dir string) (path, missing string, err error) {
	if dir == "" {
		if dir, err = os.Getwd(); err != nil {
			return "", "", err
		}
	}
	root, err := moduleRoot(dir)
	if err != nil {
		return "", "", err
	}
	if root == "" {
		return "", fmt.Sprintf("no go.mod at or above %s, so %s cannot be found (set %s)", dir, EChartsRelPath, EnvECharts), nil
	}
	p := filepath.Join(root, filepath.FromSlash(EChartsRelPath))
	if _, err := os.Stat(p); err == nil {
		return p, "", nil
	} else if !errors.Is(err, fs.ErrNotExist) {
		return "", "", err
	}
	return "", fmt.Sprintf("%s not found (run `npm ci` in %s, or set %s)", p, filepath.Join(root, "reports"), EnvECharts), nil
}

// fetchAndCache downloads the pinned library from o's registry (else
// $KCALAB_NPM_REGISTRY, else DefaultRegistry), verified, and caches it in
// o.CacheDir when set; how says where the page's copy came from.
func fetchAndCache(ctx context.Context, o FindOptions, pin Pin, warn io.Writer) (lib []byte, how string, err error) {
	registry := o.Registry
	if registry == "" {
		registry = os.Getenv(EnvRegistry)
	}
	if registry == "" {
		registry = DefaultRegistry
	}
	lib, err = fetchECharts(ctx, pin, registry, warn)
	if err != nil {
		return nil, "", err
	}
	if o.CacheDir == "" {
		return lib, "fetched from " + registry + " and verified; not cached", nil
	}
	if err := storeCached(pin, o.CacheDir, lib); err != nil {
		// The library is verified; only the next run pays for this.
		fmt.Fprintf(warn, "reports: warning: could not cache ECharts: %v\n", err)
	} else {
		fmt.Fprintf(warn, "reports: ECharts %s verified and cached in %s\n", pin.Version, filepath.Dir(pin.cachePath(o.CacheDir)))
	}
	return lib, "fetched from " + registry + " and verified", nil
}

// moduleRoot returns the nearest directory at or above dir holding a go.mod,
// or "" when there is none.
func moduleRoot(dir string) (string, error) {
	d, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
			return d, nil
		} else if !errors.Is(err, fs.ErrNotExist) {
			return "", err
		}
		parent := filepath.Dir(d)
		if parent == d {
			return "", nil
		}
		d = parent
	}
}

// echartsFile is how the library is read: a regular file (npm may link
// it), of at most 64 MiB, the most a fetched package may have.
var echartsFile = inputfile.Spec{What: "the ECharts library (echarts.min.js, a regular file)", Limit: maxTarball}

// loadECharts reads the library at path and, when the npm package.json is
// beside dist/, its version; a major version other than 5 is warned about.
func loadECharts(path string, warn io.Writer) (Script, error) {
	b, err := inputfile.ReadFile(path, echartsFile)
	if err != nil {
		return Script{}, err
	}
	about := "ECharts, inlined"
	if v := npmVersion(filepath.Join(filepath.Dir(filepath.Dir(path)), "package.json")); v != "" {
		about = "ECharts " + v + ", inlined"
		if !strings.HasPrefix(v, "5.") {
			fmt.Fprintf(warn, "reports: warning: %s is ECharts %s; the reports are written for %s\n", path, v, EChartsVersion)
		}
	}
	s, err := InlineScript(string(b), about)
	if err != nil {
		return Script{}, fmt.Errorf("%s: %w", path, err)
	}
	return s, nil
}

// npmVersion returns the "version" of an npm package.json, or "".
func npmVersion(path string) string {
	b, err := inputfile.ReadFile(path, inputfile.Spec{What: "an npm package.json", Limit: 1 << 20})
	if err != nil {
		return ""
	}
	var p struct {
		Name    string `json:"name"`
		Version string `json:"version"`
	}
	if json.Unmarshal(b, &p) != nil || p.Name != "echarts" {
		return ""
	}
	return p.Version
}
