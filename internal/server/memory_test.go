package server

import (
	"context"
	"runtime/debug"
	"testing"
	"time"
)

// TestDaemonGC: the daemon's soft memory limit is the configured one,
// unless GOMEMLIMIT is set, which the runtime applied and which stays.
func TestDaemonGC(t *testing.T) {
	limit, percent := debug.SetMemoryLimit(-1), debug.SetGCPercent(-1)
	t.Cleanup(func() { debug.SetMemoryLimit(limit); debug.SetGCPercent(percent) })
	debug.SetGCPercent(400)
	env := func(v string) func(string) string {
		return func(k string) string {
			if k == "GOMEMLIMIT" {
				return v
			}
			return ""
		}
	}
	if got := DaemonGC(150<<20, env("")); got != 150<<20 || debug.SetMemoryLimit(-1) != 150<<20 {
		t.Errorf("DaemonGC = %d, limit %d; want %d", got, debug.SetMemoryLimit(-1), 150<<20)
	}
	if p := debug.SetGCPercent(100); p != 100 {
		t.Errorf("GC percent %d, want 100", p)
	}
	debug.SetMemoryLimit(300 << 20) // as the runtime would from GOMEMLIMIT=300MiB
	if got := DaemonGC(150<<20, env("300MiB")); got != 300<<20 || debug.SetMemoryLimit(-1) != 300<<20 {
		t.Errorf("with GOMEMLIMIT: DaemonGC = %d, limit %d; want %d", got, debug.SetMemoryLimit(-1), 300<<20)
	}
}

// TestReleaser: freed memory goes back to the system once the daemon is
// quiet, not while it allocates, and not for a little. The first look
// counts all that came before as a burst.
func TestReleaser(t *testing.T) {
	const mib = 1 << 20
	type sample struct{ allocs, free uint64 }
	tests := []struct {
		name    string
		samples []sample // one per look
		want    []int    // the looks after which it releases
	}{
		{"quiet with much free", []sample{{100 * mib, 50 * mib}, {101 * mib, 50 * mib}}, []int{1}},
		{"busy", []sample{{100 * mib, 50 * mib}, {200 * mib, 50 * mib}, {300 * mib, 60 * mib}}, nil},
		{"quiet after a burst", []sample{{100 * mib, 1 * mib}, {400 * mib, 80 * mib}, {401 * mib, 80 * mib}, {401 * mib, 0}}, []int{2}},
		{"little free", []sample{{100 * mib, 0}, {100 * mib, 8 * mib}, {100 * mib, 15 * mib}}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			look, done := 0, make(chan struct{})
			var got []int
			r := releaser{
				every: time.Millisecond,
				read: func() (uint64, uint64) {
					if look >= len(tt.samples) {
						// Serve may see the next tick before the
						// cancellation (select picks either): a look
						// after the last is answered once more.
						if look == len(tt.samples) {
							look++
							cancel()
							close(done)
						}
						<-ctx.Done()
						return 0, 0
					}
					s := tt.samples[look]
					look++
					return s.allocs, s.free
				},
				release: func() { got = append(got, look-1) },
			}
			r.Serve(ctx)
			<-done
			if len(got) != len(tt.want) {
				t.Fatalf("released after looks %v, want %v", got, tt.want)
			}
			for i := range got {
				if got[i] != tt.want[i] {
					t.Fatalf("released after looks %v, want %v", got, tt.want)
				}
			}
		})
	}
}
