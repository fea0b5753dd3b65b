package mdtext

import "testing"

func TestCut(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in   string
		n    int
		want string
	}{
		{"short", 10, "short"},
		{"jobs are claimed with SKIP LOCKED", 20, "jobs are claimed…"},
		{"ünïcödé wörds cut here", 12, "ünïcödé…"},
		{"nospacesatallinthisone", 8, "nospace…"},
		{"trailing, comma here", 10, "trailing…"},
	}
	for _, tt := range tests {
		if got := Cut(tt.in, tt.n); got != tt.want {
			t.Errorf("Cut(%q, %d) = %q, want %q", tt.in, tt.n, got, tt.want)
		}
	}
}

func TestCode(t *testing.T) {
	t.Parallel()
	tests := map[string]string{
		"":          "``",
		"go test":   "`go test`",
		"a`b":       "``a`b``",
		"`quoted`":  "`` `quoted` ``",
		"x ``y`` z": "```x ``y`` z```",
	}
	for in, want := range tests {
		if got := Code(in); got != want {
			t.Errorf("Code(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestSmallRules(t *testing.T) {
	t.Parallel()
	if got := OneLine(" a \n\tb  c\n"); got != "a b c" {
		t.Errorf("OneLine = %q", got)
	}
	if got := Plural(1, "file"); got != "1 file" {
		t.Errorf("Plural(1) = %q", got)
	}
	if got := Plural(3, "file"); got != "3 files" {
		t.Errorf("Plural(3) = %q", got)
	}
	if got := Prefixed(" (", "x", ")"); got != " (x)" {
		t.Errorf("Prefixed = %q", got)
	}
	if got := Prefixed(" (", "", ")"); got != "" {
		t.Errorf("Prefixed of empty = %q", got)
	}
	if got := Truncate("abcdef", 3); got != "abc…" {
		t.Errorf("Truncate = %q", got)
	}
}
