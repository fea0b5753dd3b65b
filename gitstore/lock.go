package gitstore

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/gofrs/flock"
)

// ErrLocked means another process held the write lock for longer than the
// caller was willing to wait.
var ErrLocked = errors.New("memory is locked by another process")

type fileLock struct {
	fl    *flock.Flock
	depth int
}

// Lock takes the write lock that serialises every process writing this
// repository (hooks of parallel sessions, a daemon, the user), waiting at
// most timeout. The lock is an flock on .state/lock, so the kernel
// releases it when its holder dies. unlock is idempotent. Lock is
// reentrant within one Store.
func (s *Store) Lock(ctx context.Context, timeout time.Duration) (unlock func(), err error) {
	s.mu.Lock()
	if s.lock != nil {
		s.lock.depth++
		s.mu.Unlock()
		return s.unlocker(), nil
	}
	s.mu.Unlock()

	name := s.StatePath("lock")
	fl := flock.New(name, flock.SetFlag(os.O_CREATE|os.O_RDWR), flock.SetPermissions(0o600))
	ok, err := fl.TryLock()
	if !ok && err == nil {
		lctx, cancel := context.WithTimeout(ctx, timeout)
		defer cancel()
		// Writers hold the lock for milliseconds: poll often.
		ok, err = fl.TryLockContext(lctx, 3*time.Millisecond)
	}
	if !ok {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		owner := ""
		if b, rerr := os.ReadFile(s.StatePath("lock.owner")); rerr == nil {
			owner = " (" + strings.TrimSpace(string(b)) + ")"
		}
		if err != nil && !errors.Is(err, context.DeadlineExceeded) {
			return nil, fmt.Errorf("lock %s: %w", name, err)
		}
		return nil, fmt.Errorf("%w%s: gave up after %s waiting for %s", ErrLocked, owner, timeout, name)
	}
	host, _ := os.Hostname()
	owner := fmt.Sprintf("pid %d on %s since %s\n", os.Getpid(), host, s.now().Format(time.RFC3339))
	// Who holds the lock is a hint for the message above; losing it loses nothing.
	_ = os.WriteFile(s.StatePath("lock.owner"), []byte(owner), 0o600)
	s.mu.Lock()
	s.lock = &fileLock{fl: fl, depth: 1}
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
				s.saveCache()
			}
			s.lock.fl.Unlock()
			s.lock = nil
		}
	}
}

func (s *Store) locked() bool {
	return s.lock != nil
}
