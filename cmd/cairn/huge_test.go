package main

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/cairn-mem/cairn/gitstore/gitstoretest"
)

// heapPeak samples the Go heap until the returned stop is called, which
// returns the most it grew above where it started. The tests that use it
// do not run in parallel, so the heap is theirs. The collector runs more
// often meanwhile, so that the peak is of what is held more than of
// garbage not collected yet.
func heapPeak() (stop func() uint64) {
	gc := debug.SetGCPercent(20)
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	base := ms.HeapAlloc
	var peak uint64
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		tick := time.NewTicker(5 * time.Millisecond)
		defer tick.Stop()
		for {
			var ms runtime.MemStats
			runtime.ReadMemStats(&ms)
			peak = max(peak, ms.HeapAlloc)
			select {
			case <-done:
				return
			case <-tick.C:
			}
		}
	})
	return func() uint64 {
		close(done)
		wg.Wait()
		debug.SetGCPercent(gc)
		if peak < base {
			return 0
		}
		return peak - base
	}
}

// A remote's history that carries a 300 MB file is refused with one line
// naming the path and the size, before the file is read: the sync's heap
// stays far below the file's size, and nothing of that history is taken
// (issue 12, item 10). The file is sparse (zeros), so its pack is small.
func TestSyncRefusesHugeBlob(t *testing.T) {
	d := gitstoretest.StartDaemon(t)
	bare := gitstoretest.Bare(t, d.Root, "mem.git")
	url := d.URL("mem.git")
	a := project(t)
	ok(t, a, "init")
	ok(t, a, "remote", "add", "origin", url)
	ok(t, a, "sync")
	b := clone(t, url)
	before := treeOf(t, b)

	const size = 300 << 20
	work := filepath.Join(t.TempDir(), "w")
	gitc(t, d.Root, "clone", "-q", bare, work)
	os.MkdirAll(filepath.Join(work, "core", "notes"), 0o755)
	os.WriteFile(filepath.Join(work, "core", "notes", "small.md"), []byte("# small\n"), 0o644)
	f, err := os.Create(filepath.Join(work, "core", "notes", "huge.md"))
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(size); err != nil {
		t.Fatal(err)
	}
	f.Close()
	// Above core.bigFileThreshold git streams the file instead of reading
	// it whole.
	gitc(t, work, "-c", "core.bigFileThreshold=1m", "add", "-A")
	gitc(t, work, "commit", "-qm", "a huge file")
	gitc(t, work, "-c", "core.bigFileThreshold=1m", "push", "-q", "origin", "main")
	os.RemoveAll(work)

	stop := heapPeak()
	r := cairn(t, b, "", "sync")
	grew := stop()
	t.Logf("heap grew by %d MiB during the sync", grew>>20)
	if r.code != 1 {
		t.Fatalf("sync of a huge file: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	// The pack is refused while it streams in: the line names the size
	// (the path is in a tree of the same pack, not read yet).
	if lines := strings.Split(strings.TrimSpace(r.stderr), "\n"); len(lines) != 1 ||
		!strings.Contains(lines[0], "a file of 314572800 bytes") || !strings.Contains(lines[0], "sync.max_blob_bytes (16777216)") {
		t.Errorf("sync of a huge file said %q, want one line naming the size and the key", r.stderr)
	}
	if grew > 64<<20 {
		t.Errorf("the heap grew by %d MiB during the sync of a %d MiB file", grew>>20, size>>20)
	}
	unchanged := func() {
		t.Helper()
		if treeOf(t, b) != before {
			t.Error("the refused history was taken")
		}
		for _, n := range []string{"huge.md", "small.md"} {
			if _, err := os.Lstat(filepath.Join(b, ".cairn", "core", "notes", n)); err == nil {
				t.Errorf("%s was written", n)
			}
		}
		checkGit(t, b)
	}
	unchanged()

	// The objects are here already (a git fetch by hand): the merge
	// refuses the file by its path, from the size in its header.
	gitc(t, filepath.Join(b, ".cairn"), "fetch", "-q", "origin")
	stop = heapPeak()
	r = cairn(t, b, "", "sync")
	grew = stop()
	t.Logf("heap grew by %d MiB during the merge", grew>>20)
	if lines := strings.Split(strings.TrimSpace(r.stderr), "\n"); r.code != 1 || len(lines) != 1 ||
		!strings.Contains(lines[0], `"core/notes/huge.md" is 314572800 bytes, more than sync.max_blob_bytes (16777216)`) {
		t.Errorf("merge of a huge file: exit %d, said %q, want one line naming the path, the size and the key", r.code, r.stderr)
	}
	if grew > 64<<20 {
		t.Errorf("the heap grew by %d MiB during the merge of a %d MiB file", grew>>20, size>>20)
	}
	unchanged()
}

// A 60 MB Markdown file is indexed up to search.max_file_bytes (1 MiB):
// reindex reads no more of it, so its heap stays under the file's size
// (Bleve's analysis of the 1 MiB it indexes costs about 45 MiB; the whole
// file cost 60 times its size), search finds text from its first part and not from the rest, and
// the warning is said once (issue 12, item 10).
func TestReindexCapsHugeFile(t *testing.T) {
	p := project(t)
	ok(t, p, "init")
	name := filepath.Join(p, ".cairn", "core", "notes", "huge.md")
	os.MkdirAll(filepath.Dir(name), 0o755)
	f, err := os.Create(name)
	if err != nil {
		t.Fatal(err)
	}
	const size = 60 << 20
	w := bufio.NewWriterSize(f, 1<<20)
	fmt.Fprintf(w, "# Huge notes\n\nThe zanzibarquokka protocol starts here.\n\n")
	for i, n := 0, 0; n < size; i++ {
		k, _ := fmt.Fprintf(w, "Line %d of filler about caching, queues and the weather in section %d.\n", i, i/50)
		n += k
		if i%50 == 49 {
			k, _ = fmt.Fprintf(w, "\n## Section %d\n\n", i/50+1)
			n += k
		}
	}
	fmt.Fprintf(w, "\nThe tailonlyquux remark is past the limit.\n")
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	f.Close()

	stop := heapPeak()
	r := cairn(t, p, "", "reindex")
	grew := stop()
	t.Logf("heap grew by %d MiB during the reindex", grew>>20)
	if r.code != 0 {
		t.Fatalf("reindex: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if n := strings.Count(r.stderr, "core/notes/huge.md: "); n != 1 ||
		!strings.Contains(r.stderr, "only the first 1048576 are searchable (search.max_file_bytes)") {
		t.Errorf("reindex said %q, want the warning about huge.md once", r.stderr)
	}
	if grew > size {
		t.Errorf("the heap grew by %d MiB during the reindex of a %d MiB file", grew>>20, size>>20)
	}
	if out := ok(t, p, "search", "zanzibarquokka"); !strings.Contains(out, "huge.md") || !strings.Contains(out, "zanzibarquokka") {
		t.Errorf("search of the first part = %q", out)
	}
	if out := ok(t, p, "search", "tailonlyquux"); strings.Contains(out, "huge.md") {
		t.Errorf("search of the part past the limit = %q", out)
	}
	// Once per file per process: a second reindex does not say it again.
	if r := cairn(t, p, "", "reindex"); r.code != 0 || strings.Contains(r.stderr, "huge.md") {
		t.Errorf("second reindex: exit %d\n%s", r.code, r.stderr)
	}
}
