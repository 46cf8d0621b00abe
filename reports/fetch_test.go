package reports

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha512"
	"encoding/base64"
	"encoding/hex"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// fakePackage builds an npm tarball holding package/dist/echarts.min.js =
// lib, and the Pin that verifies it.
func fakePackage(t *testing.T, version, lib string) ([]byte, Pin) {
	t.Helper()
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	tw := tar.NewWriter(zw)
	for name, body := range map[string]string{
		"package/package.json":        `{"name": "echarts", "version": "` + version + `"}`,
		"package/dist/echarts.min.js": lib,
	} {
		require.NoError(t, tw.WriteHeader(&tar.Header{Name: name, Mode: 0o644, Size: int64(len(body)), Typeflag: tar.TypeReg}))
		_, err := tw.Write([]byte(body))
		require.NoError(t, err)
	}
	require.NoError(t, tw.Close())
	require.NoError(t, zw.Close())
	sum512 := sha512.Sum512(buf.Bytes())
	sum384 := sha512.Sum384([]byte(lib))
	return buf.Bytes(), Pin{
		Version:   version,
		Integrity: "sha512-" + base64.StdEncoding.EncodeToString(sum512[:]),
		SRI:       "sha384-" + base64.StdEncoding.EncodeToString(sum384[:]),
	}
}

// registry serves tgz at the npm path of pin and counts the requests.
func registry(t *testing.T, pin Pin, tgz []byte) (*httptest.Server, *atomic.Int32) {
	t.Helper()
	var hits atomic.Int32
	path := "/echarts/-/echarts-" + pin.Version + ".tgz"
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		if r.URL.Path != path {
			http.NotFound(w, r)
			return
		}
		w.Write(tgz)
	}))
	t.Cleanup(srv.Close)
	return srv, &hits
}

// warnings counts the warning lines of a FindECharts log.
func warnings(log string) int { return strings.Count(log, "warning:") }

func TestFetchECharts(t *testing.T) {
	t.Setenv(EnvECharts, "")
	t.Setenv(EnvRegistry, "")
	const lib = "var echarts = {version: '9.9.9'};"
	tgz, pin := fakePackage(t, "9.9.9", lib)
	noLib := func(t *testing.T) string { return fakeModule(t, "", "") }

	t.Run("good package: fetched, verified, cached, inlined", func(t *testing.T) {
		srv, hits := registry(t, pin, tgz)
		cache := t.TempDir()
		var log bytes.Buffer
		o := FindOptions{Dir: noLib(t), CacheDir: cache, Fetch: true, Registry: srv.URL, Pin: pin, Warn: &log}
		s, err := FindECharts(o)
		require.NoError(t, err)
		assert.True(t, s.Inline())
		assert.Equal(t, 0, warnings(log.String()), log.String())
		assert.Contains(t, s.About(), "ECharts 9.9.9, inlined")
		b, err := os.ReadFile(filepath.Join(cache, "echarts-9.9.9", "echarts.min.js"))
		require.NoError(t, err)
		assert.Equal(t, lib, string(b))

		// The next run takes the cached copy: no request, even offline.
		srv.Close()
		log.Reset()
		s, err = FindECharts(o)
		require.NoError(t, err)
		assert.True(t, s.Inline())
		assert.Contains(t, s.About(), "verified copy from the cache directory")
		assert.NotContains(t, s.About(), cache, "the footer names no local path")
		assert.Equal(t, int32(1), hits.Load())
		assert.Empty(t, log.String())
	})
	t.Run("registry from the environment", func(t *testing.T) {
		srv, hits := registry(t, pin, tgz)
		t.Setenv(EnvRegistry, srv.URL)
		s, err := FindECharts(FindOptions{Dir: noLib(t), Fetch: true, Pin: pin, Warn: &bytes.Buffer{}})
		require.NoError(t, err)
		assert.True(t, s.Inline())
		assert.Contains(t, s.About(), "not cached")
		assert.Equal(t, int32(1), hits.Load())
	})
	t.Run("node_modules comes first", func(t *testing.T) {
		srv, hits := registry(t, pin, tgz)
		s, err := FindECharts(FindOptions{Dir: fakeModule(t, "var installed;", "5.6.0"), CacheDir: t.TempDir(), Fetch: true, Registry: srv.URL, Pin: pin})
		require.NoError(t, err)
		assert.Equal(t, "ECharts 5.6.0, inlined", s.About())
		assert.Equal(t, int32(0), hits.Load())
	})
	t.Run("corrupt package: error, nothing cached, CDN", func(t *testing.T) {
		bad := append([]byte(nil), tgz...)
		bad[len(bad)/2] ^= 0xff
		srv, _ := registry(t, pin, bad)
		_, err := fetchECharts(context.Background(), pin, srv.URL, &bytes.Buffer{})
		require.ErrorContains(t, err, "does not match package-lock.json")
		assert.ErrorContains(t, err, "integrity mismatch")

		cache := t.TempDir()
		var log bytes.Buffer
		s, err := FindECharts(FindOptions{Dir: noLib(t), CacheDir: cache, Fetch: true, Registry: srv.URL, Pin: pin, Warn: &log})
		require.NoError(t, err)
		assert.False(t, s.Inline())
		assert.Equal(t, 1, warnings(log.String()), log.String())
		assert.Contains(t, log.String(), "integrity mismatch")
		entries, err := os.ReadDir(cache)
		require.NoError(t, err)
		for _, e := range entries {
			files, _ := os.ReadDir(filepath.Join(cache, e.Name()))
			assert.Empty(t, files, "cache holds %s after a failed fetch", e.Name())
		}
	})
	t.Run("right tarball, library differs from the SRI: error", func(t *testing.T) {
		wrong := pin
		wrong.SRI = "sha384-" + strings.Repeat("A", 64)
		srv, _ := registry(t, wrong, tgz)
		_, err := fetchECharts(context.Background(), wrong, srv.URL, &bytes.Buffer{})
		assert.ErrorContains(t, err, "dist/echarts.min.js: integrity mismatch")
	})
	t.Run("not found on the registry", func(t *testing.T) {
		srv, _ := registry(t, Pin{Version: "0.0.1"}, tgz)
		_, err := fetchECharts(context.Background(), pin, srv.URL, &bytes.Buffer{})
		assert.ErrorContains(t, err, "404")
	})
	t.Run("no network, no cache: one warning, pinned CDN with SRI", func(t *testing.T) {
		srv, _ := registry(t, pin, tgz)
		url := srv.URL
		srv.Close() // the port now refuses connections
		var log bytes.Buffer
		s, err := FindECharts(FindOptions{Dir: noLib(t), CacheDir: t.TempDir(), Fetch: true, Registry: url, Warn: &log})
		require.NoError(t, err)
		assert.False(t, s.Inline())
		assert.Equal(t, 1, warnings(log.String()), log.String())
		assert.Equal(t, 1, strings.Count(log.String(), "\n"), "one line: %q", log.String())
		assert.Contains(t, log.String(), "fetching it failed")
		var page bytes.Buffer
		require.NoError(t, Write(&page, Report{Methods: testMethods, Title: "t", ECharts: s}))
		p := Pinned()
		assert.Contains(t, page.String(), `<script src="https://cdn.jsdelivr.net/npm/echarts@`+p.Version+`/dist/echarts.min.js" integrity="`+EChartsSRI+`" crossorigin="anonymous"></script>`)
	})
	t.Run("damaged cache: fetched again and replaced", func(t *testing.T) {
		srv, hits := registry(t, pin, tgz)
		cache := t.TempDir()
		p := pin.cachePath(cache)
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte("var echarts = 'truncated"), 0o644))
		var log bytes.Buffer
		s, err := FindECharts(FindOptions{Dir: noLib(t), CacheDir: cache, Fetch: true, Registry: srv.URL, Pin: pin, Warn: &log})
		require.NoError(t, err)
		assert.True(t, s.Inline())
		assert.Contains(t, log.String(), "is damaged")
		assert.Equal(t, int32(1), hits.Load())
		b, err := os.ReadFile(p)
		require.NoError(t, err)
		assert.Equal(t, lib, string(b))
	})
	t.Run("fetch off: no request", func(t *testing.T) {
		srv, hits := registry(t, pin, tgz)
		var log bytes.Buffer
		s, err := FindECharts(FindOptions{Dir: noLib(t), CacheDir: t.TempDir(), Registry: srv.URL, Pin: pin, Warn: &log})
		require.NoError(t, err)
		assert.False(t, s.Inline())
		assert.Equal(t, int32(0), hits.Load())
		assert.Equal(t, 1, warnings(log.String()))
	})
}

