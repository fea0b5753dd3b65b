package memsync

import (
	"testing"
	"time"

	"github.com/cairn-mem/cairn/internal/config"
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
		c, err := config.Parse([]byte(tt.yaml))
		if err != nil {
			t.Fatalf("%q: %v", tt.yaml, err)
		}
		a := Schedule(c.Sync)
		if c.Sync.Enabled() != tt.enabled || a.After != tt.after || a.Interval != tt.intv {
			t.Errorf("%q: enabled %v, schedule %+v", tt.yaml, c.Sync.Enabled(), a)
		}
	}
}
