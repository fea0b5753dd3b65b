package recall

import (
	"strings"
	"testing"
	"time"
)

func TestDiversify(t *testing.T) {
	hit := func(id, session, layer string, score float64, text string) SearchHit {
		return SearchHit{ID: id, Session: session, Layer: layer, Score: score, Text: text}
	}
	story := "Maya moved to Rotterdam in October and bought a green bike on Marktplaats for ninety euros"
	tests := []struct {
		name   string
		lambda float64
		hits   []SearchHit
		want   string
	}{
		{"λ 1 keeps the order", 1, []SearchHit{
			hit("a", "s1", "active", 1, story), hit("b", "s1", "active", 0.9, story), hit("c", "s2", "active", 0.8, "the marathon in April"),
		}, "a b c"},
		{"a repeated text gives way", 0.8, []SearchHit{
			hit("a", "s1", "active", 1, story), hit("b", "s3", "active", 0.95, story), hit("c", "s2", "active", 0.9, "the marathon in April"),
		}, "a c b"},
		{"another session comes before another file of the same", 0.8, []SearchHit{
			hit("a", "s1", "active", 1, story), hit("b", "s1", "active", 0.95, "Tom ran ten miles on Sunday"), hit("c", "s2", "active", 0.9, "the marathon in April"),
		}, "a c b"},
		{"core items of one session are each their own", 0.8, []SearchHit{
			hit("a", "s1", "core", 1, story), hit("b", "s1", "core", 0.95, "Tom ran ten miles on Sunday"), hit("c", "s2", "core", 0.9, "the marathon in April"),
		}, "a b c"},
		{"a repeat goes after what is new", 0.8, []SearchHit{
			hit("a", "s1", "active", 1, story), hit("b", "s2", "active", 0.95, "Maya moved to Rotterdam in October"), hit("c", "s3", "active", 0.4, "the marathon in April"),
		}, "a c b"},
		{"a much better hit stays ahead", 0.8, []SearchHit{
			hit("a", "s1", "active", 1, story), hit("b", "s1", "active", 0.9, "Tom ran ten miles on Sunday"), hit("c", "s2", "active", 0.3, "the marathon in April"),
		}, "a b c"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			hits := append([]SearchHit(nil), tt.hits...)
			Diversify(hits, tt.lambda)
			var got []string
			for _, h := range hits {
				got = append(got, h.ID)
			}
			if g := strings.Join(got, " "); g != tt.want {
				t.Errorf("order %s, want %s", g, tt.want)
			}
		})
	}
}

func TestFavourDates(t *testing.T) {
	day := func(y int, m time.Month, d int) *time.Time {
		t := time.Date(y, m, d, 12, 0, 0, 0, time.UTC)
		return &t
	}
	hits := func() []SearchHit {
		return []SearchHit{
			{ID: "march", Layer: "active", Score: 1, Created: day(2025, 3, 2)},
			{ID: "may", Layer: "active", Score: 0.8, Created: day(2025, 5, 12)},
			// Made at ingest, after every session: not the reference.
			{ID: "core", Layer: "core", Score: 0.7, Created: day(2026, 11, 1)},
			{ID: "june", Layer: "active", Score: 0.5, Created: day(2025, 6, 20)},
		}
	}
	tests := []struct{ query, want string }{
		{"what did they eat", "march may core june"},
		{"what did they eat in May", "may march core june"},
		// Six weeks before the newest session (June 20), not today.
		{"what happened six weeks ago", "may march core june"},
		{"what happened last summer", "march may core june"},
	}
	for _, tt := range tests {
		h := hits()
		favourDates(h, tt.query)
		var got []string
		for _, x := range h {
			got = append(got, x.ID)
		}
		if g := strings.Join(got, " "); g != tt.want {
			t.Errorf("%q: %s, want %s", tt.query, g, tt.want)
		}
	}
}
