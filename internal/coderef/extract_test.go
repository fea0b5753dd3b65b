package coderef

import (
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestExtract(t *testing.T) {
	t.Parallel()
	tests := []struct {
		text string
		want []Candidate
	}{
		{"plain words only, nothing here. Really.", nil},
		{"see `internal/queue/retry.go`", []Candidate{{Path: "internal/queue/retry.go", Quoted: true}}},
		{"in retry.go:123, and `./cmd/main.go:7:2`", []Candidate{
			{Path: "cmd/main.go", Line: 7, Quoted: true},
			{Path: "retry.go", Line: 123, Quoted: true},
		}},
		{"`Retry()` and `queue.Backoff` and `Queue::drain`", []Candidate{
			{Symbol: "Retry", Quoted: true},
			{Symbol: "Backoff", Quoted: true},
			{Symbol: "drain", Quoted: true},
		}},
		{"we call newQueue and retry_policy, not Queue or queue", []Candidate{{Symbol: "newQueue"}, {Symbol: "retry_policy"}}},
		{"the folder internal/queue/ holds it.", []Candidate{{Path: "internal/queue"}}},
		{"a URL https://example.com/a.go is not a path", nil},
		{"`../x.go` and `/etc/passwd`", []Candidate{{Path: "../x.go", Quoted: true}, {Path: "/etc/passwd", Quoted: true}}},
		{"`go test ./...` is a command", nil},
		{"e.g. this, i.e. that, 1/2 of it", nil},
	}
	for _, tt := range tests {
		got := Extract(tt.text)
		sortCands(got)
		sortCands(tt.want)
		if !slices.Equal(got, tt.want) {
			t.Errorf("Extract(%q):\n got %+v\nwant %+v", tt.text, got, tt.want)
		}
	}
}

func sortCands(cs []Candidate) {
	slices.SortFunc(cs, func(a, b Candidate) int {
		return strings.Compare(a.Path+"\x00"+a.Symbol, b.Path+"\x00"+b.Symbol)
	})
}

// The extractor takes any text: it never panics, yields a bounded list
// of clean candidates, and none twice.
func FuzzExtract(f *testing.F) {
	for _, s := range []string{
		"see `internal/queue/retry.go:12` and `Backoff()`",
		"`../../etc/passwd` /abs/path.go newQueue retry_policy",
		"``` code ```", "`", "a.b.c.d:1:2:3", "x:99999999999", "\x00`\xff`",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		cs := Extract(s)
		if len(cs) > maxCandidates {
			t.Fatalf("%d candidates", len(cs))
		}
		seen := make(map[Candidate]bool)
		for _, c := range cs {
			if seen[c] {
				t.Fatalf("%+v twice", c)
			}
			seen[c] = true
			if (c.Path == "") == (c.Symbol == "") {
				t.Fatalf("%+v: a path or a symbol, not both nor neither", c)
			}
			if c.Symbol != "" && !ident.MatchString(c.Symbol) {
				t.Fatalf("symbol %q is no identifier", c.Symbol)
			}
			if c.Line < 0 || (c.Line > 0 && c.Path == "") {
				t.Fatalf("%+v: bad line", c)
			}
			if c.Path != "" && (strings.ContainsAny(c.Path, " \t\n`") || !utf8.ValidString(c.Path)) {
				t.Fatalf("path %q", c.Path)
			}
		}
	})
}