// The lock file names the version the code and package.json name, with a
// sha512 integrity, and the tarball URL is npm's.
func TestPinnedFromLock(t *testing.T) {
	p := Pinned()
	assert.Equal(t, EChartsVersion, p.Version)
	assert.True(t, strings.HasPrefix(p.Integrity, "sha512-"))
	assert.Equal(t, EChartsSRI, p.SRI)
	assert.Equal(t, "https://registry.npmjs.org/echarts/-/echarts-"+EChartsVersion+".tgz", p.TarballURL(DefaultRegistry))
	_, err := parseLock([]byte(`{"packages": {}}`))
	assert.Error(t, err)
}

// EChartsSRI is the hash of the installed (npm ci, integrity-checked by
// npm) library.
func TestPinnedSRI(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("node_modules", "echarts", "dist", "echarts.min.js"))
	if os.IsNotExist(err) {
		t.Skip("reports/node_modules is not installed (npm ci in reports/): EChartsSRI not checked")
	}
	require.NoError(t, err)
	assert.NoError(t, checkSRI(b, EChartsSRI))
}

// With the genuine tarball (from npm's own content cache, where npm ci
// leaves it), the whole chain holds: the lock's integrity, the SRI constant
// and the extraction.
func TestFetchGenuinePackage(t *testing.T) {
	p := Pinned()
	tgz := npmCachedTarball(t, p.Integrity)
	srv, _ := registry(t, p, tgz)
	lib, err := fetchECharts(context.Background(), p, srv.URL, &bytes.Buffer{})
	require.NoError(t, err)
	assert.NoError(t, checkSRI(lib, EChartsSRI))
}

// npmCachedTarball finds the package with the given integrity in npm's
// content-addressed cache (cacache: content-v2/<alg>/<hex[:2]>/<hex[2:4]>/<rest>),
// or skips.
func npmCachedTarball(t *testing.T, integrity string) []byte {
	t.Helper()
	dir := os.Getenv("npm_config_cache")
	if dir == "" {
		home, err := os.UserHomeDir()
		if err != nil {
			t.Skipf("no home directory for npm's cache: %v", err)
		}
		dir = filepath.Join(home, ".npm")
	}
	alg, b64, _ := strings.Cut(integrity, "-")
	raw, err := base64.StdEncoding.DecodeString(b64)
	require.NoError(t, err)
	h := hex.EncodeToString(raw)
	b, err := os.ReadFile(filepath.Join(dir, "_cacache", "content-v2", alg, h[:2], h[2:4], h[4:]))
	if err != nil {
		t.Skipf("the pinned tarball is not in npm's cache (npm ci in reports/ puts it there): %v", err)
	}
	return b
}
