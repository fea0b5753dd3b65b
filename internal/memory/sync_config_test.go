package memory

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

func TestSyncConfig(t *testing.T) {
	tests := []struct {
		yaml        string
		enabled     bool
		after, intv time.Duration
	}{
		{"", true, 0, 0},
		{"sync:\n  auto: false\n", false, 0, 0},
		{"sync:\n  after: 2s\n  interval: 1h\n", true, 2 * time.Second, time.Hour},
	}
	for _, tt := range tests {
		name := filepath.Join(t.TempDir(), "cairn.yaml")
		if err := os.WriteFile(name, []byte(tt.yaml), 0o644); err != nil {
			t.Fatal(err)
		}
		c, err := loadConfig(name)
		if err != nil {
			t.Fatalf("%q: %v", tt.yaml, err)
		}
		a := c.Sync.Schedule()
		if c.Sync.Enabled() != tt.enabled || a.After != tt.after || a.Interval != tt.intv {
			t.Errorf("%q: enabled %v, schedule %+v", tt.yaml, c.Sync.Enabled(), a)
		}
	}
}
