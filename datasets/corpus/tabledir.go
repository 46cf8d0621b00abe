package corpus

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"kcalab/datasets/sparse"
	"kcalab/internal/inputfile"
)

// A table directory holds counted tables on disk, for counting done
// elsewhere (the Beam pipeline of the pipelines module) or exported by
// WriteTableDir:
//
//	manifest.json   TableDir: settings, sizes and a CRC-32C per file
//	vocab.txt       one line per id: word, a tab, its count
//	offset-001.csr  N^1 … N^W (sparse.CSR's WriteTo format)
//	flat.csr        N^flat, skip.csr N^skip, cut.csr N^cut, all over 1..W
//
// The manifest is written last, so a directory without one is incomplete.
// Tokens never hold whitespace (they are split on it), so the vocabulary
// file needs no quoting.
const (
	// TableDirFormat names this layout in the manifest.
	TableDirFormat = "kcalab-tables v1"
	// ManifestFile is the manifest's name in a table directory.
	ManifestFile = "manifest.json"
	// VocabFile is the vocabulary's name in a table directory.
	VocabFile = "vocab.txt"
)

// StoredKinds are the combined tables a table directory holds besides the
// offset tables (Glove and symmetric tables are built from the offsets).
var StoredKinds = []Kind{Flat, Skip, Cut}

// TableFileName is the name of an offset table (kind "offset", k ≥ 1) or
// of a stored combined table (Flat, Skip, Cut; k ignored).
func TableFileName(kind string, k int) string {
	if kind == "offset" {
		return fmt.Sprintf("offset-%03d.csr", k)
	}
	return kind + ".csr"
}

// TableDir is a table directory's manifest.
type TableDir struct {
	Format string `json:"format"`
	// Window W: the directory holds N^1 … N^W and the combined tables
	// over 1..W.
	Window int `json:"window"`
	// MinCount, MaxSize and OOV are the vocabulary settings.
	MinCount int64 `json:"min_count"`
	MaxSize  int   `json:"max_size"`
	OOV      OOV   `json:"oov"`
	// Tokens counted (before OOVDrop deleted Dropped of them).
	Tokens  int64 `json:"tokens"`
	Dropped int64 `json:"dropped"`
	// Words is the vocabulary size (<unk> included); Unk its id, or -1.
	Words int   `json:"words"`
	Unk   int32 `json:"unk"`
	// Source says what was counted and by what (free text).
	Source string      `json:"source,omitempty"`
	Files  []TableFile `json:"files"`
}

// TableFile is one file of a table directory.
type TableFile struct {
	Name   string `json:"name"`
	Bytes  int64  `json:"bytes"`
	CRC32C uint32 `json:"crc32c"`
	// NNZ is the stored entries of a table (0 for the vocabulary).
	NNZ int64 `json:"nnz,omitempty"`
}

// crcWriter counts and checksums what passes through to w.
type crcWriter struct {
	w   io.Writer
	crc uint32
	n   int64
}

func (c *crcWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.crc = crc32.Update(c.crc, castagnoli, p[:n])
	c.n += int64(n)
	return n, err
}

// WriteTableFile writes m in sparse.CSR's format to w and describes it as
// file name of a table directory.
func WriteTableFile(w io.Writer, name string, m *sparse.CSR) (TableFile, error) {
	cw := &crcWriter{w: w}
	bw := bufio.NewWriterSize(cw, 1<<20)
	if _, err := m.WriteTo(bw); err != nil {
		return TableFile{}, fmt.Errorf("table file %s: %w", name, err)
	}
	if err := bw.Flush(); err != nil {
		return TableFile{}, fmt.Errorf("table file %s: %w", name, err)
	}
	return TableFile{Name: name, Bytes: cw.n, CRC32C: cw.crc, NNZ: int64(m.NNZ())}, nil
}

// WriteVocabFile writes v's words and counts, one id a line, to w.
func WriteVocabFile(w io.Writer, v *Vocab) (TableFile, error) {
	cw := &crcWriter{w: w}
	bw := bufio.NewWriterSize(cw, 1<<20)
	for i, word := range v.Words {
		if word == "" || strings.ContainsAny(word, " \t\n\r\v\f") {
			return TableFile{}, fmt.Errorf("vocabulary file: word %d (%q) is empty or holds whitespace", i, word)
		}
		bw.WriteString(word)
		bw.WriteByte('\t')
		bw.WriteString(strconv.FormatInt(v.Counts[i], 10))
		bw.WriteByte('\n')
	}
	if err := bw.Flush(); err != nil {
		return TableFile{}, fmt.Errorf("vocabulary file: %w", err)
	}
	return TableFile{Name: VocabFile, Bytes: cw.n, CRC32C: cw.crc}, nil
}

