package derived

import (
	"context"
	"crypto/sha256"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/cairn-mem/cairn/internal/memory"
)

// A cache stays under maxCache: answers that would take it over are left
// out, largest first (asked again, they are computed), and a file over
// the limit (an older cairn's) is said once and replaced by one under
// it, never taken for damaged pack after pack.
func TestCacheLimit(t *testing.T) {
	big := func(n, size int) map[string]string {
		memo := map[string]string{}
		for i := range n {
			memo[fmt.Sprintf("D%d\x00body %d ", i, i)+strings.Repeat("x", size)] = strings.Repeat("y", size)
		}
		return memo
	}
	small := map[string]string{"R0\x00a title": "1", "D2\x00a body": "a body"}
	for _, tc := range []struct {
		name     string
		memo     map[string]string
		old      int // the size of the file an older cairn left, if any
		warnings int // said on the first pack
	}{
		{"small", small, 0, 0},
		{"answers over the limit", union(small, big(40, 1<<20)), 0, 0},
		{"one answer over the limit", union(small, big(1, maxCache)), 0, 0},
		{"an older file over the limit", small, maxCache + 1, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var said []string
			m, _, err := memory.Init(context.Background(), t.TempDir(), memory.Options{Warn: func(s string) { said = append(said, s) }, Identity: memory.Identity{Name: "Test", Email: "test@example.com"}})
			if err != nil {
				t.Fatal(err)
			}
			defer m.Close()
			key := sha256.Sum256([]byte(tc.name))
			if tc.old > 0 {
				old := append([]byte(magic), key[:]...)
				old = append(old, make([]byte, tc.old-len(old))...)
				if err := os.WriteFile(m.StatePath(File), old, 0o600); err != nil {
					t.Fatal(err)
				}
			}
			for pack := range 2 {
				c := &Retirer{key: key, memo: readCache(m, File, key), traces: map[string]traced{}}
				if pack == 0 {
					if len(said) != tc.warnings || tc.warnings > 0 && !strings.Contains(said[0], "over its 64 MiB limit") {
						t.Errorf("said %q, want %d lines on the limit", said, tc.warnings)
					}
					c.memo = tc.memo // the answers this pack computed
					c.added = 1
					c.Save(m)
				} else if len(said) != tc.warnings {
					t.Errorf("the second pack said %q", said[tc.warnings:])
				}
				fi, err := os.Stat(m.StatePath(File))
				if err != nil {
					t.Fatal(err)
				}
				if fi.Size() > maxCache {
					t.Fatalf("%s is %d bytes, over %d", File, fi.Size(), maxCache)
				}
				if pack == 1 {
					for k, v := range small {
						if c.memo[k] != v {
							t.Errorf("answer %q: %q, want %q", k, c.memo[k], v)
						}
					}
				}
			}
		})
	}
}

func union(a, b map[string]string) map[string]string {
	out := map[string]string{}
	for k, v := range a {
		out[k] = v
	}
	for k, v := range b {
		out[k] = v
	}
	return out
}
