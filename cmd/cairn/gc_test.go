package main

import (
	"runtime/debug"
	"strings"
	"testing"

	"github.com/cairn-mem/cairn/internal/shortheap"
)

// TestBuildGCSettles: a build that began at a short command's opening GC
// percent does not put that percent back for the rest of the command;
// a daemon's own setting is put back as it was.
func TestBuildGCSettles(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	g := &globals{getenv: func(string) string { return "not-empty" }} // GOMEMLIMIT "set": no limit touched
	for _, tc := range []struct{ before, want int }{{shortheap.ShortGCPercent, shortheap.CommandGCPercent}, {100, 100}} {
		debug.SetGCPercent(tc.before)
		g.buildGC()()
		if got := debug.SetGCPercent(tc.before); got != tc.want {
			t.Errorf("after a build begun at GC percent %d: %d, want %d", tc.before, got, tc.want)
		}
	}
}

// TestShortCommand: the heap is put in huge pages for the commands that
// read much and exit, and for no long-running one.
func TestShortCommand(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want bool
	}{
		{[]string{"context"}, true},
		{[]string{"-C", "x", "context", "--budget-tokens", "600"}, true},
		{[]string{"hook", "session-start"}, true},
		{[]string{"hook", "--agent", "codex", "user-prompt-submit"}, true},
		{[]string{"hook", "post-tool-use"}, false},
		{[]string{"session", "list"}, true},
		{[]string{"daemon", "run"}, false},
		{[]string{"mcp"}, false},
		{[]string{"reindex"}, false},
		{[]string{"version"}, false},
		{nil, false},
	} {
		cmd, rest, err := newRootCommand(&globals{}).Find(tc.args)
		if err != nil {
			t.Fatalf("%v: %v", tc.args, err)
		}
		path := strings.Fields(cmd.CommandPath())
		if got := len(path) > 1 && shortheap.Reads(path[1], rest); got != tc.want {
			t.Errorf("Reads(%v) = %v, want %v", tc.args, got, tc.want)
		}
	}
}
