package corpus

import (
	"archive/zip"
	"bufio"
	"bytes"
	"compress/flate"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"io/fs"
	"math"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"unicode/utf8"

	"kcalab/internal/inputfile"
)

// EnvData names the environment variable that points at the data directory.
const EnvData = "KCALAB_DATA"

// DataDir resolves the data directory: flagValue (the -data flag) when set,
// else $KCALAB_DATA, else "data" under the working directory (the repository
// root when run from there). An explicitly named directory must exist; the
// default one may not exist yet (text8 is downloaded into it).
func DataDir(flagValue string) (string, error) {
	dir, from := flagValue, "-data flag"
	if dir == "" {
		dir, from = os.Getenv(EnvData), "$"+EnvData
	}
	if dir == "" {
		abs, err := filepath.Abs("data")
		if err != nil {
			return "", fmt.Errorf("data directory: %w", err)
		}
		if st, err := os.Stat(abs); err == nil && !st.IsDir() {
			return "", fmt.Errorf("data directory %s (the default) is not a directory", abs)
		}
		return abs, nil
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", fmt.Errorf("data directory %q (from %s): %w", dir, from, err)
	}
	st, err := os.Stat(abs)
	if err != nil {
		return "", fmt.Errorf("data directory %s (from %s): %w", abs, from, err)
	}
	if !st.IsDir() {
		return "", fmt.Errorf("data directory %s (from %s) is not a directory", abs, from)
	}
	return abs, nil
}

// Options select how a corpus is read.
type Options struct {
	// Lowercase maps every token to lower case (text8 is lower case already).
	Lowercase bool
	// MaxTokens > 0 keeps only the first MaxTokens tokens.
	MaxTokens int64
	// Fraction in (0, 1] keeps only the initial floor(Fraction·tokens)
	// tokens; 0 means the whole corpus. At most one of MaxTokens and
	// Fraction may be set.
	Fraction float64
	// CacheDir, when set, caches the vocabulary and token ids built from
	// this corpus (see Build); it is created when missing.
	CacheDir string
	// Offline forbids downloading text8 when text8.zip is missing.
	Offline bool
	// Text8URL overrides DefaultText8URL (a mirror, or a test server).
	Text8URL string
	// Log receives progress (a bar on a terminal, plain lines otherwise)
	// and warnings; nil means no progress, warnings to stderr.
	Log io.Writer
}

func (o Options) validate() error {
	if o.MaxTokens < 0 {
		return fmt.Errorf("option MaxTokens = %d: want ≥ 0 (0 = all tokens)", o.MaxTokens)
	}
	if math.IsNaN(o.Fraction) || o.Fraction < 0 || o.Fraction > 1 {
		return fmt.Errorf("option Fraction = %v: want a number in (0, 1] (0 = whole corpus)", o.Fraction)
	}
	if o.MaxTokens > 0 && o.Fraction > 0 {
		return fmt.Errorf("options MaxTokens = %d and Fraction = %v both set: choose one", o.MaxTokens, o.Fraction)
	}
	return nil
}

type format int

const (
	formatPlain format = iota
	formatGzip
	formatZip
)

func (f format) String() string {
	return [...]string{"plain text", "gzip", "zip"}[f]
}

// Corpus is an opened corpus file; its tokens are streamed from disk on
// every pass, never held as strings.
type Corpus struct {
	Name   string // as given to Open
	Path   string // the file read
	Member string // zip member read ("" for plain and gzip files)
	opts   Options
	format format
	size   int64 // file size in bytes
	zipCRC uint32
	zipLen uint64

	mu    sync.Mutex
	ident string
	total int64 // tokens in the whole file, -1 until counted
}

// Named corpora in the data directory.
var named = map[string]struct{ file, member string }{
	"text8":        {"text8.zip", "text8"},
	"text8_prefix": {"text8_prefix.zip", "text8_prefix"},
}

// NamedFile is the file of a named corpus ("text8" → "text8.zip") in the
// data directory; false for a corpus given by its path.
func NamedFile(name string) (string, bool) {
	nc, ok := named[name]
	return nc.file, ok
}

