package follow

import (
	"strings"
	"testing"
)

// ClaudeProjectName gives the folder name Claude Code gives a project
// under ~/.claude/projects. The wanted names are what Claude Code's own
// function (path.replace(/[^a-zA-Z0-9]/g, "-"), cut at 200 with a hash)
// returns for each path, run in Node.
func TestClaudeProjectName(t *testing.T) {
	long := "/work/" + strings.Repeat("a-long_folder.name/", 12) + "end"
	for _, tc := range []struct{ path, want string }{
		{"/home/dev/src/tidepool", "-home-dev-src-tidepool"},
		{"/home/dev/my_proj.v2/a b", "-home-dev-my-proj-v2-a-b"},
		// One "-" per UTF-16 code unit: two for an emoji, one per letter
		// of Cyrillic (not one per byte of UTF-8).
		{"/tmp/Проект/😀x", "-tmp----------x"},
		{`C:\Users\me\proj`, "C--Users-me-proj"},
		// Past 200: cut, and a hash of the path in base 36.
		{long, "-work" + strings.Repeat("-a-long-folder-name", 10) + "-a-lo-msl87g"},
		{"/home/dev/" + strings.Repeat("x", 300), "-home-dev-" + strings.Repeat("x", 190) + "-ksqg4b"},
		// A hash below zero is taken as its absolute value.
		{"/home/dev/" + strings.Repeat("y", 201), "-home-dev-" + strings.Repeat("y", 190) + "-u6qzia"},
	} {
		if got := ClaudeProjectName(tc.path); got != tc.want {
			t.Errorf("ClaudeProjectName(%q)\n = %q\nwant %q", tc.path, got, tc.want)
		}
	}
}
