package main

import (
	"strings"
	"testing"
)

// The demo is the README's first command: it must run the whole pipeline
// on its bundled data and leave a clean repository.
func TestDemo(t *testing.T) {
	t.Parallel()
	r := cairn(t, t.TempDir(), "", "demo")
	if r.code != 0 {
		t.Fatalf("demo: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	for _, want := range []string{
		"== Create the memory repository",
		"== Bring the baseline back",
		"new, 15 events, 2 prompts",
		"== Search the whole memory",
		"«flaky» on CI",
		"# Project memory (cairn)",
		"(git status: clean)",
	} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("demo output lacks %q:\n%s", want, r.stdout)
		}
	}
}
