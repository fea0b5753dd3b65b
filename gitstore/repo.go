package gitstore

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/go-git/go-billy/v5/osfs"
	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	objcache "github.com/go-git/go-git/v5/plumbing/cache"
	"github.com/go-git/go-git/v5/storage/filesystem"
)

// WithRepo calls fn with the Store's go-git repository, holding the
// Store's mutex for the call: go-git is not safe for concurrent use. It is
// for the packages that build on the Store (gitstore/gitsync reads remote
// configuration, references and objects with it). fn must not call
// methods of the Store, which take the same mutex, nor keep the
// repository after it returns: Reopen replaces it.
func (s *Store) WithRepo(fn func(*git.Repository) error) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return fn(s.objs.repo)
}

// Reopen makes the Store see objects that another go-git repository wrote
// into new packs (a fetch, a clone to repair from): go-git reads the list
// of packs once.
func (s *Store) Reopen() error {
	repo, err := openRepo(s.dir)
	if err != nil {
		return fmt.Errorf("reopen %s: %w", s.dir, err)
	}
	s.mu.Lock()
	old := s.objs.repo
	s.objs.repo = repo
	s.mu.Unlock()
	closeRepo(old)
	return nil
}

// closeRepo closes the packs a repository opened with openRepo keeps open.
func closeRepo(r *git.Repository) {
	if c, ok := r.Storer.(interface{ Close() error }); ok {
		c.Close()
	}
}

// openRepo opens the repository in dir with go-git, through a storage that
// sees packs written after it was opened. go-git reads the list of packs
// once; another process (cairn sync, git pull, git gc) may add a pack
// holding objects that HEAD now needs, and a long-running Store (the
// daemon's) would not find them.
func openRepo(dir string) (*git.Repository, error) {
	gitDir := filepath.Join(dir, ".git")
	// Packs stay open: without that go-git opens the pack file again for
	// every object it reads from it (a merge reads thousands).
	st := filesystem.NewStorageWithOptions(osfs.New(gitDir), objcache.NewObjectLRUDefault(), filesystem.Options{KeepDescriptors: true})
	return git.Open(&packAware{Storage: st, packDir: filepath.Join(gitDir, "objects", "pack")}, osfs.New(dir))
}

// packAware looks again at the packs when an object is not found and the
// pack folder changed since it last looked.
type packAware struct {
	*filesystem.Storage
	packDir string
	mu      sync.Mutex
	seen    time.Time // the pack folder's mtime when the packs were listed
}

func (p *packAware) refresh() bool {
	fi, err := os.Stat(p.packDir)
	if err != nil {
		return false
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if fi.ModTime().Equal(p.seen) {
		return false
	}
	p.seen = fi.ModTime()
	p.Storage.Reindex()
	return true
}

func (p *packAware) EncodedObject(t plumbing.ObjectType, h plumbing.Hash) (plumbing.EncodedObject, error) {
	o, err := p.Storage.EncodedObject(t, h)
	if errors.Is(err, plumbing.ErrObjectNotFound) && p.refresh() {
		o, err = p.Storage.EncodedObject(t, h)
	}
	return o, err
}

func (p *packAware) HasEncodedObject(h plumbing.Hash) error {
	err := p.Storage.HasEncodedObject(h)
	if errors.Is(err, plumbing.ErrObjectNotFound) && p.refresh() {
		err = p.Storage.HasEncodedObject(h)
	}
	return err
}
