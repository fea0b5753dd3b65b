package recall

import (
	"strings"
	"testing"
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

func TestSketchContainment(t *testing.T) {
	a := newSketch("Maya moved to Rotterdam in October and bought a green bike")
	b := newSketch("In October Maya moved to Rotterdam")
	c := newSketch("Tom entered the Manchester marathon")
	if got := a.containment(b); got < 0.99 {
		t.Errorf("a passage within another: containment %.2f, want 1", got)
	}
	if got := a.containment(c); got > 0.3 {
		t.Errorf("unrelated texts: containment %.2f", got)
	}
	if got := a.containment(b); got < 0.99 {
		t.Errorf("a passage within another: containment %.2f, want 1", got)
	}
	if got := b.containment(a); got > 0.7 {
		t.Errorf("the shorter holds only part of the longer: containment %.2f", got)
	}
	if got := a.containment(c); got > 0.3 {
		t.Errorf("unrelated texts: containment %.2f", got)
	}
}
