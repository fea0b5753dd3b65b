package recall

import (
	"strings"
	"testing"
)

func TestCapChars(t *testing.T) {
	long := strings.Repeat("line of memory ü\n", 2000)
	got := CapChars(long, 9500)
	if n := len([]rune(got)); n > 9500 || n < 9000 || !strings.HasSuffix(got, "(cut to fit; cairn context prints it whole)") {
		t.Errorf("%d runes, ends %q", n, got[len(got)-60:])
	}
	if CapChars("short", 10) != "short" {
		t.Error("short text changed")
	}
	one := strings.Repeat("é", 20000) // no line end to cut at
	if n := len([]rune(CapChars(one, 9500))); n > 9500 {
		t.Errorf("%d runes", n)
	}
}
