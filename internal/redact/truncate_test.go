package redact

import (
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestTruncate(t *testing.T) {
	t.Parallel()
	var lines []string
	for i := 1; i <= 1000; i++ {
		lines = append(lines, fmt.Sprintf("line %04d of the build log", i))
	}
	log := strings.Join(lines, "\n") + "\n"
	for _, tc := range []struct {
		name   string
		text   string
		limit  int
		want   []string // substrings, in order
		absent []string
	}{
		{name: "short", text: "ok\n", limit: 100, want: []string{"ok\n"}},
		{name: "exact", text: strings.Repeat("x", 200), limit: 200, want: []string{strings.Repeat("x", 200)}},
		{
			name:   "lines",
			text:   log,
			limit:  2000,
			want:   []string{"line 0001 of", "\n[... ", " lines (", " bytes) cut ...]\n", "line 1000 of the build log\n"},
			absent: []string{"line 0500 "},
		},
		{
			name:  "one long line",
			text:  strings.Repeat("abcdefghij", 1000),
			limit: 500,
			want:  []string{"abcdefghij", "\n[... 1 lines (", "bytes) cut ...]\n", "hij"},
		},
		{
			name:  "runes are not split",
			text:  strings.Repeat("é", 5000),
			limit: 300,
			want:  []string{"é\n[... 1 lines ("},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := Truncate(tc.text, tc.limit)
			if len(got) > max(tc.limit, 128) {
				t.Errorf("len %d > limit %d", len(got), tc.limit)
			}
			if !utf8.ValidString(got) && utf8.ValidString(tc.text) {
				t.Errorf("invalid UTF-8")
			}
			rest := got
			for _, w := range tc.want {
				i := strings.Index(rest, w)
				if i < 0 {
					t.Fatalf("%q missing (in order) from\n%s", w, got)
				}
				rest = rest[i+len(w):]
			}
			for _, a := range tc.absent {
				if strings.Contains(got, a) {
					t.Errorf("%q should have been cut", a)
				}
			}
		})
	}
}

// TestTruncateCounts: the marker's counts add up to what was removed.
func TestTruncateCounts(t *testing.T) {
	t.Parallel()
	text := strings.Repeat("0123456789\n", 500)
	got := Truncate(text, 1000)
	var lines, bytes int
	i := strings.Index(got, "[... ")
	if _, err := fmt.Sscanf(got[i:], "[... %d lines (%d bytes) cut ...]", &lines, &bytes); err != nil {
		t.Fatal(err)
	}
	kept := len(got) - len(got[i:strings.Index(got, "cut ...]\n")+len("cut ...]\n")])
	if kept+bytes != len(text) {
		t.Errorf("kept %d + cut %d != %d", kept, bytes, len(text))
	}
	if lines != bytes/11 {
		t.Errorf("lines %d, bytes %d", lines, bytes)
	}
}