// Open opens the corpus called name: "text8" (dataDir/text8.zip, downloaded
// and verified when missing unless opts.Offline), "text8_prefix"
// (dataDir/text8_prefix.zip, member text8_prefix: the first 2,139,749
// tokens of text8), or the path of a plain, gzip or zip text file (a zip's
// first file member is read). The format is told by the file's first bytes.
func Open(ctx context.Context, dataDir, name string, opts Options) (*Corpus, error) {
	if err := opts.validate(); err != nil {
		return nil, fmt.Errorf("corpus %s: %w", name, err)
	}
	if name == "" {
		return nil, errors.New("corpus: empty name: want text8, text8_prefix or a file path")
	}
	c := &Corpus{Name: name, opts: opts, total: -1}
	if nc, ok := named[name]; ok {
		c.Path = filepath.Join(dataDir, nc.file)
		c.Member = nc.member
		if _, err := os.Stat(c.Path); errors.Is(err, fs.ErrNotExist) {
			if name != "text8" {
				return nil, fmt.Errorf("corpus %s: %s not found: put %s in the data directory %s (or point -data / $%s at the directory that holds it)",
					name, c.Path, nc.file, dataDir, EnvData)
			}
			if opts.Offline {
				return nil, fmt.Errorf("corpus text8: %s not found and downloads are off: put text8.zip (%s) there", c.Path, DefaultText8URL)
			}
			if err := downloadText8(ctx, c.Path, opts.Text8URL, opts.Log); err != nil {
				return nil, err
			}
		}
	} else {
		c.Path = name
	}
	if err := c.probe(); err != nil {
		return nil, fmt.Errorf("%s: %w", c.label(), err)
	}
	if err := c.checkText(); err != nil {
		return nil, fmt.Errorf("%s: %w", c.label(), err)
	}
	return c, nil
}

// textSample is how much of the text checkText reads.
const textSample = 64 << 10

// checkText refuses a corpus whose text does not start as UTF-8 text: a
// NUL byte or an invalid UTF-8 sequence in its first 64 KiB means a binary
// file (an executable, an image, a mistyped path), whose bytes would
// otherwise be counted as tens of thousands of "words".
func (c *Corpus) checkText() error {
	r, _, closeFn, err := c.stream()
	if err != nil {
		return err
	}
	defer closeFn()
	// A read error (a corrupt archive) is the full read's to report, with
	// its advice; the bytes before it are checked all the same.
	b, rerr := io.ReadAll(io.LimitReader(r, textSample))
	if i := bytes.IndexByte(b, 0); i >= 0 {
		return fmt.Errorf("not a text file: byte %d of the text is NUL (a binary file? a corpus is UTF-8 text)", i)
	}
	full := len(b) < textSample && rerr == nil
	for i := 0; i < len(b); {
		r, size := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && size <= 1 {
			if !full && len(b)-i < utf8.UTFMax && !utf8.FullRune(b[i:]) {
				break // a character cut by the sample's end
			}
			return fmt.Errorf("not a text file: byte %d of the text is not UTF-8 (a binary file? a corpus is UTF-8 text)", i)
		}
		i += size
	}
	return nil
}

// corpusFile is how a corpus is opened: a regular file only, so that a
// file swapped for a FIFO or a device after probe neither blocks nor
// streams forever; a corpus is streamed, so its size is not bounded.
var corpusFile = inputfile.Spec{What: "a corpus (a plain, .gz or .zip text file)"}

// probe checks that the file exists and is readable in its format.
func (c *Corpus) probe() error {
	// Stat before opening: opening a FIFO would wait for a writer.
	st, err := os.Stat(c.Path)
	if err != nil {
		return err
	}
	if st.IsDir() {
		return errors.New("is a directory, want a text file")
	}
	if !st.Mode().IsRegular() {
		return fmt.Errorf("is not a regular file (%v), want a text file", st.Mode().Type())
	}
	f, _, err := inputfile.Open(c.Path, corpusFile)
	if err != nil {
		return err
	}
	defer f.Close()
	c.size = st.Size()
	var magic [4]byte
	n, _ := io.ReadFull(f, magic[:])
	ext := strings.ToLower(filepath.Ext(c.Path))
	switch {
	case n >= 2 && magic[0] == 0x1f && magic[1] == 0x8b:
		c.format = formatGzip
	case n == 4 && string(magic[:]) == "PK\x03\x04", n == 4 && string(magic[:]) == "PK\x05\x06":
		c.format = formatZip
	case ext == ".zip" || ext == ".gz":
		return fmt.Errorf("named %s but does not start like %s data (truncated or corrupt?)", ext, ext[1:])
	default:
		c.format = formatPlain
		return nil
	}
	if c.format == formatGzip {
		if _, err := f.Seek(0, io.SeekStart); err != nil {
			return err
		}
		if _, err := gzip.NewReader(f); err != nil {
			return fmt.Errorf("bad gzip header: %w", err)
		}
		return nil
	}
	zr, err := zip.NewReader(f, c.size)
	if err != nil {
		return fmt.Errorf("%w (truncated or corrupt zip; replace the file)", err)
	}
	zf, err := c.zipMember(zr)
	if err != nil {
		return err
	}
	c.Member, c.zipCRC, c.zipLen = zf.Name, zf.CRC32, zf.UncompressedSize64
	return nil
}