// NewTableDir is the manifest of tables over v with window w; Files is
// left for the caller to fill.
func NewTableDir(v *Vocab, w int, source string) *TableDir {
	return &TableDir{
		Format: TableDirFormat, Window: w,
		MinCount: v.Options.MinCount, MaxSize: v.Options.MaxSize, OOV: v.Options.OOV,
		Tokens: v.Tokens, Dropped: v.Dropped, Words: v.Size(), Unk: v.Unk, Source: source,
	}
}

// WriteManifest writes d as indented JSON.
func WriteManifest(w io.Writer, d *TableDir) error {
	b, err := json.MarshalIndent(d, "", "  ")
	if err != nil {
		return fmt.Errorf("table manifest: %w", err)
	}
	if _, err := w.Write(append(b, '\n')); err != nil {
		return fmt.Errorf("table manifest: %w", err)
	}
	return nil
}

// WriteTableDir writes t's N^1 … N^w, N^flat, N^skip, N^cut and vocabulary
// to dir (created when missing) as a table directory, the same bytes the
// Beam pipeline writes for the same corpus. The manifest goes last, through
// a temporary name.
func WriteTableDir(ctx context.Context, dir string, t *Tables, w int, source string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("table directory: %w", err)
	}
	d := NewTableDir(t.vocab, w, source)
	put := func(name string, write func(io.Writer) (TableFile, error)) error {
		f, err := os.Create(filepath.Join(dir, name))
		if err != nil {
			return fmt.Errorf("table directory: %w", err)
		}
		tf, err := write(f)
		if err = errors.Join(err, f.Close()); err != nil {
			return fmt.Errorf("table directory %s: %w", dir, err)
		}
		d.Files = append(d.Files, tf)
		return nil
	}
	if err := put(VocabFile, func(f io.Writer) (TableFile, error) { return WriteVocabFile(f, t.vocab) }); err != nil {
		return err
	}
	offs, err := t.Offsets(ctx, w)
	if err != nil {
		return err
	}
	for k, m := range offs {
		name := TableFileName("offset", k+1)
		if err := put(name, func(f io.Writer) (TableFile, error) { return WriteTableFile(f, name, m) }); err != nil {
			return err
		}
	}
	for _, kind := range StoredKinds {
		m, err := Combine(offs, Spec{Kind: kind, Window: w})
		if err != nil {
			return err
		}
		name := TableFileName(string(kind), 0)
		if err := put(name, func(f io.Writer) (TableFile, error) { return WriteTableFile(f, name, m) }); err != nil {
			return err
		}
	}
	var buf bytes.Buffer
	if err := WriteManifest(&buf, d); err != nil {
		return err
	}
	tmp := filepath.Join(dir, ManifestFile+".tmp")
	if err := os.WriteFile(tmp, buf.Bytes(), 0o644); err != nil {
		return fmt.Errorf("table directory: %w", err)
	}
	if err := os.Rename(tmp, filepath.Join(dir, ManifestFile)); err != nil {
		return fmt.Errorf("table directory: %w", err)
	}
	return nil
}

// MaxManifestBytes bounds a table directory's manifest: it lists a few
// files per offset of the window, a few KiB.
const MaxManifestBytes = 1 << 20

var manifestFile = inputfile.Spec{What: "a table directory's manifest (JSON, a regular file of at most 1 MiB)", Limit: MaxManifestBytes}

// storedTables is the table directory a Tables reads instead of counting.
type storedTables struct {
	dir   string
	man   *TableDir
	files map[string]TableFile
}

