package gitsync

import (
	"context"
	"errors"
	"fmt"

	"github.com/cairn-mem/cairn/gitstore"
	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing/transport"
)

// Reach asks the remote of s for its refs, with the credentials a fetch would
// use, and reports whether it answered: what `cairn doctor` checks. An
// empty remote answers.
func Reach(ctx context.Context, s *gitstore.Store, remote string, getenv func(string) string) error {
	r, err := LookupRemote(s, remote)
	if err != nil {
		return err
	}
	auth, err := auth(s, r.URL, getenv)
	if err != nil {
		return fmt.Errorf("reach %s: %w", remote, scrub(err, r.URL))
	}
	repo, err := git.PlainOpen(s.Dir())
	if err != nil {
		return fmt.Errorf("reach %s: %w", remote, err)
	}
	rem, err := repo.Remote(remote)
	if err != nil {
		return fmt.Errorf("reach %s: %w", remote, err)
	}
	_, err = rem.ListContext(ctx, &git.ListOptions{Auth: auth})
	if err != nil && !errors.Is(err, transport.ErrEmptyRemoteRepository) {
		return fmt.Errorf("reach %s (%s): %w", remote, Redact(r.URL), scrub(netError(err), r.URL))
	}
	return nil
}