func (c *Corpus) zipMember(zr *zip.Reader) (*zip.File, error) {
	var files []*zip.File
	for _, zf := range zr.File {
		if zf.FileInfo().IsDir() {
			continue
		}
		if c.Member != "" {
			if zf.Name == c.Member {
				return zf, nil
			}
			continue
		}
		files = append(files, zf)
	}
	if c.Member != "" {
		return nil, fmt.Errorf("zip has no member %q", c.Member)
	}
	switch len(files) {
	case 0:
		return nil, errors.New("zip holds no file")
	case 1:
		return files[0], nil
	}
	// Several members: taking the first silently could read the wrong
	// text. The member named like the archive (text8.zip → text8 or
	// text8.txt) is the corpus; otherwise refuse, naming them.
	base := strings.TrimSuffix(filepath.Base(c.Path), filepath.Ext(c.Path))
	names := make([]string, len(files))
	for i, zf := range files {
		if n := path.Base(zf.Name); n == base || n == base+".txt" {
			return zf, nil
		}
		names[i] = strconv.Quote(zf.Name)
	}
	return nil, fmt.Errorf("zip holds %d files (%s) and none is named %q or %q: keep one text file in the archive, or name the corpus member like the archive",
		len(files), strings.Join(names, ", "), base, base+".txt")
}

// Format names the file's format: "plain text", "gzip" or "zip".
func (c *Corpus) Format() string { return c.format.String() }

// Identity returns a content address of the corpus text: for zip members
// the member's CRC-32 and size (from the archive, free), for plain files
// their CRC-32 and size (the same string as the zipped text), for gzip files
// the SHA-256 of the compressed file. Lowercase and token limits are not
// part of it (see Build, which adds them to its cache key).
func (c *Corpus) Identity() (string, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.ident != "" {
		return c.ident, nil
	}
	switch c.format {
	case formatZip:
		c.ident = fmt.Sprintf("crc32=%08x,size=%d", c.zipCRC, c.zipLen)
	case formatPlain:
		f, _, err := inputfile.Open(c.Path, corpusFile)
		if err != nil {
			return "", fmt.Errorf("%s: %w", c.label(), err)
		}
		defer f.Close()
		h := crc32.NewIEEE()
		n, err := io.Copy(h, f)
		if err != nil {
			return "", fmt.Errorf("%s: %w", c.label(), err)
		}
		c.ident = fmt.Sprintf("crc32=%08x,size=%d", h.Sum32(), n)
	case formatGzip:
		f, _, err := inputfile.Open(c.Path, corpusFile)
		if err != nil {
			return "", fmt.Errorf("%s: %w", c.label(), err)
		}
		defer f.Close()
		h := sha256.New()
		if _, err := io.Copy(h, f); err != nil {
			return "", fmt.Errorf("%s: %w", c.label(), err)
		}
		c.ident = "gzip-sha256=" + hex.EncodeToString(h.Sum(nil))
	}
	return c.ident, nil
}

// countingReaderAt counts the compressed bytes read, for progress.
type countingReaderAt struct {
	r io.ReaderAt
	n atomic.Int64
}

func (c *countingReaderAt) ReadAt(p []byte, off int64) (int, error) {
	n, err := c.r.ReadAt(p, off)
	c.n.Add(int64(n))
	return n, err
}

type countingReader struct {
	r io.Reader
	n *atomic.Int64
}

func (c countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n.Add(int64(n))
	return n, err
}