// OpenTableDir opens a table directory (as the Beam pipeline or
// WriteTableDir writes it) as Tables: the vocabulary is read now, each
// table when asked for, checked against the manifest's size and CRC-32C.
// Table(spec) returns a stored N^flat, N^skip or N^cut when spec asks for
// one over the stored window (symmetric: plus its transpose) and otherwise
// combines the stored offset tables, so any kind and any window up to the
// stored one can be read. There is no token stream: methods that train on
// tokens need the corpus itself.
func OpenTableDir(dir string) (*Tables, error) {
	raw, err := inputfile.ReadFile(filepath.Join(dir, ManifestFile), manifestFile)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("table directory %s: no manifest (incomplete, or not a table directory): %w", dir, err)
	}
	if err != nil {
		return nil, fmt.Errorf("table directory %s: %w", dir, err)
	}
	var d TableDir
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&d); err != nil {
		return nil, fmt.Errorf("table directory %s: manifest: %w", dir, err)
	}
	if d.Format != TableDirFormat {
		return nil, fmt.Errorf("table directory %s: format %q, this build reads %q", dir, d.Format, TableDirFormat)
	}
	if d.Window < 1 || d.Words < 1 || d.Unk < -1 || int(d.Unk) >= d.Words {
		return nil, fmt.Errorf("table directory %s: manifest has window %d, %d words, <unk> id %d", dir, d.Window, d.Words, d.Unk)
	}
	st := &storedTables{dir: dir, man: &d, files: map[string]TableFile{}}
	for _, f := range d.Files {
		if f.Name != filepath.Base(f.Name) || strings.HasPrefix(f.Name, ".") {
			return nil, fmt.Errorf("table directory %s: manifest names file %q outside the directory", dir, f.Name)
		}
		st.files[f.Name] = f
	}
	// Every count the manifest gives is checked against what is there
	// before anything is sized by it: a window needs a listed file per
	// offset, and a vocabulary of n words at least 4n bytes ("w\t1\n").
	if d.Window > len(d.Files) {
		return nil, fmt.Errorf("table directory %s: manifest has window %d but lists %d files, one per offset at least", dir, d.Window, len(d.Files))
	}
	if vf, ok := st.files[VocabFile]; ok && int64(d.Words) > vf.Bytes/minVocabLine {
		return nil, fmt.Errorf("table directory %s: manifest has %d words, but its %s has %d bytes, room for at most %d", dir, d.Words, VocabFile, vf.Bytes, vf.Bytes/minVocabLine)
	}
	for k := 1; k <= d.Window; k++ {
		if _, ok := st.files[TableFileName("offset", k)]; !ok {
			return nil, fmt.Errorf("table directory %s: manifest lists no %s (window %d)", dir, TableFileName("offset", k), d.Window)
		}
	}
	vb, err := st.read(VocabFile)
	if err != nil {
		return nil, err
	}
	v, err := parseVocab(vb, &d)
	if err != nil {
		return nil, fmt.Errorf("table directory %s: %s: %w", dir, VocabFile, err)
	}
	sum := sha256.Sum256(raw)
	v.Key = "table-dir-sha256=" + hex.EncodeToString(sum[:])
	return &Tables{vocab: v, opts: TableOptions{Workers: 1}, key: v.Key, stored: st}, nil
}

// read returns a listed file's bytes after checking its size and CRC-32C.
func (st *storedTables) read(name string) ([]byte, error) {
	f, ok := st.files[name]
	if !ok {
		return nil, fmt.Errorf("table directory %s: manifest lists no %s", st.dir, name)
	}
	// The manifest gives the size: a file of another size (or not a
	// regular file) is refused before it is read, and no more is read.
	in, fi, err := inputfile.Open(filepath.Join(st.dir, name), inputfile.Spec{What: "a table directory's file, as its manifest lists it"})
	if err != nil {
		return nil, fmt.Errorf("table directory %s: %w", st.dir, err)
	}
	defer in.Close()
	if fi.Size() != f.Bytes {
		return nil, fmt.Errorf("table directory %s: %s has %d bytes, the manifest says %d (truncated or replaced)", st.dir, name, fi.Size(), f.Bytes)
	}
	b, err := io.ReadAll(io.LimitReader(in, f.Bytes+1))
	if err != nil {
		return nil, fmt.Errorf("table directory %s: %s: %w", st.dir, name, err)
	}
	if int64(len(b)) != f.Bytes {
		return nil, fmt.Errorf("table directory %s: %s has %d bytes, the manifest says %d (truncated or replaced)", st.dir, name, len(b), f.Bytes)
	}
	if c := crc32.Checksum(b, castagnoli); c != f.CRC32C {
		return nil, fmt.Errorf("table directory %s: %s fails its CRC-32C check (%08x, manifest %08x): corrupt", st.dir, name, c, f.CRC32C)
	}
	return b, nil
}

