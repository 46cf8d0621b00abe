package corpus

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Arbitrary file contents, under any of the names the reader distinguishes,
// give tables or an error, never a panic; plain text splits like
// strings.Fields.
func FuzzReadCorpus(f *testing.F) {
	f.Add([]byte("this is this is this is this is this"), uint8(0))
	f.Add([]byte("a b\nc\td a a b"), uint8(0))
	f.Add([]byte("PK\x03\x04garbage"), uint8(2))
	f.Add([]byte("\x1f\x8b\x08\x00garbage"), uint8(1))
	f.Add(zipBytes(f, "m", "a b a b c"), uint8(2))
	f.Add(gzBytes(f, "a b a b c"), uint8(1))
	f.Fuzz(func(t *testing.T, data []byte, kind uint8) {
		name := []string{"c.txt", "c.gz", "c.zip", "c"}[kind%4]
		path := filepath.Join(t.TempDir(), name)
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		ctx := context.Background()
		c, err := Open(ctx, "", path, Options{Lowercase: kind&4 != 0})
		if err != nil {
			return
		}
		v, ids, err := Build(ctx, c, VocabOptions{MinCount: 1, OOV: []OOV{OOVUnk, OOVDrop}[kind>>3&1]})
		if err != nil {
			return
		}
		if c.Format() == "plain text" && int(v.Tokens) != len(strings.Fields(string(data))) {
			t.Fatalf("%d tokens, strings.Fields finds %d", v.Tokens, len(strings.Fields(string(data))))
		}
		tb, err := NewTables(v, ids, TableOptions{})
		if err != nil {
			t.Fatal(err)
		}
		m, err := tb.Table(ctx, Spec{Kind: Cut, Window: 3, Symmetric: true})
		if err != nil {
			t.Fatal(err)
		}
		if r, _ := m.Dims(); r != v.Size() {
			t.Fatalf("table has %d rows for %d words", r, v.Size())
		}
	})
}