// stream opens the decompressed text. read counts file bytes consumed.
func (c *Corpus) stream() (r io.Reader, read *atomic.Int64, closeFn func() error, err error) {
	f, _, err := inputfile.Open(c.Path, corpusFile)
	if err != nil {
		return nil, nil, nil, err
	}
	switch c.format {
	case formatZip:
		cr := &countingReaderAt{r: f}
		zr, err := zip.NewReader(cr, c.size)
		if err != nil {
			f.Close()
			return nil, nil, nil, fmt.Errorf("%w (truncated or corrupt zip; replace the file)", err)
		}
		zf, err := c.zipMember(zr)
		if err != nil {
			f.Close()
			return nil, nil, nil, err
		}
		rc, err := zf.Open()
		if err != nil {
			f.Close()
			return nil, nil, nil, fmt.Errorf("zip member %s: %w", zf.Name, err)
		}
		return rc, &cr.n, func() error { rc.Close(); return f.Close() }, nil
	case formatGzip:
		n := new(atomic.Int64)
		zr, err := gzip.NewReader(bufio.NewReaderSize(countingReader{f, n}, 256<<10))
		if err != nil {
			f.Close()
			return nil, nil, nil, fmt.Errorf("bad gzip header: %w", err)
		}
		return zr, n, f.Close, nil
	}
	n := new(atomic.Int64)
	return countingReader{f, n}, n, f.Close, nil
}

// label names the corpus and, when it differs, the file read.
func (c *Corpus) label() string {
	if c.Name == c.Path {
		return "corpus " + c.Path
	}
	return "corpus " + c.Name + " (" + c.Path + ")"
}

// readErr explains a read failure in terms of the file.
func (c *Corpus) readErr(err error) error {
	var ce flate.CorruptInputError
	switch {
	case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		return err
	case errors.Is(err, zip.ErrChecksum):
		return fmt.Errorf("%s: zip member %s fails its CRC-32 check (corrupt file; replace it): %w", c.label(), c.Member, err)
	case errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, gzip.ErrChecksum), errors.Is(err, gzip.ErrHeader):
		return fmt.Errorf("%s: the %s file is truncated or corrupt; replace it: %w", c.label(), c.format, err)
	case errors.As(err, &ce):
		return fmt.Errorf("%s: corrupt compressed data; replace the file: %w", c.label(), err)
	}
	return fmt.Errorf("%s: %w", c.label(), err)
}

// scan streams every token (lowercased when asked) to fn, stopping after
// limit tokens when limit > 0 or at fn's first error. The token slice is
// valid only during the call.
func (c *Corpus) scan(ctx context.Context, limit int64, label string, fn func(tok []byte) error) (int64, error) {
	r, read, closeFn, err := c.stream()
	if err != nil {
		return 0, c.readErr(err)
	}
	defer closeFn()
	p := newProgress(c.opts.Log, label, "B", c.size)
	tz := newTokenizer(r, c.opts.Lowercase)
	var n int64
	for tz.next() {
		if err := fn(tz.tok); err != nil {
			return n, err
		}
		n++
		if n == limit {
			break
		}
		if n&0xffff == 0 {
			if err := ctx.Err(); err != nil {
				return n, err
			}
			p.update(read.Load())
		}
	}
	if err := tz.err(); err != nil {
		return n, c.readErr(err)
	}
	p.finish(read.Load())
	return n, nil
}

// totalTokens counts the tokens of the whole file once.
func (c *Corpus) totalTokens(ctx context.Context) (int64, error) {
	c.mu.Lock()
	t := c.total
	c.mu.Unlock()
	if t >= 0 {
		return t, nil
	}
	n, err := c.scan(ctx, 0, "counting tokens of "+c.Name, func([]byte) error { return nil })
	if err != nil {
		return 0, err
	}
	c.mu.Lock()
	c.total = n
	c.mu.Unlock()
	return n, nil
}

// fractionTokens is the token count Fraction selects out of total.
func fractionTokens(total int64, f float64) int64 {
	if f == 0 || f == 1 {
		return total
	}
	return int64(math.Floor(float64(total) * f))
}

// Scan streams the selected tokens (after Lowercase, MaxTokens and
// Fraction) to fn. The slice passed to fn is valid only during the call.
// With Fraction set, a first pass counts the corpus tokens.
func (c *Corpus) Scan(ctx context.Context, fn func(tok []byte) error) error {
	limit := c.opts.MaxTokens
	if c.opts.Fraction > 0 && c.opts.Fraction < 1 {
		total, err := c.totalTokens(ctx)
		if err != nil {
			return err
		}
		limit = fractionTokens(total, c.opts.Fraction)
		if limit == 0 {
			return fmt.Errorf("%s: Fraction %v of %d tokens selects no token", c.label(), c.opts.Fraction, total)
		}
	}
	_, err := c.scan(ctx, limit, "reading "+c.Name, fn)
	return err
}
