package gitstore

import (
	"fmt"
	"slices"
	"testing"

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
