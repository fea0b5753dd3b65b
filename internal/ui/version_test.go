package ui

import (
	"runtime/debug"
	"testing"
)

func TestVersion(t *testing.T) {
	settings := func(kv ...string) []debug.BuildSetting {
		var out []debug.BuildSetting
		for i := 0; i+1 < len(kv); i += 2 {
			out = append(out, debug.BuildSetting{Key: kv[i], Value: kv[i+1]})
		}
		return out
	}
	for _, tc := range []struct {
		name string
		bi   *debug.BuildInfo
		want string
	}{
		{"go install of a release", &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "v0.3.0"},
			Settings: settings("GOOS", "linux", "GOARCH", "amd64", "CGO_ENABLED", "0")},
			"cairn v0.3.0, go1.26.8 linux/amd64"},
		{"a checkout", &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "v0.0.0-20261201235000-8259b59c1234"},
			Settings: settings("GOOS", "darwin", "GOARCH", "arm64", "vcs", "git", "vcs.revision", "8259b59c12345678deadbeef", "vcs.time", "2026-12-01T23:50:00Z", "vcs.modified", "true")},
			"cairn v0.0.0-20261201235000-8259b59c1234, commit 8259b59c1234 of 2026-12-01T23:50:00Z with local changes, go1.26.8 darwin/arm64"},
		{"no version", &debug.BuildInfo{GoVersion: "go1.26.8"}, "cairn (devel), go1.26.8"},
		{"no build information", nil, "cairn (devel), no build information"},
	} {
		if got := Version(tc.bi); got != tc.want {
			t.Errorf("%s:\n got %q\nwant %q", tc.name, got, tc.want)
		}
	}
}