// table reads a stored V×V table.
func (st *storedTables) table(name string) (*sparse.CSR, error) {
	b, err := st.read(name)
	if err != nil {
		return nil, err
	}
	m, err := sparse.Read(bytes.NewReader(b))
	if err != nil {
		return nil, fmt.Errorf("table directory %s: %s: %w", st.dir, name, err)
	}
	if r, c := m.Dims(); r != st.man.Words || c != st.man.Words {
		return nil, fmt.Errorf("table directory %s: %s is %d×%d, the vocabulary has %d words", st.dir, name, r, c, st.man.Words)
	}
	return m, nil
}

// combined returns the stored table for s, or nil when none fits.
func (st *storedTables) combined(s Spec) (*sparse.CSR, error) {
	if s.Window != st.man.Window || s.CutN1Twice || (s.Kind != Flat && s.Kind != Skip && s.Kind != Cut) {
		return nil, nil
	}
	name := TableFileName(string(s.Kind), 0)
	if _, ok := st.files[name]; !ok {
		return nil, nil
	}
	m, err := st.table(name)
	if err != nil || !s.Symmetric {
		return m, err
	}
	m, err = sparse.AddTranspose(m)
	if err != nil {
		return nil, fmt.Errorf("table %s: %w", s.Kind, err)
	}
	return m, nil
}

// offsets reads N^k for each k of ks.
func (st *storedTables) offsets(ctx context.Context, ks []int) ([]*sparse.CSR, error) {
	out := make([]*sparse.CSR, len(ks))
	for i, k := range ks {
		if k > st.man.Window {
			return nil, fmt.Errorf("tables: offset %d asked for, the table directory %s holds offsets 1..%d", k, st.dir, st.man.Window)
		}
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		m, err := st.table(TableFileName("offset", k))
		if err != nil {
			return nil, fmt.Errorf("tables: %w", err)
		}
		out[i] = m
	}
	return out, nil
}

// minVocabLine is the fewest bytes a vocabulary file's line takes: a
// one-byte word, a tab, a one-digit count and the line end.
const minVocabLine = 4

// parseVocab reads a vocabulary file against its manifest. The map is
// sized by the manifest's word count only once the bytes present can hold
// that many lines.
func parseVocab(b []byte, d *TableDir) (*Vocab, error) {
	o, err := VocabOptions{MinCount: d.MinCount, MaxSize: d.MaxSize, OOV: d.OOV}.resolve()
	if err != nil {
		return nil, err
	}
	if d.Words < 0 || int64(d.Words) > int64(len(b))/minVocabLine {
		return nil, fmt.Errorf("the manifest has %d words, but the file has %d bytes, room for at most %d", d.Words, len(b), len(b)/minVocabLine)
	}
	v := &Vocab{Unk: d.Unk, Tokens: d.Tokens, Dropped: d.Dropped, Options: o, Index: make(map[string]int32, d.Words)}
	var sum int64
	for line := 1; len(b) > 0; line++ {
		nl := bytes.IndexByte(b, '\n')
		if nl < 0 {
			return nil, fmt.Errorf("line %d: no line end (truncated)", line)
		}
		word, num, ok := strings.Cut(string(b[:nl]), "\t")
		b = b[nl+1:]
		n, err := strconv.ParseInt(num, 10, 64)
		if !ok || word == "" || err != nil || n < 1 {
			return nil, fmt.Errorf("line %d: want a word, a tab and a positive count", line)
		}
		if _, dup := v.Index[word]; dup {
			return nil, fmt.Errorf("line %d: word %q repeated", line, word)
		}
		if (word == Unk) != (int32(len(v.Words)) == d.Unk) {
			return nil, fmt.Errorf("line %d: %q where the manifest puts <unk> at id %d", line, word, d.Unk)
		}
		v.Index[word] = int32(len(v.Words))
		v.Words = append(v.Words, word)
		v.Counts = append(v.Counts, n)
		sum += n
	}
	if len(v.Words) != d.Words {
		return nil, fmt.Errorf("%d words, the manifest says %d", len(v.Words), d.Words)
	}
	if want := d.Tokens - d.Dropped; sum != want {
		return nil, fmt.Errorf("counts sum to %d, the manifest's tokens less dropped to %d", sum, want)
	}
	return v, nil
}
