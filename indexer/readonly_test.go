package indexer

import (
	"context"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/blevesearch/bleve/v2/index/scorch"
)

// segments returns how many segments Bleve's root has.
func segments(t *testing.T, ix *Index) uint64 {
	t.Helper()
	a, err := ix.bleve.Advanced()
	if err != nil {
		t.Fatal(err)
	}
	m := a.(*scorch.Scorch).Stats().(*scorch.Stats).ToMap()
	return m["TotFileSegmentsAtRoot"].(uint64) + m["TotMemorySegmentsAtRoot"].(uint64)
}

// listing is the names and sizes of the files under dir.
func listing(t *testing.T, dir string) string {
	t.Helper()
	var out []string
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			if fi, err := d.Info(); err == nil {
				out = append(out, p+" "+strconv.FormatInt(fi.Size(), 10))
			}
		}
		return nil
	})
	sort.Strings(out)
	return strings.Join(out, "\n")
}

// TestReadOnlyBleve checks that Open leaves Bleve read-only, so that a
// process that only searches changes no file, and that the first write
// makes it writable. Searches no longer merge segments, so it checks too
// that many short-lived writers, a segment each, do not leave them piling
// up: each merges what it finds while it writes (Bleve's merger starts
// when Bleve is opened for writing).
func TestReadOnlyBleve(t *testing.T) {
	ctx := context.Background()
	dir := filepath.Join(t.TempDir(), "index")
	// Many short-lived writers (checkpoints' catch-ups), a segment each.
	const most = 10
	for i := range 3 * most {
		ix, err := Open(ctx, dir, Options{})
		if err != nil {
			t.Fatal(err)
		}
		put(t, ix, Document{Path: "notes/" + strconv.Itoa(i) + ".md", Title: "Note " + strconv.Itoa(i), Body: "Queue workers retry failed jobs."})
		if err := ix.SetVersion(ctx, "v"+strconv.Itoa(i)); err != nil {
			t.Fatal(err)
		}
		if err := ix.Close(); err != nil {
			t.Fatal(err)
		}
	}

	before := listing(t, filepath.Join(dir, bleveDir))
	ix, err := Open(ctx, dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if ix.writable {
		t.Error("Open left Bleve writable")
	}
	if n := segments(t, ix); n > most {
		t.Errorf("the writers left %d segments, want at most %d", n, most)
	}
	if hits := search(t, ix, Query{Text: "queue workers"}); len(hits) == 0 {
		t.Error("read-only index finds nothing")
	}
	if err := ix.Close(); err != nil {
		t.Fatal(err)
	}
	if after := listing(t, filepath.Join(dir, bleveDir)); after != before {
		t.Errorf("a search changed Bleve's files:\n%s\nwas\n%s", after, before)
	}

	ix, err = Open(ctx, dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	search(t, ix, Query{Text: "queue"})
	put(t, ix, Document{Path: "notes/new.md", Title: "Deploys", Body: "We deploy on Tuesdays."})
	if !ix.writable {
		t.Error("a write left Bleve read-only")
	}
	if hits := search(t, ix, Query{Text: "tuesdays", Mode: Keyword}); len(hits) != 1 {
		t.Errorf("after reopening for writing: %d hits, want 1", len(hits))
	}
}
