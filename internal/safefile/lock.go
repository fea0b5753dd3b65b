package safefile

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/gofrs/flock"
)

// ErrLocked is matched by the error of a Lock that gave up because
// another holder kept the lock.
var ErrLocked = errors.New("locked by another process")

// LockedError is the error of a Lock that gave up because another holder
// kept the lock. It matches ErrLocked.
type LockedError struct {
	Name   string        // the lock file
	Holder string        // who holds it, as it said; "" if it did not
	Waited time.Duration // how long Lock waited; 0 if it tried once
}

func (e *LockedError) Error() string {
	s := "lock " + e.Name + ": " + ErrLocked.Error()
	if e.Holder != "" {
		s += " (" + e.Holder + ")"
	}
	if e.Waited > 0 {
		s += "; gave up after " + e.Waited.String()
	}
	return s
}

func (e *LockedError) Unwrap() error { return ErrLocked }

// Lock takes the exclusive lock on the lock file name, waiting until it
// is free, ctx is done or timeout has passed. A timeout of 0 tries once;
// a negative one waits as long as ctx allows. When another holder keeps
// the lock the error is a *LockedError; when ctx ends first, it wraps
// ctx.Err().
//
// unlock releases the lock; it may be called more than once.
func Lock(ctx context.Context, name string, timeout time.Duration) (unlock func() error, err error) {
	fl := flock.New(name, flock.SetFlag(os.O_CREATE|os.O_RDWR), flock.SetPermissions(0o600))
	ok, err := fl.TryLock()
	if err == nil && !ok && timeout != 0 {
		ok, err = poll(ctx, fl, timeout)
	}
	if err != nil {
		return nil, fmt.Errorf("lock %s: %w", name, err)
	}
	if !ok {
		var holder string
		holder, ok, err = whoHolds(ctx, fl, name)
		if err != nil {
			return nil, fmt.Errorf("lock %s: %w", name, err)
		}
		if !ok {
			return nil, &LockedError{Name: name, Holder: holder, Waited: max(timeout, 0)}
		}
	}
	// Say who holds it, for the error of whoever waits. A hint only: the
	// lock is held whether or not this is written. One write over what
	// is there, then the cut: the file is never emptied on the way.
	if f, err := os.OpenFile(name, os.O_WRONLY, 0); err == nil {
		line := holderLine()
		if _, err := f.WriteAt([]byte(line), 0); err == nil {
			f.Truncate(int64(len(line)))
		}
		f.Close()
	}
	var once sync.Once
	return func() error {
		err := error(nil)
		once.Do(func() {
			// Forget who held it while it is still held, so that
			// the next holder's waiters never read a stale name.
			_ = os.Truncate(name, 0)
			if err = fl.Unlock(); err != nil {
				err = fmt.Errorf("unlock %s: %w", name, err)
			}
		})
		return err
	}, nil
}

// TryLock is Lock without waiting.
func TryLock(name string) (unlock func() error, err error) {
	return Lock(context.Background(), name, 0)
}

// poll tries fl until it is free, ctx is done or timeout (if positive)
// has passed: often at first, since most holders hold for milliseconds,
// then less often. It returns false, nil when the timeout passed.
func poll(ctx context.Context, fl *flock.Flock, timeout time.Duration) (bool, error) {
	var deadline <-chan time.Time
	if timeout > 0 {
		t := time.NewTimer(timeout)
		defer t.Stop()
		deadline = t.C
	}
	delay := time.Millisecond
	wait := time.NewTimer(delay)
	defer wait.Stop()
	for {
		select {
		case <-ctx.Done():
			return false, ctx.Err()
		case <-deadline:
			return false, nil
		case <-wait.C:
		}
		if ok, err := fl.TryLock(); ok || err != nil {
			return ok, err
		}
		delay = min(2*delay, 20*time.Millisecond)
		wait.Reset(delay)
	}
}

// HolderUnknown is what a LockedError says of the holder when the lock
// file named none for as long as whoHolds looked: a holder that took the
// lock and has not written its name yet (or does not write one).
const HolderUnknown = "holder unknown: the lock was just taken"

// settleFor bounds how long a waiter that gave up looks for the holder's
// name. A holder writes it right after taking the lock, and empties the
// file right before letting go, so an empty file while the lock is held
// lasts microseconds unless the holder was descheduled.
const settleFor = 100 * time.Millisecond

// whoHolds is called when fl could not be had: it reads the holder's
// name, and while the file is empty (a holder between its flock and its
// write, or between its truncate and its unlock) tries the lock again
// and reads again, for at most settleFor. It returns the holder, or
// ok when the lock turned out free and is now held through fl, or
// HolderUnknown: never an empty holder.
func whoHolds(ctx context.Context, fl *flock.Flock, name string) (holder string, ok bool, err error) {
	deadline := time.Now().Add(settleFor)
	delay := 100 * time.Microsecond
	for {
		if h := readHolder(name); h != "" {
			return h, false, nil
		}
		if ok, err := fl.TryLock(); ok || err != nil {
			return "", ok, err
		}
		if time.Now().After(deadline) || ctx.Err() != nil {
			return HolderUnknown, false, nil
		}
		time.Sleep(delay)
		delay = min(2*delay, 10*time.Millisecond)
	}
}

// Holder says who holds the lock file name, as the holder wrote it when
// it took the lock: "pid 1234 (cairn) on host since <time>". It is ""
// when nobody holds the lock through Lock or the file cannot be read.
// An empty file is read again for a few milliseconds, since a holder
// writes its name just after taking the lock.
func Holder(name string) string {
	for delay := 250 * time.Microsecond; ; delay *= 2 {
		h := readHolder(name)
		if h != "" || delay > 8*time.Millisecond {
			return h
		}
		time.Sleep(delay)
	}
}

func readHolder(name string) string {
	b, err := os.ReadFile(name)
	if err != nil {
		return ""
	}
	// The first line: one written over a longer one shows the old tail
	// until the holder cuts it.
	line, _, _ := strings.Cut(string(b), "\n")
	return strings.TrimSpace(line)
}

func holderLine() string {
	host, _ := os.Hostname()
	cmd := "?"
	if len(os.Args) > 0 {
		cmd = filepath.Base(os.Args[0])
	}
	return fmt.Sprintf("pid %d (%s) on %s since %s\n", os.Getpid(), cmd, host, time.Now().UTC().Format(time.RFC3339))
}
