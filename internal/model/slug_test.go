package model

import (
	"strings"
	"testing"
)

func TestSlug(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in, want string
	}{
		{"Use PostgreSQL for the job queue", "use-postgresql-for-the-job-queue"},
		{"  Leading and trailing  ", "leading-and-trailing"},
		{"Café Œuvre — naïve façade", "cafe-oeuvre-naive-facade"},
		{"Straße Ærø Łódź", "strasse-aero-lodz"},
		{"Don't use `rm -rf /`", "dont-use-rm-rf"},
		{"It’s fine", "its-fine"},
		{"v2.6.3: bleve upgrade", "v2-6-3-bleve-upgrade"},
		{"../../etc/passwd", "etc-passwd"},
		{".hidden", "hidden"},
		{"a--b", "a-b"},
		{"", "item"},
		{"   ", "item"},
		{"---", "item"},
		{"日本語のタイトル", "item"},
		{"Ünïcode 日本 mixed", "unicode-mixed"},
		{"ÀÉÎÕÜ", "aeiou"},
		// Cut at a word boundary at 50 bytes.
		{"one two three four five six seven eight nine ten eleven twelve", "one-two-three-four-five-six-seven-eight-nine-ten"},
		{strings.Repeat("a", 60) + " b", strings.Repeat("a", 50)},
		{strings.Repeat("ab ", 30), strings.TrimSuffix(strings.Repeat("ab-", 16), "-") + "-ab"},
	}
	for _, tt := range tests {
		if got := Slug(tt.in); got != tt.want {
			t.Errorf("Slug(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func checkSlug(t *testing.T, title, s string) {
	t.Helper()
	switch {
	case s == "":
		t.Errorf("Slug(%q) is empty", title)
	case len(s) > maxSlugLen:
		t.Errorf("Slug(%q) = %q, longer than %d", title, s, maxSlugLen)
	case strings.HasPrefix(s, "."), strings.HasPrefix(s, "-"), strings.HasSuffix(s, "-"):
		t.Errorf("Slug(%q) = %q starts or ends badly", title, s)
	case strings.Contains(s, "/"), strings.Contains(s, ".."), strings.Contains(s, "--"):
		t.Errorf("Slug(%q) = %q holds a separator", title, s)
	}
	for _, r := range s {
		if !('a' <= r && r <= 'z' || '0' <= r && r <= '9' || r == '-') {
			t.Errorf("Slug(%q) = %q holds %q", title, s, r)
			break
		}
	}
}

func FuzzSlug(f *testing.F) {
	for _, s := range []string{"", "Use PostgreSQL", "../..", ".x", "Café", "ß", strings.Repeat("x ", 40), "\xff\xfe", "a/b\\c"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, title string) {
		s := Slug(title)
		checkSlug(t, title, s)
		if again := Slug(s); again != s {
			t.Errorf("Slug(Slug(%q)) = %q, want %q", title, again, s)
		}
	})
}
