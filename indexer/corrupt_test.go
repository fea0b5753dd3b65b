package indexer

import (
	"context"
	"encoding/binary"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// buildClosed makes an index with the corpus in it, closed, and returns its
// directory.
// With table, enough other documents go in that the chunks are written
// as a table (see vecstore).
func buildClosed(t *testing.T, table bool) string {
	t.Helper()
	ctx := context.Background()
	dir := filepath.Join(t.TempDir(), "index")
	ix, err := Open(ctx, dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	put(t, ix, corpus()...)
	if table {
		var docs []Document
		for i := range 300 {
			docs = append(docs, Document{Path: "filler/" + strconv.Itoa(i) + ".md", Title: "Filler " + strconv.Itoa(i), Body: "Nothing to see here."})
		}
		put(t, ix, docs...)
	}
	if err := ix.SetVersion(ctx, "v1"); err != nil {
		t.Fatal(err)
	}
	if err := ix.Close(); err != nil {
		t.Fatal(err)
	}
	return dir
}

func files(t *testing.T, dir, pattern string) []string {
	t.Helper()
	var out []string
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			if ok, _ := filepath.Match(pattern, d.Name()); ok {
				out = append(out, p)
			}
		}
		return nil
	})
	if len(out) == 0 {
		t.Fatalf("no %s in %s", pattern, dir)
	}
	return out
}

func truncate(frac float64) func(t *testing.T, path string) {
	return func(t *testing.T, path string) {
		fi, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.Truncate(path, int64(float64(fi.Size())*frac)); err != nil {
			t.Fatal(err)
		}
	}
}

func garble(at float64) func(t *testing.T, path string) {
	return func(t *testing.T, path string) {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		i := int(float64(len(b)) * at)
		for j := i; j < min(len(b), i+16); j++ {
			b[j] ^= 0x5a
		}
		if err := os.WriteFile(path, b, 0o600); err != nil {
			t.Fatal(err)
		}
	}
}

