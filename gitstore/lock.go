package gitstore

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/cairn-mem/cairn/internal/safefile"
)

// ErrLocked means another process held the write lock for longer than the
// caller was willing to wait.
var ErrLocked = errors.New("memory is locked by another process")

type fileLock struct {
	unlock func() error
	depth  int
}

// Lock takes the write lock that serialises every process writing this
// repository (hooks of parallel sessions, a daemon, the user), waiting at
// most timeout. The lock is an flock on .state/lock (see safefile.Lock),
// so the kernel releases it when its holder dies, and the holder's pid is
// in the file for the error of whoever gives up waiting. unlock is
// idempotent. Lock is reentrant within one Store.
func (s *Store) Lock(ctx context.Context, timeout time.Duration) (unlock func(), err error) {
	s.mu.Lock()
	if s.lock != nil {
		s.lock.depth++
		s.mu.Unlock()
		return s.unlocker(), nil
	}
	s.mu.Unlock()

	name := s.StatePath("lock")
	// Writers hold the lock for milliseconds: safefile polls often. A
	// timeout of 0 or less means no wait, where safefile would take a
	// negative one to mean no limit.
	release, err := safefile.Lock(ctx, name, max(timeout, 0))
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		var le *safefile.LockedError
		if !errors.As(err, &le) {
			return nil, err
		}
		owner := ""
		if le.Holder != "" {
			owner = " (" + le.Holder + ")"
		}
		return nil, fmt.Errorf("%w%s: gave up after %s waiting for %s", ErrLocked, owner, timeout, name)
	}
	s.mu.Lock()
	s.lock = &fileLock{unlock: release, depth: 1}
	s.mu.Unlock()
	return s.unlocker(), nil
}

func (s *Store) unlocker() func() {
	done := false
	return func() {
		s.mu.Lock()
		defer s.mu.Unlock()
		if done || s.lock == nil {
			return
		}
		done = true
		s.lock.depth--
		if s.lock.depth == 0 {
			if !s.deferIndex {
				s.index.save()
			}
			s.lock.unlock()
			s.lock = nil
		}
	}
}

// Locked reports whether this Store holds the write lock.
func (s *Store) Locked() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.lock != nil
}
