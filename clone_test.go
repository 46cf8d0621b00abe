package main

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha512"
	"encoding/base64"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kcalab/reports"
)

// A new user's fresh clone: the README's first command, with no npm step
// and no ECharts installed, fetches the pinned package (here from a test
// registry), inlines it, and leaves the checkout exactly as cloned.
func TestQuickstartInFreshClone(t *testing.T) {
	gitPath, err := exec.LookPath("git")
	if err != nil {
		t.Skip("git is not installed")
	}
	git := func(dir string, args ...string) string {
		t.Helper()
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		defer cancel()
		cmd := exec.CommandContext(ctx, gitPath, args...)
		cmd.Dir = dir
		out, err := cmd.CombinedOutput()
		require.NoError(t, err, "git %s: %s", strings.Join(args, " "), out)
		return string(out)
	}
	wd, err := os.Getwd()
	require.NoError(t, err)
	if _, err := os.Stat(filepath.Join(wd, ".git")); err != nil {
		t.Skipf("not a git checkout: %v", err)
	}
	// The commit checked out here, whatever branch or worktree this is.
	head := strings.TrimSpace(git(wd, "rev-parse", "HEAD"))
	clone := filepath.Join(t.TempDir(), "kcalab")
	git(wd, "clone", "--quiet", "--no-checkout", wd, clone)
	git(clone, "checkout", "--quiet", "--detach", head)
	_, err = os.Stat(filepath.Join(clone, filepath.FromSlash(reports.EChartsRelPath)))
	require.True(t, os.IsNotExist(err), "a clone has no node_modules")

	const lib = "var echarts = {version: 'served by the test'};"
	tgz, pin := fakeEChartsPackage(t, "5.6.0", lib)
	var hits atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		if r.URL.Path != "/echarts/-/echarts-5.6.0.tgz" {
			http.NotFound(w, r)
			return
		}
		w.Write(tgz)
	}))
	defer srv.Close()
	saved := echartsPin
	echartsPin = pin
	t.Cleanup(func() { echartsPin = saved })
	t.Setenv(reports.EnvRegistry, srv.URL)
	t.Setenv(reports.EnvECharts, "")
	t.Chdir(clone)

	cache := t.TempDir()
	var stdout, stderr bytes.Buffer
	err = run(context.Background(), []string{"-cache", cache, "experiments/quickstart.yaml"}, &stdout, &stderr)
	require.NoError(t, err, stderr.String())
	assert.Equal(t, int32(1), hits.Load(), "one download")
	assert.NotContains(t, stderr.String(), "warning", "no fallback")
	assert.Contains(t, stderr.String(), "verified and cached")

	page, err := os.ReadFile(filepath.Join(clone, "results", "quickstart", "report.html"))
	require.NoError(t, err)
	assert.NotContains(t, string(page), `<script src="http`)
	assert.Contains(t, string(page), lib, "the fetched library is inlined")
	// The run also wrote the index and every other spec's report from the
	// committed results, all of them build outputs.
	index, err := os.ReadFile(filepath.Join(clone, "results", "index.html"))
	require.NoError(t, err)
	assert.Contains(t, string(index), `<a href="text8-table/report.html">text8-table</a>`)
	assert.FileExists(t, filepath.Join(clone, "results", "text8-table", "report.html"))
	assert.Contains(t, string(page), `<a href="../index.html">`, "the report links back to the index")
	assert.Empty(t, git(clone, "status", "--porcelain", "--untracked-files=all"), "the run dirtied the clone")
}

// fakeEChartsPackage builds an npm tarball with package/dist/echarts.min.js
// = lib and the Pin that verifies it (the genuine package is tested in
// reports, against npm's cache).
func fakeEChartsPackage(t *testing.T, version, lib string) ([]byte, reports.Pin) {
	t.Helper()
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	tw := tar.NewWriter(zw)
	require.NoError(t, tw.WriteHeader(&tar.Header{Name: "package/dist/echarts.min.js", Mode: 0o644, Size: int64(len(lib)), Typeflag: tar.TypeReg}))
	_, err := tw.Write([]byte(lib))
	require.NoError(t, err)
	require.NoError(t, tw.Close())
	require.NoError(t, zw.Close())
	s512, s384 := sha512.Sum512(buf.Bytes()), sha512.Sum384([]byte(lib))
	return buf.Bytes(), reports.Pin{
		Version:   version,
		Integrity: "sha512-" + base64.StdEncoding.EncodeToString(s512[:]),
		SRI:       "sha384-" + base64.StdEncoding.EncodeToString(s384[:]),
	}
}
