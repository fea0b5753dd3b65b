package watcher

import (
	"slices"
	"testing"
	"testing/synctest"
	"time"
)

// fired returns the keys due when the debouncer's timer fires, or nil when
// it does not fire by now.
func fired(d *debouncer) []string {
	synctest.Wait()
	select {
	case <-d.C():
		return d.take(time.Now())
	default:
		return nil
	}
}

func TestDebouncer(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		d := newDebouncer(200*time.Millisecond, time.Second)
		defer d.stop()

		// A burst of writes to one file: one firing, 200 ms after the last.
		for range 10 {
			d.add("/a", time.Now())
			time.Sleep(50 * time.Millisecond)
		}
		if got := fired(d); got != nil {
			t.Fatalf("fired %v during the burst", got)
		}
		time.Sleep(149 * time.Millisecond)
		if got := fired(d); got != nil {
			t.Fatalf("fired %v before the file was quiet for 200 ms", got)
		}
		time.Sleep(time.Millisecond)
		if got := fired(d); !slices.Equal(got, []string{"/a"}) {
			t.Fatalf("fired %v, want [/a]", got)
		}
		time.Sleep(time.Hour)
		if got := fired(d); got != nil || d.len() != 0 {
			t.Fatalf("fired %v again, %d waiting", got, d.len())
		}

		// Two files, apart: each on its own time.
		d.add("/b", time.Now())
		time.Sleep(100 * time.Millisecond)
		d.add("/c", time.Now())
		time.Sleep(100 * time.Millisecond)
		if got := fired(d); !slices.Equal(got, []string{"/b"}) {
			t.Fatalf("fired %v, want [/b]", got)
		}
		time.Sleep(100 * time.Millisecond)
		if got := fired(d); !slices.Equal(got, []string{"/c"}) {
			t.Fatalf("fired %v, want [/c]", got)
		}

		// A file written to without pause still fires every second.
		start := time.Now()
		var firings []time.Duration
		for time.Since(start) < 3*time.Second {
			d.add("/busy", time.Now())
			time.Sleep(100 * time.Millisecond)
			if got := fired(d); got != nil {
				firings = append(firings, time.Since(start))
			}
		}
		if want := []time.Duration{time.Second, 2 * time.Second, 3 * time.Second}; !slices.Equal(firings, want) {
			t.Fatalf("a file written to every 100 ms fired at %v, want %v", firings, want)
		}

		// A retry waits its delay, unless a change comes sooner.
		time.Sleep(time.Hour)
		_ = fired(d)
		d.addAt("/r", time.Now().Add(5*time.Second), time.Now())
		time.Sleep(4 * time.Second)
		if got := fired(d); got != nil {
			t.Fatalf("retry fired early: %v", got)
		}
		time.Sleep(time.Second)
		if got := fired(d); !slices.Equal(got, []string{"/r"}) {
			t.Fatalf("fired %v, want [/r]", got)
		}
		d.addAt("/r", time.Now().Add(5*time.Second), time.Now())
		d.add("/r", time.Now())
		time.Sleep(200 * time.Millisecond)
		if got := fired(d); !slices.Equal(got, []string{"/r"}) {
			t.Fatalf("a change during a retry wait: fired %v, want [/r] at once", got)
		}
	})
}
