package codegit

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/go-git/go-git/v5/plumbing/storer"
)

// Head returns the commit checked out in the git repository that holds
// dir (the project the memory belongs to), or "" when dir is in no
// repository or it has no commits yet.
func Head(dir string) string {
	head, _ := State(dir, nil)
	return head
}

// History resolves rev in the project repository that holds dir and
// returns the commit ids reachable from it, newest first, with rev's own
// id first.
func History(ctx context.Context, dir, rev string) ([]string, error) {
	repo, err := git.PlainOpenWithOptions(dir, &git.PlainOpenOptions{DetectDotGit: true, EnableDotGitCommonDir: true})
	if err != nil {
		return nil, fmt.Errorf("open project repository at %s: %w", dir, err)
	}
	h, err := repo.ResolveRevision(plumbing.Revision(rev))
	if err != nil {
		return nil, fmt.Errorf("resolve %q in the project repository: %w", rev, err)
	}
	iter, err := repo.Log(&git.LogOptions{From: *h, Order: git.LogOrderCommitterTime})
	if err != nil {
		return nil, fmt.Errorf("walk project history from %s: %w", rev, err)
	}
	defer iter.Close()
	var out []string
	err = iter.ForEach(func(c *object.Commit) error {
		if err := ctx.Err(); err != nil {
			return err
		}
		out = append(out, c.Hash.String())
		return nil
	})
	if err != nil && !errors.Is(err, storer.ErrStop) {
		return nil, fmt.Errorf("walk project history from %s: %w", rev, err)
	}
	return out, nil
}

// HasPrefixFold reports whether id starts with the (abbreviated) id p.
func HasPrefixFold(id, p string) bool {
	return len(p) >= 4 && strings.HasPrefix(strings.ToLower(id), strings.ToLower(p))
}
