package model

import (
	"slices"
	"strings"
	"testing"
	"time"
)

func TestNewID(t *testing.T) {
	t.Parallel()
	at := time.Date(2026, 11, 30, 5, 43, 0, 0, time.UTC)
	seen := make(map[string]bool)
	var ids []string
	for i := range 1000 {
		id := NewID(at.Add(time.Duration(i) * time.Millisecond))
		if !ValidID(id) {
			t.Fatalf("NewID() = %q, not valid", id)
		}
		if seen[id] {
			t.Fatalf("NewID() repeated %q", id)
		}
		seen[id] = true
		ids = append(ids, id)
	}
	if !slices.IsSorted(ids) {
		t.Errorf("ids made at increasing times do not sort in that order")
	}
	if got, ok := idTime(ids[0]); !ok || !got.Equal(at) {
		t.Errorf("idTime(NewID(%v)) = %v, %v", at, got, ok)
	}
	// Same millisecond: still unique.
	a, b := NewID(at), NewID(at)
	if a == b || a[:10] != b[:10] {
		t.Errorf("NewID twice at the same time = %q, %q; want same time part, different ids", a, b)
	}
	// Out-of-range times are clamped, not rejected.
	for _, tm := range []time.Time{{}, time.Date(1900, 1, 1, 0, 0, 0, 0, time.UTC), time.Date(20000, 1, 1, 0, 0, 0, 0, time.UTC)} {
		if id := NewID(tm); !ValidID(id) {
			t.Errorf("NewID(%v) = %q, not valid", tm, id)
		}
	}
}

func TestValidID(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in   string
		want bool
	}{
		{"01JDXK3V9M2Q7Y8Z4T6R5W1HBC", true},
		{"7ZZZZZZZZZZZZZZZZZZZZZZZZZ", true},
		{"00000000000000000000000000", true},
		{"01jdxk3v9m2q7y8z4t6r5w1hbc", false}, // not canonical
		{"01JDXK3V9M2Q7Y8Z4T6R5W1HB", false},
		{"01JDXK3V9M2Q7Y8Z4T6R5W1HBCD", false},
		{"01JDXK3V9M2Q7Y8Z4T6R5W1HBI", false}, // I is not Crockford
		{"01JDXK3V9M2Q7Y8Z4T6R5W1HBU", false},
		{"8ZZZZZZZZZZZZZZZZZZZZZZZZZ", false}, // overflows 128 bits
		{"", false},
		{"../../../../../etc/passwd", false},
	}
	for _, tt := range tests {
		if got := ValidID(tt.in); got != tt.want {
			t.Errorf("ValidID(%q) = %v, want %v", tt.in, got, tt.want)
		}
	}
}

func TestIDFromPath(t *testing.T) {
	t.Parallel()
	const id = "01JDXK3V9M2Q7Y8Z4T6R5W1HBC"
	tests := []struct {
		in   string
		want string
	}{
		{"core/decisions/use-postgresql--" + id + ".md", id},
		{"use-postgresql--" + id + ".md", id},
		{id + ".md", id},
		{"a--b--" + id + ".md", id},
		{`C:\memory\core\facts\x--` + id + ".md", id},
		{"x--" + strings.ToLower(id) + ".md", id},
		{"core/decisions/use-postgresql--" + id, ""},
		{"core/decisions/use-postgresql--" + id + ".md.tmp", ""},
		{"core/decisions/use-postgresql-" + id + ".md", ""},
		{"core/decisions/use-postgresql--" + id + ".conflict.md", ""},
		{"core/" + id + "/x.md", ""},
		{"", ""},
		{".md", ""},
	}
	for _, tt := range tests {
		got, ok := IDFromPath(tt.in)
		if got != tt.want || ok != (tt.want != "") {
			t.Errorf("IDFromPath(%q) = %q, %v; want %q", tt.in, got, ok, tt.want)
		}
	}
}

func TestFileNameRoundTrip(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 11, 30, 5, 43, 0, 0, time.UTC)
	for _, title := range []string{"Use PostgreSQL for the job queue", "", "--", "x--y", "../../etc", "日本語"} {
		it := NewItem(Decision, title, now)
		p := it.Path()
		if !strings.HasPrefix(p, "core/decisions/") || strings.Contains(p[len("core/decisions/"):], "/") {
			t.Errorf("Path() = %q for title %q", p, title)
		}
		if got, ok := IDFromPath(p); !ok || got != it.ID {
			t.Errorf("IDFromPath(%q) = %q, %v; want %q", p, got, ok, it.ID)
		}
	}
}
