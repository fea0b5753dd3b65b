package tail

import (
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/cairn-mem/cairn/indexer"
	"github.com/cairn-mem/cairn/internal/mdtext"
)

// oldItemTail is Of as it was written before appendTail: the
// reference the buffer must give byte for byte.
func oldItemTail(kind string, when time.Time, year int, id, note string) string {
	var meta []string
	if kind != "" {
		meta = append(meta, kind)
	}
	if !when.IsZero() && when.Year() == year {
		meta = append(meta, when.Format("Jan 2"))
	} else if !when.IsZero() {
		meta = append(meta, when.Format(time.DateOnly))
	}
	meta = append(meta, "id "+Ref(id))
	if note != "" {
		meta = append(meta, note)
	}
	return " (" + strings.Join(meta, ", ") + ")\n"
}

// An item's tail and its shortest entry's tokens, made in one buffer, are
// what the strings made: titles with every kind of space (Unicode's too),
// dates of any year and zone, ids valid or not, with a note or none.
func TestLeastTokens(t *testing.T) {
	east := time.FixedZone("east", 14*3600)
	titles := []string{
		"", " ", "Use PostgreSQL for the job queue", "  leading and trailing  ", "tabs\tand\nnewlines\r\nin\vit\fall",
		"many    spaces", "non\u00a0breaking space", "em\u2003space and\u3000ideographic", "naïve café", "a…", "**bold** `code`",
		"x", "\n", "API server on port 8080: moved to 4101",
	}
	whens := []time.Time{
		{}, time.Date(2026, 12, 3, 10, 0, 0, 0, time.UTC), time.Date(2026, 12, 31, 23, 0, 0, 0, east),
		time.Date(0, 1, 1, 0, 0, 0, 0, time.UTC), time.Date(9999, 12, 31, 0, 0, 0, 0, time.UTC), time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC),
		time.Date(-1, 6, 15, 0, 0, 0, 0, time.UTC), time.Date(999, 2, 3, 0, 0, 0, 0, time.UTC), time.Date(2026, 1, 9, 0, 0, 0, 0, time.Local),
	}
	ids := []string{"01JDXK3V9M2Q7Y8Z4T6R5W0001", "01jdxk3v9m2q7y8z4t6r5w0001", "core/notes/x.md", "", "ZZJDXK3V9M2Q7Y8Z4T6R5W0001"}
	kinds := []string{"", "decision", "fact"}
	notes := []string{"", "stale: the code changed"}
	check := func(title, kind string, when time.Time, id, note string) {
		t.Helper()
		for _, year := range []int{2026, when.Year()} {
			tail := oldItemTail(kind, when, year, id, note)
			if got := Of(kind, when, year, id, note); got != tail {
				t.Errorf("Of(%q, %v, %d, %q, %q) = %q, want %q", kind, when, year, id, note, got, tail)
			}
			want := indexer.EstimateTokens("- **" + mdtext.OneLine(title) + "**" + tail)
			if got := LeastTokens(title, kind, when, year, id, note); got != want {
				t.Errorf("LeastTokens(%q, %q, %v, %d, %q, %q) = %d, want %d", title, kind, when, year, id, note, got, want)
			}
		}
	}
	for _, title := range titles {
		for _, when := range whens {
			for _, id := range ids {
				for _, kind := range kinds {
					for _, note := range notes {
						check(title, kind, when, id, note)
					}
				}
			}
		}
	}
	// Random titles of words, spaces and punctuation, and random days.
	rng := rand.New(rand.NewPCG(1, 2))
	parts := []string{"a", "word", "Longerwordhere", "42", "x-y", ":", "…", " ", "  ", "\t", "\n", "é", "\u2003", "**", "(", ")", "8080"}
	for range 5000 {
		var b strings.Builder
		for range rng.IntN(12) {
			b.WriteString(parts[rng.IntN(len(parts))])
		}
		when := time.Unix(rng.Int64N(1<<34)-1<<33, 0).In(east)
		check(b.String(), kinds[rng.IntN(len(kinds))], when, ids[rng.IntN(len(ids))], notes[rng.IntN(len(notes))])
	}
}

// A title longer than LeastTokens' buffer is measured whole.
func TestLeastTokensLong(t *testing.T) {
	title := strings.Repeat("a long title of many words ", 40)
	want := indexer.EstimateTokens("- **" + mdtext.OneLine(title) + "**" + oldItemTail("fact", time.Time{}, 2026, "x", ""))
	if got := LeastTokens(title, "fact", time.Time{}, 2026, "x", ""); got != want {
		t.Errorf("LeastTokens = %d, want %d", got, want)
	}
}

func BenchmarkLeastTokens(b *testing.B) {
	when := time.Date(2026, 12, 3, 10, 0, 0, 0, time.UTC)
	title := "Use PostgreSQL for the job queue: it is already deployed and jobs survive restarts"
	b.Run("strings", func(b *testing.B) {
		for b.Loop() {
			indexer.EstimateTokens("- **" + mdtext.OneLine(title) + "**" + oldItemTail("decision", when, 2026, "01JDXK3V9M2Q7Y8Z4T6R5W0001", ""))
		}
	})
	b.Run("buffer", func(b *testing.B) {
		for b.Loop() {
			LeastTokens(title, "decision", when, 2026, "01JDXK3V9M2Q7Y8Z4T6R5W0001", "")
		}
	})
}
