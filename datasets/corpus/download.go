package corpus

import (
	"archive/zip"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"time"

	"kcalab/internal/atomicfile"
)

// DefaultText8URL is where text8 is published.
const DefaultText8URL = "http://mattmahoney.net/dc/text8.zip"

// text8File describes the genuine text8.zip; tests swap it for a small fake.
type text8File struct {
	zipSize int64  // bytes of text8.zip
	member  string // its single member
	crc     uint32 // CRC-32 of the member
	size    uint64 // uncompressed bytes of the member
}

var (
	text8Want = text8File{zipSize: 31_344_016, member: "text8", crc: 0x7d6be66f, size: 100_000_000}
	// dialTimeout is short so that a machine without network fails fast.
	dialTimeout = 5 * time.Second
)

// downloadText8 fetches text8.zip into dest: streamed to a temporary file in
// the same directory, checked (size, member CRC-32 and length, and the CRC of
// the decompressed data), then renamed, so dest is either absent or genuine.
func downloadText8(ctx context.Context, dest, url string, log io.Writer) error {
	if url == "" {
		url = DefaultText8URL
	}
	want := text8Want
	hint := fmt.Sprintf("without network, download %s elsewhere and put it at %s (%d bytes), or point -data / $%s at a directory that holds text8.zip",
		DefaultText8URL, dest, want.zipSize, EnvData)
	fail := func(err error) error {
		return fmt.Errorf("corpus text8: download from %s: %w; %s", url, err, hint)
	}
	// The temporary file (and dest's directory) first: an unusable
	// directory fails before any network traffic.
	tmp, err := atomicfile.Create(dest)
	if err != nil {
		return fail(err)
	}
	defer tmp.Discard()
	client := &http.Client{Transport: &http.Transport{
		Proxy:                 http.ProxyFromEnvironment,
		DialContext:           (&net.Dialer{Timeout: dialTimeout}).DialContext,
		TLSHandshakeTimeout:   dialTimeout,
		ResponseHeaderTimeout: 30 * time.Second,
	}}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return fail(err)
	}
	if log != nil {
		fmt.Fprintf(log, "corpus: %s not found; downloading %s\n", dest, url)
	}
	resp, err := client.Do(req)
	if err != nil {
		return fail(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fail(fmt.Errorf("server answered %s", resp.Status))
	}
	if resp.ContentLength >= 0 && resp.ContentLength != want.zipSize {
		return fail(fmt.Errorf("server announces %d bytes, want %d", resp.ContentLength, want.zipSize))
	}

	p := newProgress(log, "downloading text8.zip", "B", want.zipSize)
	pw := &progressWriter{w: tmp, p: p}
	// One byte more than expected tells an oversized body from a complete one.
	n, err := io.Copy(pw, io.LimitReader(resp.Body, want.zipSize+1))
	if err != nil {
		return fail(fmt.Errorf("after %d bytes: %w", n, err))
	}
	p.finish(n)
	if n != want.zipSize {
		return fail(fmt.Errorf("got %d bytes, want %d (truncated or wrong file)", n, want.zipSize))
	}
	if err := verifyText8(tmp, n, want); err != nil {
		return fail(fmt.Errorf("downloaded file fails its check: %w", err))
	}
	if err := tmp.Commit(); err != nil {
		return fail(err)
	}
	if log != nil {
		fmt.Fprintf(log, "corpus: text8.zip verified and stored at %s\n", dest)
	}
	return nil
}

// verifyText8 checks the zip's member header and decompresses it, which
// makes archive/zip compare the data's CRC-32 with the header's.
func verifyText8(r io.ReaderAt, size int64, want text8File) error {
	zr, err := zip.NewReader(r, size)
	if err != nil {
		return err
	}
	var zf *zip.File
	for _, f := range zr.File {
		if f.Name == want.member {
			zf = f
		}
	}
	if zf == nil {
		return fmt.Errorf("no member %q", want.member)
	}
	if zf.CRC32 != want.crc || zf.UncompressedSize64 != want.size {
		return fmt.Errorf("member %s has CRC-32 %08x and %d bytes, want %08x and %d", want.member, zf.CRC32, zf.UncompressedSize64, want.crc, want.size)
	}
	rc, err := zf.Open()
	if err != nil {
		return err
	}
	defer rc.Close()
	n, err := io.Copy(io.Discard, rc)
	if err != nil {
		return err
	}
	if uint64(n) != want.size {
		return errors.New("member length disagrees with its header")
	}
	return nil
}

type progressWriter struct {
	w io.Writer
	p *progress
	n int64
}

func (w *progressWriter) Write(b []byte) (int, error) {
	n, err := w.w.Write(b)
	w.n += int64(n)
	w.p.update(w.n)
	return n, err
}
