package corpus

import (
	"bufio"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"hash/crc32"
	"io"
	"io/fs"
	"kcalab/internal/dirlock"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"time"

	"kcalab/internal/atomicfile"
	"kcalab/internal/inputfile"
)

// Cache files: magic, a header (file kind and the full key it was stored
// under), a kind-specific body of little-endian arrays, and a CRC-32C of
// everything before it. Names are content addresses: the SHA-256 of the key.
const cacheMagic = "kcalabC1"

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// cacheKey hashes the parts that determine a cached result.
func cacheKey(parts ...string) string {
	h := sha256.New()
	for _, p := range parts {
		fmt.Fprintf(h, "%d:%s;", len(p), p)
	}
	return hex.EncodeToString(h.Sum(nil))
}

func cachePath(dir, kind, key string) string {
	return filepath.Join(dir, kind+"-"+key[:32]+".bin")
}

type cacheWriter struct {
	bw  *bufio.Writer
	crc hash.Hash32
	buf []byte
}

func (w *cacheWriter) flushBuf() {
	w.bw.Write(w.buf) // errors surface at Flush
	w.crc.Write(w.buf)
	w.buf = w.buf[:0]
}

// spill writes the buffer out once it holds 64 KiB, so a cache file of any
// size is written through a bounded buffer.
func (w *cacheWriter) spill() {
	if len(w.buf) >= 1<<16 {
		w.flushBuf()
	}
}

func (w *cacheWriter) u64(v uint64) {
	w.buf = binary.LittleEndian.AppendUint64(w.buf, v)
	w.spill()
}

func (w *cacheWriter) bytes(b []byte) {
	w.u64(uint64(len(b)))
	w.buf = append(w.buf, b...)
	w.spill()
}

func (w *cacheWriter) i64s(s []int64) {
	w.u64(uint64(len(s)))
	for _, v := range s {
		w.buf = binary.LittleEndian.AppendUint64(w.buf, uint64(v))
		w.spill()
	}
}

func (w *cacheWriter) i32s(s []int32) {
	w.u64(uint64(len(s)))
	for _, v := range s {
		w.buf = binary.LittleEndian.AppendUint32(w.buf, uint32(v))
		w.spill()
	}
}

// counts stores float64 values that are known to be integers in [1, 2³²).
func (w *cacheWriter) counts(s []float64) {
	w.u64(uint64(len(s)))
	for _, v := range s {
		w.buf = binary.LittleEndian.AppendUint32(w.buf, uint32(v))
		w.spill()
	}
}

// writeCache stores a file atomically (see internal/atomicfile), so a
// crash never leaves a half-written cache file under its final name.
func writeCache(dir, kind, key string, body func(w *cacheWriter)) error {
	path := cachePath(dir, kind, key)
	f, err := atomicfile.Create(path)
	if err != nil {
		return fmt.Errorf("cache: %w", err)
	}
	defer f.Discard()
	w := &cacheWriter{bw: bufio.NewWriterSize(testHookCacheWriter(f), 1<<20), crc: crc32.New(castagnoli), buf: make([]byte, 0, 1<<16+64)}
	w.buf = append(w.buf, cacheMagic...)
	w.bytes([]byte(kind))
	w.bytes([]byte(key))
	body(w)
	w.flushBuf()
	var sum [4]byte
	binary.LittleEndian.PutUint32(sum[:], w.crc.Sum32())
	w.bw.Write(sum[:])
	if err := w.bw.Flush(); err != nil {
		return fmt.Errorf("cache: %w", err)
	}
	if err := f.Commit(); err != nil {
		return fmt.Errorf("cache: %w", err)
	}
	return nil
}

// testHookCacheWriter wraps the file a cache write goes to; tests make it
// fail like a full disk.
var testHookCacheWriter = func(w io.Writer) io.Writer { return w }

type cacheReader struct {
	br   *bufio.Reader
	crc  hash.Hash32
	left int64 // bytes of the file not yet read (guards allocations)
	buf  []byte
	err  error
}

