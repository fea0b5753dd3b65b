package watcher

import (
	"slices"
	"time"
)

// debouncer collects keys (paths) that changed and says when each is due:
// delay after it last changed, and no later than maxDelay after it first
// changed, so that a file written to without pause is still looked at.
// It is not safe for concurrent use: the watcher's loop owns it.
type debouncer struct {
	delay, maxDelay time.Duration
	keys            map[string]deadline
	timer           *time.Timer
	armed           time.Time // when the timer fires; zero when stopped
}

type deadline struct{ first, at time.Time }

func newDebouncer(delay, maxDelay time.Duration) *debouncer {
	t := time.NewTimer(time.Hour)
	t.Stop()
	return &debouncer{delay: delay, maxDelay: max(delay, maxDelay), keys: map[string]deadline{}, timer: t}
}

// C delivers a value when some key may be due; then call take with the
// current time.
func (d *debouncer) C() <-chan time.Time { return d.timer.C }

// add records a change to key at now.
func (d *debouncer) add(key string, now time.Time) {
	dl, ok := d.keys[key]
	if !ok {
		dl.first = now
	}
	dl.at = now.Add(d.delay)
	if limit := dl.first.Add(d.maxDelay); limit.Before(dl.at) {
		dl.at = limit
	}
	d.keys[key] = dl
	d.arm(dl.at, now)
}

// addAt makes key due at at, unless it is due sooner already.
func (d *debouncer) addAt(key string, at, now time.Time) {
	if dl, ok := d.keys[key]; ok && !dl.at.After(at) {
		return
	}
	d.keys[key] = deadline{first: now, at: at}
	d.arm(at, now)
}

// take removes and returns the keys due at now, in order.
func (d *debouncer) take(now time.Time) []string {
	var due []string
	var next time.Time
	for k, dl := range d.keys {
		if !dl.at.After(now) {
			due = append(due, k)
			delete(d.keys, k)
		} else if next.IsZero() || dl.at.Before(next) {
			next = dl.at
		}
	}
	d.armed = time.Time{}
	if !next.IsZero() {
		d.arm(next, now)
	}
	slices.Sort(due)
	return due
}

// arm makes the timer fire by at. A key whose deadline moved later may make
// it fire early; take then finds nothing due and arms it again.
func (d *debouncer) arm(at, now time.Time) {
	if !d.armed.IsZero() && !at.Before(d.armed) {
		return
	}
	d.armed = at
	d.timer.Reset(max(at.Sub(now), 0))
}

func (d *debouncer) stop() { d.timer.Stop() }
