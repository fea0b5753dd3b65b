package main

import (
	"runtime/debug"
	"testing"
)

// TestBuildGCSettles: a build that began at a short command's opening GC
// percent does not put that percent back for the rest of the command;
// a daemon's own setting is put back as it was.
func TestBuildGCSettles(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	g := &globals{getenv: func(string) string { return "not-empty" }} // GOMEMLIMIT "set": no limit touched
	for _, tc := range []struct{ before, want int }{{shortGCPercent, commandGCPercent}, {100, 100}} {
		debug.SetGCPercent(tc.before)
		g.buildGC()()
		if got := debug.SetGCPercent(tc.before); got != tc.want {
			t.Errorf("after a build begun at GC percent %d: %d, want %d", tc.before, got, tc.want)
		}
	}
}