var errDamaged = errors.New("damaged cache file")

func (r *cacheReader) fail(format string, args ...any) {
	if r.err == nil {
		r.err = fmt.Errorf("%w: %s", errDamaged, fmt.Sprintf(format, args...))
	}
}

func (r *cacheReader) read(n int) []byte {
	if r.err != nil {
		return nil
	}
	if int64(n) > r.left-4 {
		r.fail("ends early")
		return nil
	}
	if cap(r.buf) < n {
		r.buf = make([]byte, n)
	}
	b := r.buf[:n]
	if _, err := io.ReadFull(r.br, b); err != nil {
		r.fail("%v", err)
		return nil
	}
	r.crc.Write(b)
	r.left -= int64(n)
	return b
}

func (r *cacheReader) u64() uint64 {
	b := r.read(8)
	if b == nil {
		return 0
	}
	return binary.LittleEndian.Uint64(b)
}

// length reads an array length and checks that elem-byte elements fit.
func (r *cacheReader) length(elem int64) int {
	n := r.u64()
	if r.err == nil && (n > uint64(r.left)/uint64(elem)) {
		r.fail("array of %d elements does not fit", n)
	}
	if r.err != nil {
		return 0
	}
	return int(n)
}

func (r *cacheReader) bytes() []byte {
	n := r.length(1)
	return append([]byte(nil), r.read(n)...)
}

// chunks reads n elements of size elem, handing the bytes over in pieces.
func (r *cacheReader) chunks(n int, elem int, fn func(b []byte, at int)) {
	const chunk = 1 << 14
	for at := 0; at < n && r.err == nil; at += chunk {
		m := min(chunk, n-at)
		b := r.read(m * elem)
		if b != nil {
			fn(b, at)
		}
	}
}

func (r *cacheReader) i64s() []int64 {
	n := r.length(8)
	s := make([]int64, n)
	r.chunks(n, 8, func(b []byte, at int) {
		for i := range len(b) / 8 {
			s[at+i] = int64(binary.LittleEndian.Uint64(b[8*i:]))
		}
	})
	return s
}

func (r *cacheReader) i32s() []int32 {
	n := r.length(4)
	s := make([]int32, n)
	r.chunks(n, 4, func(b []byte, at int) {
		for i := range len(b) / 4 {
			s[at+i] = int32(binary.LittleEndian.Uint32(b[4*i:]))
		}
	})
	return s
}

func (r *cacheReader) counts() []float64 {
	n := r.length(4)
	s := make([]float64, n)
	r.chunks(n, 4, func(b []byte, at int) {
		for i := range len(b) / 4 {
			s[at+i] = float64(binary.LittleEndian.Uint32(b[4*i:]))
		}
	})
	return s
}

var cacheFile = inputfile.Spec{What: "a cache file (a regular file this program wrote)", NoFollow: true}

// readCache loads a cache file through body. It returns found = false when
// there is no file; an error wrapping errDamaged when the file is damaged
// (bad magic, key or checksum, or a body that does not decode).
func readCache(dir, kind, key string, body func(r *cacheReader) error) (found bool, err error) {
	path := cachePath(dir, kind, key)
	// Only a regular file is a cache file: a link, a FIFO or a device in
	// its place is damage, neither followed nor waited on, and rebuilt.
	f, st, err := inputfile.Open(path, cacheFile)
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if errors.Is(err, inputfile.ErrNotRegular) {
		return true, fmt.Errorf("%w: cache %w", errDamaged, err)
	}
	if err != nil {
		return true, fmt.Errorf("cache %s: %w", path, err)
	}
	defer f.Close()
	// A file's modification time is its last use: the cache is trimmed
	// least recently used first (access times are often not kept).
	now := time.Now()
	_ = os.Chtimes(path, now, now)
	r := &cacheReader{br: bufio.NewReaderSize(f, 1<<20), crc: crc32.New(castagnoli), left: st.Size()}
	if m := r.read(len(cacheMagic)); r.err == nil && string(m) != cacheMagic {
		r.fail("bad magic")
	}
	if k := r.bytes(); r.err == nil && string(k) != kind {
		r.fail("holds a %q, want %q", k, kind)
	}
	if k := r.bytes(); r.err == nil && string(k) != key {
		r.fail("stored under key %.16s…, want %.16s…", k, key)
	}
	if r.err == nil {
		if err := body(r); err != nil {
			r.fail("%v", err)
		}
	}
	if r.err == nil {
		var sum [4]byte
		if _, err := io.ReadFull(r.br, sum[:]); err != nil {
			r.fail("no checksum: %v", err)
		} else if binary.LittleEndian.Uint32(sum[:]) != r.crc.Sum32() {
			r.fail("CRC-32C mismatch")
		} else if r.left != 4 {
			r.fail("%d trailing bytes", r.left-4)
		}
	}
	if r.err != nil {
		return true, fmt.Errorf("cache %s: %w", path, r.err)
	}
	return true, nil
}

