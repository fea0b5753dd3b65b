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
		return nil, &LockedError{Name: name, Holder: Holder(name), Waited: max(timeout, 0)}
	}
	// Say who holds it, for the error of whoever waits. A hint only: the
	// lock is held whether or not this is written.
	if f, err := os.OpenFile(name, os.O_WRONLY|os.O_TRUNC, 0); err == nil {
		f.WriteString(holderLine())
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

// Holder says who holds the lock file name, as the holder wrote it when
// it took the lock: "pid 1234 (cairn) on host since <time>". It is ""
// when nobody holds the lock through Lock or the file cannot be read.
func Holder(name string) string {
	b, err := os.ReadFile(name)
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(b))
}

func holderLine() string {
	host, _ := os.Hostname()
	cmd := "?"
	if len(os.Args) > 0 {
		cmd = filepath.Base(os.Args[0])
	}
	return fmt.Sprintf("pid %d (%s) on %s since %s\n", os.Getpid(), cmd, host, time.Now().UTC().Format(time.RFC3339))
}
