package gitsync

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/cairn-mem/cairn/gitstore"
	"github.com/go-git/go-billy/v5/osfs"
	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/config"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/cache"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/go-git/go-git/v5/plumbing/transport"
	"github.com/go-git/go-git/v5/storage/filesystem"
)

// Errors of fetch and push that callers tell apart.
var (
	// ErrRewritten means the remote's branch no longer descends from what
	// was fetched from it before: someone rewrote its history.
	ErrRewritten = errors.New("remote history was rewritten")
	// ErrRemoteMoved means a push was refused because the remote moved
	// since the last fetch.
	ErrRemoteMoved = errors.New("remote moved since the last fetch")
	// ErrNoBranch means the remote has commits but not our branch.
	ErrNoBranch = errors.New("remote has no such branch")
	// ErrAuth means the remote refused our credentials, or wanted some.
	ErrAuth = errors.New("authentication failed")
)

// Fetched says what a fetch brought.
type Fetched struct {
	Remote   string
	URL      string
	Branch   string // the branch fetched: the one HEAD points at
	Tracking string // the ref that holds what was fetched (refs/remotes/NAME/BRANCH)
	Old, New string // the tracking ref before and after; empty when absent
	Empty    bool   // the remote has no commits yet
}

// Fetch downloads into s the remote's copy of the current branch into
// refs/remotes/REMOTE/BRANCH. It refuses, with ErrRewritten, a remote
// branch that does not descend from what was fetched before, and leaves
// the tracking ref where it was. Nothing but objects and the tracking ref
// is written, so Fetch does not need the write lock. getenv supplies
// credentials (see TokenEnv).
func Fetch(ctx context.Context, s *gitstore.Store, remote string, getenv func(string) string) (*Fetched, error) {
	return FetchLimit(ctx, s, remote, getenv, 0)
}

// FetchLimit is Fetch that refuses (ErrTooLarge), before go-git reads it,
// a pack holding an object larger than maxBlob bytes; 0 is no limit.
// Nothing is written then.
func FetchLimit(ctx context.Context, s *gitstore.Store, remote string, getenv func(string) string, maxBlob int64) (*Fetched, error) {
	r, err := LookupRemote(s, remote)
	if err != nil {
		return nil, err
	}
	branch, _, err := s.Head()
	if err != nil {
		return nil, err
	}
	f := &Fetched{Remote: remote, URL: Redact(r.URL), Branch: branch.Short(),
		Tracking: "refs/remotes/" + remote + "/" + branch.Short()}
	auth, err := auth(s, r.URL, getenv)
	if err != nil {
		return nil, fmt.Errorf("fetch %s: %w", remote, scrub(err, r.URL))
	}
	// A repository of its own: the network may take long, and the
	// Store's must stay usable meanwhile.
	gitDir := filepath.Join(s.Dir(), ".git")
	st := &limitStorage{Storage: filesystem.NewStorage(osfs.New(gitDir), cache.NewObjectLRUDefault()),
		max: maxBlob, tmpDir: filepath.Join(gitDir, "objects", "pack")}
	repo, err := git.Open(st, nil)
	if err != nil {
		return nil, fmt.Errorf("fetch %s: %w", remote, err)
	}
	tracking := plumbing.ReferenceName(f.Tracking)
	if ref, err := repo.Storer.Reference(tracking); err == nil {
		f.Old = ref.Hash().String()
	}
	// Into a ref of our own first: the tracking ref moves only when the
	// remote's branch descends from it. (go-git skips that check for a
	// refspec without "+" when tags are not fetched.)
	tmp := plumbing.ReferenceName("refs/cairn/fetch/" + remote)
	err = repo.FetchContext(ctx, &git.FetchOptions{
		RemoteName: remote,
		RefSpecs:   []config.RefSpec{config.RefSpec("+" + branch.String() + ":" + tmp.String())},
		Auth:       auth,
		Tags:       git.NoTags,
	})
	defer repo.Storer.RemoveReference(tmp)
	var noMatch git.NoMatchingRefSpecError
	switch {
	case err == nil, errors.Is(err, git.NoErrAlreadyUpToDate):
	case errors.Is(err, transport.ErrEmptyRemoteRepository):
		if f.Old != "" {
			return nil, fmt.Errorf("fetch %s (%s): the remote is empty now, but it had %s before: %w; refusing to sync",
				remote, f.URL, f.Old[:10], ErrRewritten)
		}
		f.Empty = true
		return f, nil
	case errors.Is(err, ErrTooLarge):
		return nil, fmt.Errorf("fetch %s (%s): %w", remote, f.URL, err)
	case errors.As(err, &noMatch):
		return nil, fmt.Errorf("fetch %s (%s): %w %s (is it a cairn memory?)", remote, f.URL, ErrNoBranch, f.Branch)
	default:
		return nil, fmt.Errorf("fetch %s (%s): %w", remote, f.URL, scrub(netError(err), r.URL))
	}
	ref, err := repo.Storer.Reference(tmp)
	if err != nil {
		if f.Old == "" {
			return nil, fmt.Errorf("fetch %s (%s): %w %s (is it a cairn memory?)", remote, f.URL, ErrNoBranch, f.Branch)
		}
		ref = plumbing.NewHashReference(tmp, plumbing.NewHash(f.Old)) // nothing new
	}
	f.New = ref.Hash().String()
	if f.Old != "" && f.New != f.Old {
		oc, err1 := object.GetCommit(repo.Storer, plumbing.NewHash(f.Old))
		nc, err2 := object.GetCommit(repo.Storer, ref.Hash())
		if err := errors.Join(err1, err2); err != nil {
			return nil, fmt.Errorf("fetch %s: %w", remote, err)
		}
		ok, err := oc.IsAncestor(nc)
		if err != nil {
			return nil, fmt.Errorf("fetch %s: %w", remote, err)
		}
		if !ok {
			return nil, fmt.Errorf("fetch %s (%s): %w: %s no longer contains %s, which was fetched from it before; "+
				"refusing to merge or push (if that was meant, run git -C %s update-ref -d %s and sync again)",
				remote, f.URL, ErrRewritten, f.Branch, f.Old[:10], s.Dir(), f.Tracking)
		}
	}
	if f.New != f.Old {
		if err := repo.Storer.SetReference(plumbing.NewHashReference(tracking, ref.Hash())); err != nil {
			return nil, fmt.Errorf("fetch %s: update %s: %w", remote, tracking, err)
		}
	}
	if err := s.Reopen(); err != nil {
		return nil, err
	}
	return f, nil
}

// netError makes transport errors say what the user can do.
func netError(err error) error {
	switch {
	case errors.Is(err, transport.ErrAuthenticationRequired):
		return fmt.Errorf("%w: the remote wants credentials (for https: set %s, or put a line \"HOST TOKEN\" in .state/%s with mode 600, "+
			"where a line without a host is ignored; tokens are never sent over http://; for ssh: load your key into ssh-agent): %w",
			ErrAuth, TokenEnv, CredentialsFile, err)
	case errors.Is(err, transport.ErrAuthorizationFailed):
		return fmt.Errorf("%w: the remote refused these credentials: %w", ErrAuth, err)
	case errors.Is(err, transport.ErrRepositoryNotFound):
		return fmt.Errorf("no repository there: %w", err)
	case strings.Contains(err.Error(), "unable to authenticate"), strings.Contains(err.Error(), "handshake failed"):
		return fmt.Errorf("%w: %w", ErrAuth, err)
	}
	return err
}
