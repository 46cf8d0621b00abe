package reports

import (
	"bytes"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestInlineScript(t *testing.T) {
	for _, bad := range []string{"", "  ", "var a = '</script>';", "var a = '</SCRIPT >';", "x = 1 <!-- 2"} {
		_, err := InlineScript(bad, "x")
		assert.Error(t, err, "%q", bad)
	}
	s, err := InlineScript("var echarts = {};", "about")
	require.NoError(t, err)
	assert.True(t, s.Inline())
	assert.Equal(t, "about", s.About())
	assert.False(t, CDNScript().Inline())
}

// fakeModule makes a directory tree with a go.mod and, when lib is not
// empty, an installed echarts package.
func fakeModule(t *testing.T, lib, version string) string {
	root := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(root, "go.mod"), []byte("module kcalab\n"), 0o644))
	require.NoError(t, os.MkdirAll(filepath.Join(root, "run", "deep"), 0o755))
	if lib != "" {
		p := filepath.Join(root, filepath.FromSlash(EChartsRelPath))
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte(lib), 0o644))
		pkg := `{"name": "echarts", "version": "` + version + `"}`
		require.NoError(t, os.WriteFile(filepath.Join(filepath.Dir(filepath.Dir(p)), "package.json"), []byte(pkg), 0o644))
	}
	return root
}

func TestFindECharts(t *testing.T) {
	t.Setenv(EnvECharts, "")

	t.Run("module root from a subdirectory", func(t *testing.T) {
		root := fakeModule(t, "var echarts = 1;", "5.6.0")
		var warn bytes.Buffer
		s, err := FindECharts(FindOptions{Dir: filepath.Join(root, "run", "deep"), Warn: &warn})
		require.NoError(t, err)
		assert.True(t, s.Inline())
		assert.Equal(t, "ECharts 5.6.0, inlined", s.About())
		assert.Empty(t, warn.String())
	})
	t.Run("not installed: CDN with a warning", func(t *testing.T) {
		root := fakeModule(t, "", "")
		var warn bytes.Buffer
		s, err := FindECharts(FindOptions{Dir: root, Warn: &warn})
		require.NoError(t, err)
		assert.False(t, s.Inline())
		assert.Contains(t, warn.String(), "npm ci")
		assert.Contains(t, warn.String(), EnvECharts)
		var page bytes.Buffer
		require.NoError(t, Write(&page, Report{Methods: testMethods, Title: "t", ECharts: s}))
		assert.Contains(t, page.String(), `<script src="`+Pinned().CDNURL()+`" integrity="`+EChartsSRI+`" crossorigin="anonymous"></script>`)
	})
	t.Run("no module: CDN with a warning", func(t *testing.T) {
		var warn bytes.Buffer
		s, err := FindECharts(FindOptions{Dir: t.TempDir(), Warn: &warn})
		require.NoError(t, err)
		assert.False(t, s.Inline())
		assert.Contains(t, warn.String(), "no go.mod")
	})
	t.Run("other major version: warned", func(t *testing.T) {
		root := fakeModule(t, "var echarts = 1;", "6.0.0")
		var warn bytes.Buffer
		s, err := FindECharts(FindOptions{Dir: root, Warn: &warn})
		require.NoError(t, err)
		assert.True(t, s.Inline())
		assert.Contains(t, warn.String(), "ECharts 6.0.0")
	})
	t.Run("explicit path wins", func(t *testing.T) {
		p := filepath.Join(t.TempDir(), "e.js")
		require.NoError(t, os.WriteFile(p, []byte("var e;"), 0o644))
		s, err := FindECharts(FindOptions{Path: p, Dir: fakeModule(t, "", "")})
		require.NoError(t, err)
		assert.True(t, s.Inline())
		assert.Equal(t, "ECharts, inlined", s.About())
	})
	t.Run("explicit path missing: error, no fallback", func(t *testing.T) {
		_, err := FindECharts(FindOptions{Path: filepath.Join(t.TempDir(), "nope.js")})
		assert.ErrorContains(t, err, "FindOptions.Path")
	})
	t.Run("env var", func(t *testing.T) {
		p := filepath.Join(t.TempDir(), "e.js")
		require.NoError(t, os.WriteFile(p, []byte("var e;"), 0o644))
		t.Setenv(EnvECharts, p)
		s, err := FindECharts(FindOptions{Dir: fakeModule(t, "", "")})
		require.NoError(t, err)
		assert.True(t, s.Inline())
		t.Setenv(EnvECharts, p+".missing")
		_, err = FindECharts(FindOptions{})
		assert.ErrorContains(t, err, "$"+EnvECharts)
	})
	t.Run("explicit path a FIFO or a device: refused at once", func(t *testing.T) {
		fifo := filepath.Join(t.TempDir(), "e.js")
		require.NoError(t, syscall.Mkfifo(fifo, 0o644))
		for path, want := range map[string]string{
			fifo:        "e.js: not a regular file (a FIFO): want the ECharts library",
			"/dev/zero": "/dev/zero: not a regular file (a character device)",
		} {
			done := make(chan error, 1)
			go func() { _, err := FindECharts(FindOptions{Path: path}); done <- err }()
			select {
			case err := <-done:
				assert.ErrorContains(t, err, want)
			case <-time.After(10 * time.Second):
				t.Fatalf("FindECharts(%s) did not return", path)
			}
		}
	})
	t.Run("library that would end the script", func(t *testing.T) {
		root := fakeModule(t, "x='</script>'", "5.6.0")
		_, err := FindECharts(FindOptions{Dir: root})
		assert.ErrorContains(t, err, "would end the <script> element")
	})
}