func TestCorruptIndex(t *testing.T) {
	tests := []struct {
		name    string
		pattern string // files in the index to damage
		damage  func(t *testing.T, path string)
		opts    Options
		reason  string
		// atUse: Open succeeds and keyword searches work; the damage
		// (in the vectors, read lazily) shows at the first vector search
		// or write.
		atUse bool
		table bool // the chunks are in a table, not the log
	}{
		{"meta garbled", "meta.json", garble(0), Options{}, "corrupt", false, false},
		{"meta empty", "meta.json", truncate(0), Options{}, "corrupt", false, false},
		{"meta missing", "meta.json", func(t *testing.T, p string) { os.Remove(p) }, Options{}, "missing", false, false},
		{"schema", "meta.json", func(t *testing.T, p string) {
			b, _ := os.ReadFile(p)
			os.WriteFile(p, []byte(strings.Replace(string(b), `"schema": `+strconv.Itoa(schemaVersion), `"schema": 999`, 1)), 0o600)
		}, Options{}, "schema", false, false},
		{"embedder", "", nil, Options{Embedder: &tableEmbedder{}}, "embedder", false, false},
		{"chunking", "", nil, Options{Chunk: ChunkOptions{MaxTokens: 256}}, "chunking", false, false},
		{"vectors truncated", "vectors", truncate(0.9), Options{}, "corrupt", false, false},
		{"vectors cut in header", "vectors", truncate(0.001), Options{}, "corrupt", false, false},
		{"vectors garbled", "vectors", garble(0.5), Options{}, "corrupt", false, false},
		{"vector data garbled", "vectors.i8", garble(0.5), Options{}, "corrupt", true, false},
		{"vector data truncated", "vectors.i8", truncate(0.5), Options{}, "corrupt", false, false},
		{"vector data missing", "vectors.i8", func(t *testing.T, p string) { os.Remove(p) }, Options{}, "corrupt", false, false},
		{"vectors record fields garbled", "vectors", func(t *testing.T, p string) {
			b, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			// magic, format, dim, name, table generation, checksum
			head := 22 + int(binary.LittleEndian.Uint16(b[16:])) + 8 + 4
			for j := head + 9; j < head+20; j++ { // the first record's path
				b[j] ^= 0x5a
			}
			os.WriteFile(p, b, 0o600)
		}, Options{}, "corrupt", false, false},
		{"vectors header garbled", "vectors", garble(0), Options{}, "corrupt", false, false},
		{"vectors missing", "vectors", func(t *testing.T, p string) { os.Remove(p) }, Options{}, "missing", false, false},
		{"bleve missing", "index_meta.json", func(t *testing.T, p string) { os.RemoveAll(filepath.Dir(p)) }, Options{}, "missing", false, false},
		{"bleve meta garbled", "index_meta.json", garble(0.2), Options{}, "corrupt", false, false},
		{"bolt garbled", "root.bolt", func(t *testing.T, p string) {
			// Both meta pages: bolt falls back to the other if one is bad.
			b, _ := os.ReadFile(p)
			for _, at := range []int{16, 4096 + 16} {
				for j := at; j < at+32; j++ {
					b[j] ^= 0x5a
				}
			}
			os.WriteFile(p, b, 0o600)
		}, Options{}, "corrupt", false, false},
		{"bolt one meta page garbled", "root.bolt", garble(0.001), Options{}, "", false, false},
		{"bolt truncated", "root.bolt", truncate(0.3), Options{}, "corrupt", false, false},
		{"segment truncated", "*.zap", truncate(0.5), Options{}, "corrupt", false, false},
		{"segment footer garbled", "*.zap", garble(0.995), Options{}, "corrupt", false, false},
		{"segment emptied", "*.zap", truncate(0), Options{}, "corrupt", false, false},
		{"table truncated", "vectors.tab", truncate(0.9), Options{}, "corrupt", false, true},
		{"table cut in header", "vectors.tab", truncate(0.0001), Options{}, "corrupt", false, true},
		{"table records garbled", "vectors.tab", garble(0.05), Options{}, "corrupt", false, true},
		{"table vectors garbled", "vectors.tab", garble(0.9), Options{}, "corrupt", true, true},
		{"table missing", "vectors.tab", func(t *testing.T, p string) { os.Remove(p) }, Options{}, "corrupt", false, true},
		{"log after a table garbled", "vectors", garble(0.5), Options{}, "corrupt", false, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx := context.Background()
			dir := buildClosed(t, tt.table)
			if tt.damage != nil {
				for _, f := range files(t, dir, tt.pattern) {
					tt.damage(t, f)
				}
			}
			ix, err := Open(ctx, dir, tt.opts)
			if tt.atUse {
				if err != nil {
					t.Fatalf("open: %v", err)
				}
				if len(search(t, ix, Query{Text: "migrations", Mode: Keyword})) == 0 {
					t.Errorf("keyword search finds nothing")
				}
				_, err = ix.Search(ctx, Query{Text: "migrations"})
				if perr := ix.Put(ctx, corpus()[0]); !errors.Is(perr, ErrNeedsRebuild) {
					t.Errorf("put: %v, want ErrNeedsRebuild", perr)
				}
				ix.Close()
			}
			if tt.reason == "" { // damage the index recovers from
				if err != nil {
					t.Fatalf("open: %v", err)
				}
				defer ix.Close()
				if ix.Version() != "v1" || len(search(t, ix, Query{Text: "migrations"})) == 0 {
					t.Errorf("recovered index: version %q, does not find", ix.Version())
				}
				return
			}
			if err == nil {
				ix.Close()
				t.Fatalf("open of a damaged index succeeded")
			}
			var re *RebuildError
			if !errors.Is(err, ErrNeedsRebuild) || !errors.As(err, &re) {
				t.Fatalf("open (or first vector search): %v, want ErrNeedsRebuild", err)
			}
			if re.Reason != tt.reason {
				t.Errorf("reason %q, want %q (%v)", re.Reason, tt.reason, err)
			}
			// The lock was let go, and one call makes a working index.
			ix, err = Rebuild(ctx, dir, tt.opts)
			if err != nil {
				t.Fatalf("rebuild: %v", err)
			}
			defer ix.Close()
			if ix.Version() != "" || ix.Count() != 0 {
				t.Errorf("rebuilt index: version %q, %d chunks", ix.Version(), ix.Count())
			}
			put(t, ix, corpus()...)
			if hits := search(t, ix, Query{Text: "migrations", Mode: Keyword}); len(hits) == 0 {
				t.Errorf("rebuilt index finds nothing")
			}
		})
	}
}