// removeDamaged deletes a damaged cache file after reporting it.
func removeDamaged(log io.Writer, err error, dir, kind, key string) {
	warnf(log, "%v; rebuilding it", err)
	os.Remove(cachePath(dir, kind, key))
}

// cacheFileName matches the names of cache files (cachePath).
var cacheFileName = regexp.MustCompile(`^[a-z]+-[0-9a-f]{32}\.bin$`)

// CacheFile is one file of a cache directory.
type CacheFile struct {
	Path    string
	Size    int64
	LastUse time.Time
}

// CacheFiles lists the cache files (vocabularies, offset tables) in dir,
// least recently used first; nothing else there is listed.
func CacheFiles(dir string) ([]CacheFile, error) {
	es, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var out []CacheFile
	for _, e := range es {
		if !e.Type().IsRegular() || !cacheFileName.MatchString(e.Name()) {
			continue
		}
		info, err := e.Info()
		if err != nil {
			continue // removed meanwhile
		}
		out = append(out, CacheFile{Path: filepath.Join(dir, e.Name()), Size: info.Size(), LastUse: info.ModTime()})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].LastUse.Before(out[j].LastUse) })
	return out, nil
}

// TrimCache removes the least recently used cache files in dir until they
// take at most maxBytes, and returns how many it removed and their bytes.
// A file another run is reading stays readable to it (it holds the file
// open); a run that looks for a removed file counts the table again.
func TrimCache(dir string, maxBytes int64) (files int, bytes int64, err error) {
	list, err := CacheFiles(dir)
	if err != nil {
		return 0, 0, err
	}
	var total int64
	for _, f := range list {
		total += f.Size
	}
	for _, f := range list {
		if total <= maxBytes {
			break
		}
		if os.Remove(f.Path) == nil {
			total -= f.Size
			files++
			bytes += f.Size
		}
	}
	return files, bytes, nil
}

// entryWait bounds how long a run waits for another that is building the
// same cache entry; past it, it builds the entry itself (the same bytes,
// written atomically: only the work is duplicated).
var entryWait = time.Hour

// lockEntry takes the lock of the cache entry kind/key while it is built,
// so that two runs do not count the same table at once: the second waits,
// then finds the entry in the cache. The lock is released by the kernel if
// the process dies. A cache where no lock can be taken (read-only) gets
// none: the build goes on unlocked.
func lockEntry(ctx context.Context, dir, kind, key string, log io.Writer) (release func()) {
	path := filepath.Join(dir, "."+filepath.Base(cachePath(dir, kind, key))+".lock")
	l, err := dirlock.Acquire(ctx, path, dirlock.Options{Wait: entryWait, Waiting: func(pid int) {
		fmt.Fprintf(logOr(log), "corpus: another kcalab run (pid %d) is building the cached %s %.12s…: waiting for it\n", pid, kind, key)
	}})
	if err != nil {
		return func() {}
	}
	return func() { _ = l.Release() }
}

func logOr(w io.Writer) io.Writer {
	if w == nil {
		return os.Stderr
	}
	return w
}
