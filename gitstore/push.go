package gitstore

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/config"
	"github.com/go-git/go-git/v5/plumbing"
)

// Pushed says what a push did.
type Pushed struct {
	Remote   string
	Branch   string
	Commit   string // what the remote branch is now
	UpToDate bool   // the remote had it already
}

// Push sends the current branch to the remote's branch of the same name.
// It never forces: when the remote moved since the last fetch it returns
// ErrRemoteMoved, and the caller fetches and merges again. Push only reads
// the repository (and moves the tracking ref), so it does not need the
// write lock.
func (s *Store) Push(ctx context.Context, remote string, getenv func(string) string) (*Pushed, error) {
	r, err := s.Remote(remote)
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	branch, head, err := s.head()
	s.mu.Unlock()
	if err != nil {
		return nil, err
	}
	if head.IsZero() {
		return nil, fmt.Errorf("push %s: nothing to push yet", remote)
	}
	p := &Pushed{Remote: remote, Branch: branch.Short(), Commit: head.String()}
	auth, err := s.auth(r.URL, getenv)
	if err != nil {
		return nil, fmt.Errorf("push %s: %w", remote, err)
	}
	repo, err := git.PlainOpen(s.dir)
	if err != nil {
		return nil, fmt.Errorf("push %s: %w", remote, err)
	}
	err = repo.PushContext(ctx, &git.PushOptions{
		RemoteName: remote,
		RefSpecs:   []config.RefSpec{config.RefSpec(branch.String() + ":" + branch.String())},
		Auth:       auth,
	})
	switch {
	case err == nil:
		return p, nil
	case errors.Is(err, git.NoErrAlreadyUpToDate):
		p.UpToDate = true
		return p, nil
	case isMoved(err):
		return nil, fmt.Errorf("push %s (%s): %w", remote, r.URL, ErrRemoteMoved)
	}
	return nil, fmt.Errorf("push %s (%s): %w", remote, r.URL, netError(err))
}

// isMoved recognises go-git's refusal of a non-fast-forward push, and the
// server's refusal of an update whose old value no longer holds (another
// push won the race).
func isMoved(err error) bool {
	if errors.Is(err, plumbing.ErrObjectNotFound) {
		return true // the remote's commit is one we never fetched
	}
	msg := err.Error()
	for _, s := range []string{"non-fast-forward", "fetch first", "failed to update ref", "failed to lock", "cannot lock ref", "stale info"} {
		if strings.Contains(msg, s) {
			return true
		}
	}
	return false
}
