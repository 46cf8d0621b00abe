package reports

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/go-echarts/go-echarts/v2/opts"
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

// CDNURL is the fallback: go-echarts' default assets host.
const CDNURL = "https://go-echarts.github.io/go-echarts-assets/assets/" + opts.EchartsJS

// Script says how a page loads ECharts: the library inlined in a <script>
// element, or a <script src> that needs the network when the page is viewed.
// The zero Script is invalid: Write refuses it, so that no page silently
// depends on the network.
type Script struct {
	inline string // library source
	src    string // URL, when not inlined
	about  string // shown in the page footer
}

// Inline reports whether the library is inlined (the page works offline).
func (s Script) Inline() bool { return s.inline != "" }

// About is the footer text: which library the page uses and how it loads it.
func (s Script) About() string { return s.about }

func (s Script) valid() bool { return s.inline != "" || s.src != "" }

// InlineScript returns a Script that inlines src. about names the library in
// the page footer (e.g. "ECharts 5.6.0, inlined"). It fails when src could
// end the <script> element early.
func InlineScript(src, about string) (Script, error) {
	if strings.TrimSpace(src) == "" {
		return Script{}, errors.New("reports: inline ECharts source is empty")
	}
	if i := unsafeInScript(src); i >= 0 {
		return Script{}, fmt.Errorf("reports: ECharts source contains %q at byte %d, which would end the <script> element; cannot inline it", src[i:min(i+9, len(src))], i)
	}
	return Script{inline: src, about: about}, nil
}

// CDNScript returns a Script that loads ECharts from CDNURL.
func CDNScript() Script {
	return Script{src: CDNURL, about: "ECharts loaded from " + CDNURL + " (needs network)"}
}

// unsafeInScript returns the index of the first "</script" or "<!--" in s
// (ASCII case-insensitive), or -1. Either would change how the HTML parser
// reads the rest of a <script> element.
func unsafeInScript(s string) int {
	l := strings.ToLower(s)
	i, j := strings.Index(l, "</script"), strings.Index(l, "<!--")
	switch {
	case i < 0:
		return j
	case j < 0:
		return i
	}
	return min(i, j)
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
	// Warn receives the warning when FindECharts falls back to the CDN;
	// nil means os.Stderr.
	Warn io.Writer
}

// FindECharts locates echarts.min.js and returns a Script that inlines it.
// An explicit Path or $KCALAB_ECHARTS that cannot be read is an error. When
// the library is simply not installed it returns CDNScript and writes a
// warning saying so to o.Warn.
func FindECharts(o FindOptions) (Script, error) {
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
	dir := o.Dir
	if dir == "" {
		wd, err := os.Getwd()
		if err != nil {
			return Script{}, fmt.Errorf("reports: looking for ECharts: %w", err)
		}
		dir = wd
	}
	root, err := moduleRoot(dir)
	if err != nil {
		return Script{}, fmt.Errorf("reports: looking for ECharts: %w", err)
	}
	if root != "" {
		p := filepath.Join(root, filepath.FromSlash(EChartsRelPath))
		if _, err := os.Stat(p); err == nil {
			return loadECharts(p, warn)
		} else if !errors.Is(err, fs.ErrNotExist) {
			return Script{}, fmt.Errorf("reports: looking for ECharts: %w", err)
		}
		fmt.Fprintf(warn, "reports: warning: %s not found (run `npm ci` in %s, or set %s); the report loads ECharts from %s and shows no charts offline\n",
			p, filepath.Join(root, "reports"), EnvECharts, CDNURL)
	} else {
		fmt.Fprintf(warn, "reports: warning: no go.mod at or above %s, so %s cannot be found (set %s); the report loads ECharts from %s and shows no charts offline\n",
			dir, EChartsRelPath, EnvECharts, CDNURL)
	}
	return CDNScript(), nil
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

// loadECharts reads the library at path and, when the npm package.json is
// beside dist/, its version; a major version other than 5 is warned about.
func loadECharts(path string, warn io.Writer) (Script, error) {
	b, err := os.ReadFile(path)
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
	b, err := os.ReadFile(path)
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
