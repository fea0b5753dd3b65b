package gitstore

import (
	"os"
	"testing"
)

// A stale socket is no monitor: the checkpoint scans everything.
func TestMonitorGoneMeansFullScan(t *testing.T) {
	s := newStore(t, map[string]string{"a.md": "a\n"})
	// A stale socket of a monitor that died.
	os.WriteFile(s.StatePath(MonitorSocket), nil, 0o600)
	write(t, s, "a.md", "changed\n")
	if _, err := checkpoint(t, s, CheckpointOptions{}); err != nil {
		t.Fatal(err)
	}
	if s.Scanned() != 2 {
		t.Errorf("scan looked at %d files, want 2", s.Scanned())
	}
}
