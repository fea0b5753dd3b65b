package recall

import (
	"context"
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

// TestPromptMemoriesQuiet checks that the per-prompt hook says nothing
// about a prompt on something the memory never stored, and names the
// memory a related prompt is about.
func TestPromptMemoriesQuiet(t *testing.T) {
	m := projectMemory(t)
	x := mustOpenIndex(t, m)
	ctx := context.Background()
	for _, q := range []string{"set up kafka consumer group rebalancing", "what colour should the logo be"} {
		if got, err := PromptMemories(ctx, x, q, 3); err != nil || got != "" {
			t.Errorf("%q: %v\n%s", q, err, got)
		}
	}
	got, err := PromptMemories(ctx, x, "why were the hourly totals wrong?", 3)
	if err != nil || !strings.Contains(got, "multiplied by time.Hour") {
		t.Errorf("related prompt: %v\n%s", err, got)
	}
}
