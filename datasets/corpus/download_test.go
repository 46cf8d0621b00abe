package corpus

import (
	"context"
	"hash/crc32"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const fakeText8 = " anarchism originated as a term of abuse first used against early working class radicals"

// fakeText8Zip swaps the expected text8 for a small fake for this test.
func fakeText8Zip(t *testing.T) []byte {
	t.Helper()
	z := zipBytes(t, "text8", strings.Repeat(fakeText8, 50))
	old := text8Want
	text8Want = text8File{
		zipSize: int64(len(z)),
		member:  "text8",
		crc:     crc32.ChecksumIEEE([]byte(strings.Repeat(fakeText8, 50))),
		size:    uint64(50 * len(fakeText8)),
	}
	t.Cleanup(func() { text8Want = old })
	return z
}

// requireNothingLeft checks that a failed download left no file behind.
func requireNothingLeft(t *testing.T, dir string) {
	t.Helper()
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	assert.Empty(t, names, "files left in the data directory")
}

func TestDownloadText8(t *testing.T) {
	z := fakeText8Zip(t)
	var hits atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		w.Header().Set("Content-Length", strconv.Itoa(len(z)))
		w.Write(z)
	}))
	defer srv.Close()
	dir := filepath.Join(t.TempDir(), "data") // created on demand
	var log strings.Builder
	c, err := Open(context.Background(), dir, "text8", Options{Text8URL: srv.URL, Log: &log})
	require.NoError(t, err)
	assert.Contains(t, log.String(), "downloading "+srv.URL)
	assert.Contains(t, log.String(), "downloading text8.zip 100%")
	assert.Contains(t, log.String(), "verified and stored at "+filepath.Join(dir, "text8.zip"))
	toks := scanAll(t, c)
	assert.Len(t, toks, 50*len(strings.Fields(fakeText8)))
	assert.Equal(t, "anarchism", toks[0])
	entries, _ := os.ReadDir(dir)
	require.Len(t, entries, 1, "only text8.zip, no temporary file")

	// Present now: not downloaded again.
	_, err = Open(context.Background(), dir, "text8", Options{Text8URL: srv.URL})
	require.NoError(t, err)
	assert.EqualValues(t, 1, hits.Load())
}

func TestDownloadText8Rejects(t *testing.T) {
	z := fakeText8Zip(t)
	corrupt := append([]byte(nil), z...)
	corrupt[len(corrupt)/3] ^= 0x55
	for _, tc := range []struct {
		name    string
		handler http.HandlerFunc
		tweak   func(*text8File)
		want    string
	}{
		{"not found", func(w http.ResponseWriter, r *http.Request) { http.NotFound(w, r) }, nil, "server answered 404 Not Found"},
		{"announced size", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Length", strconv.Itoa(len(z)-1))
			w.Write(z[:len(z)-1])
		}, nil, "server announces"},
		{"cut connection", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Length", strconv.Itoa(len(z)))
			w.Write(z[:len(z)/2])
			// The handler returns early: the client sees an unexpected EOF.
		}, nil, "unexpected EOF"},
		{"truncated, no length", func(w http.ResponseWriter, r *http.Request) {
			w.Write(z[:len(z)/2])
			w.(http.Flusher).Flush()
		}, nil, "(truncated or wrong file)"},
		{"too long, no length", func(w http.ResponseWriter, r *http.Request) {
			w.Write(z)
			w.(http.Flusher).Flush()
			w.Write([]byte("trailing junk"))
		}, nil, "(truncated or wrong file)"},
		{"corrupt bytes", func(w http.ResponseWriter, r *http.Request) { w.Write(corrupt) }, nil, "downloaded file fails its check"},
		{"other checksum", func(w http.ResponseWriter, r *http.Request) { w.Write(z) },
			func(f *text8File) { f.crc ^= 1 }, "has CRC-32"},
		{"other member", func(w http.ResponseWriter, r *http.Request) { w.Write(z) },
			func(f *text8File) { f.member = "text9" }, `no member "text9"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.tweak != nil {
				old := text8Want
				tc.tweak(&text8Want)
				defer func() { text8Want = old }()
			}
			srv := httptest.NewServer(tc.handler)
			defer srv.Close()
			dir := t.TempDir()
			_, err := Open(context.Background(), dir, "text8", Options{Text8URL: srv.URL})
			require.ErrorContains(t, err, tc.want)
			require.ErrorContains(t, err, "put it at "+filepath.Join(dir, "text8.zip"))
			requireNothingLeft(t, dir)
		})
	}
}

func TestDownloadNoNetwork(t *testing.T) {
	fakeText8Zip(t)
	// A port nobody listens on: refused at once.
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	addr := l.Addr().String()
	l.Close()
	dir := t.TempDir()
	_, err = Open(context.Background(), dir, "text8", Options{Text8URL: "http://" + addr + "/text8.zip"})
	require.ErrorContains(t, err, "without network, download http://mattmahoney.net/dc/text8.zip elsewhere and put it at "+filepath.Join(dir, "text8.zip"))
	requireNothingLeft(t, dir)

	// A server that accepts but never answers: the caller's context ends it.
	hang := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		<-r.Context().Done()
	}))
	defer hang.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err = Open(ctx, dir, "text8", Options{Text8URL: hang.URL})
	require.ErrorIs(t, err, context.DeadlineExceeded)
	assert.Less(t, time.Since(start), 5*time.Second)
	requireNothingLeft(t, dir)
}
