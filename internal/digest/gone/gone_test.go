package gone

import (
	"slices"
	"testing"
)

// TestFiles: what a command took away, read from the command alone (the
// retirer's tests in package digest say what that retires).
func TestFiles(t *testing.T) {
	for _, tc := range []struct {
		cmd            string
		deleted, moved []string
		renamed        [][2]string
	}{
		{"rm ops/crontab.billing && ls ops", []string{"ops/crontab.billing"}, nil, nil},
		{"rm -rf matchmaker && mkdir -p openmatch/mmf", []string{"matchmaker"}, nil, nil},
		{"rm -rf public && hugo --minify", nil, nil, nil},
		{"git rm -r --cached data", nil, nil, nil},
		{"git mv classes/TriggerHandler.cls classes/LumenTriggerHandler.cls", nil, []string{"classes/TriggerHandler.cls"}, [][2]string{{"TriggerHandler", "LumenTriggerHandler"}}},
		{"rm -f cover.out && go test -coverprofile=cover.out ./...", nil, nil, nil},
	} {
		deleted, moved := Files(tc.cmd)
		if !slices.Equal(deleted, tc.deleted) || !slices.Equal(moved, tc.moved) {
			t.Errorf("Files(%q) = %q, %q; want %q, %q", tc.cmd, deleted, moved, tc.deleted, tc.moved)
		}
		if got := Renamed(tc.cmd); !slices.Equal(got, tc.renamed) {
			t.Errorf("Renamed(%q) = %q, want %q", tc.cmd, got, tc.renamed)
		}
	}
}
