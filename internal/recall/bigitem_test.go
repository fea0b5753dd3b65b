package recall

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/cairn-mem/cairn/internal/digest"
	"github.com/cairn-mem/cairn/internal/model"
	"github.com/cairn-mem/cairn/internal/recall/derived"
)

// A big item's entry is made from its body's first part alone
// (digest.FirstPart): the pack of a memory holding it equals the pack of
// one holding only that part, and what the pack keeps of it (its caches)
// is as small. The rest is read by neither.
func TestBigItemPackedFromFirstPart(t *testing.T) {
	ctx := context.Background()
	const size = 4 << 20 // far over digest.MaxBodyBytes
	lines := func(line func(i int) string) string {
		var b strings.Builder
		for i := 0; b.Len() < size; i++ {
			b.WriteString(line(i))
		}
		return b.String()
	}
	for _, tc := range []struct {
		name, title, body string
		shows             string // what the entry shows of the body
	}{
		{"prose", "Worker notes", "The worker retries a job three times. It waits a minute between tries, then marks the job failed.\n\n" +
			lines(func(i int) string {
				return fmt.Sprintf("Batch %d was claimed by worker %d and finished in %d ms. ", i, i%7, 100+i%900)
			}), "The worker retries a job three times."},
		{"pasted log", "Deploy log", lines(func(i int) string {
			return fmt.Sprintf("2025-01-%02d 12:%02d:%02d INFO worker[%d]: claimed job %d\n", i%28+1, i%60, i%60, i, i)
		}), ""},
		{"one line", "Dump", "Keys of the dump: " + lines(func(i int) string { return fmt.Sprintf("key%d=value%d ", i, i) }), ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			part, cut := digest.FirstPart(tc.body, digest.MaxBodyBytes)
			if !cut {
				t.Fatal("the body is not cut")
			}
			pack := func(body string) (string, int64) {
				t.Helper()
				m, w := newTestMemory(t)
				it := model.NewItem(model.Note, tc.title, time.Date(2026, 3, 3, 10, 0, 0, 0, time.UTC))
				it.ID, it.Body = "01JQ0000000000000000000001", body
				data, err := it.Marshal()
				if err != nil {
					t.Fatal(err)
				}
				writeFiles(t, m, map[string]string{it.Path(): string(data)})
				p, err := Context(ctx, m, ContextOptions{Budget: 2000})
				if err != nil {
					t.Fatal(err)
				}
				if l := w.take(); len(l) != 0 {
					t.Errorf("warnings: %q", l)
				}
				var kept int64
				for _, name := range []string{derived.File, derived.TodoFile, derived.TraceFile, derived.ReadingsFile} {
					if fi, err := os.Stat(m.StatePath(name)); err == nil {
						kept += fi.Size()
					}
				}
				return p.Text, kept
			}
			whole, keptWhole := pack(tc.body)
			first, keptFirst := pack(part)
			if whole != first {
				t.Errorf("the pack of the big item:\n%s\ndiffers from that of its first part:\n%s", whole, first)
			}
			if !strings.Contains(whole, "**"+tc.title) || !strings.Contains(whole, tc.shows) {
				t.Errorf("the pack does not show the item:\n%s", whole)
			}
			// The caches hold the first part's answers, never the
			// megabytes after it.
			if keptWhole > size/4 || keptWhole > keptFirst+4096 {
				t.Errorf("the caches hold %d bytes for the big item, %d for its first part", keptWhole, keptFirst)
			}
		})
	}
}
