package gitstore

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/cairn-mem/cairn/gitstore/internal/statcache"
)

func TestApplyChanges(t *testing.T) {
	for _, n := range []int{3, 200} { // in place, and merged
		var base statcache.Cache
		for i := 0; i < 500; i += 2 {
			base.Entries = append(base.Entries, statcache.Entry{Path: pathN(i)})
		}
		sortEntries(base.Entries)
		var changes []change
		want := map[string]bool{}
		for _, e := range base.Entries {
			want[e.Path] = true
		}
		for k := 0; k < n; k++ {
			i := (k * 7) % 500
			p := pathN(i)
			switch {
			case want[p] && k%2 == 0:
				changes = append(changes, change{FileChange: FileChange{p, Deleted}})
				delete(want, p)
			case want[p]:
				changes = append(changes, change{FileChange: FileChange{p, Modified}, e: statcache.Entry{Path: p, Mode: 1}})
			default:
				changes = append(changes, change{FileChange: FileChange{p, Added}, e: statcache.Entry{Path: p}})
				want[p] = true
			}
		}
		sortChanges(changes)
		changes = slices.CompactFunc(changes, func(a, b change) bool { return a.Path == b.Path })
		applyChanges(&base, changes)
		if len(base.Entries) != len(want) {
			t.Errorf("n=%d: %d entries, want %d", n, len(base.Entries), len(want))
		}
		for i, e := range base.Entries {
			if !want[e.Path] || i > 0 && base.Entries[i-1].Path >= e.Path {
				t.Fatalf("n=%d: bad entry %d %q", n, i, e.Path)
			}
		}
	}
}

func pathN(i int) string { return fmt.Sprintf("d%d/f%03d.md", i%7, i) }

// Item 9 of issue 12: a process that moved the branch but never wrote
// .git/index (killed, or deferring it) leaves git status showing a staged
// deletion and an untracked copy; RepairIndex, which every command calls
// when it opens the memory, puts the index right without the lock's
// holder or a new commit.
func TestRepairIndexAfterKill(t *testing.T) {
	s := newStore(t, map[string]string{"core/a.md": "a\n"})
	killed, err := Open(context.Background(), s.Dir(), Options{DeferIndex: true})
	if err != nil {
		t.Fatal(err)
	}
	write(t, killed, "core/b.md", "b\n")
	if _, err := checkpoint(t, killed, CheckpointOptions{}); err != nil {
		t.Fatal(err)
	}
	// killed never flushes, as if killed after moving the branch.
	if st := gitCLI(t, s.Dir(), "status", "--porcelain"); !strings.Contains(st, "D  core/b.md") {
		t.Fatalf("setup: the index does not lag:\n%s", st)
	}
	other, err := Open(context.Background(), s.Dir(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := other.RepairIndex(context.Background()); err != nil {
		t.Fatal(err)
	}
	checkGit(t, other)
	// Nothing lags now: a second call writes nothing.
	fi, _ := os.Stat(filepath.Join(s.Dir(), ".git", "index"))
	time.Sleep(10 * time.Millisecond)
	if err := other.RepairIndex(context.Background()); err != nil {
		t.Fatal(err)
	}
	if fi2, _ := os.Stat(filepath.Join(s.Dir(), ".git", "index")); !fi2.ModTime().Equal(fi.ModTime()) {
		t.Error("RepairIndex rewrote an index that did not lag")
	}
	// A holder of the lock is left alone: it writes the index itself.
	unlock, err := killed.Lock(context.Background(), time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer unlock()
	if err := other.RepairIndex(context.Background()); err != nil {
		t.Errorf("RepairIndex with the lock held: %v", err)
	}
}
