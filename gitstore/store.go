package gitstore

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/cairn-mem/cairn/gitstore/gitpath"
	"github.com/cairn-mem/cairn/gitstore/internal/commitenc"
	"github.com/cairn-mem/cairn/internal/safefile"
	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
)

// Errors callers distinguish.
var (
	ErrNotRepository = errors.New("not a memory repository")
	ErrNothingToDo   = errors.New("nothing to checkpoint")
	ErrUnknownRev    = errors.New("unknown revision")
	ErrNotFound      = errors.New("no such file")
	ErrOutside       = gitpath.ErrOutside
	// ErrBadName is gitpath.ErrBadName: a name no memory file may have.
	ErrBadName = gitpath.ErrBadName
)

// StateDir is the work-tree folder for derived, uncommitted state.
const StateDir = gitpath.StateDir

// Store is a memory repository: a work tree of files and its git history.
type Store struct {
	dir    string // work tree
	gitDir string
	state  string

	// mu owns what follows: go-git is not safe for concurrent use, and
	// the stat cache and scan count change with every checkpoint.
	mu         sync.Mutex
	objs       objects  // reads the repository
	index      index    // the stat cache and .git/index
	wt         worktree // scans, reads and writes the work tree
	deferIndex bool
	lock       *fileLock
	ident      Identity
	warn       func(string)
	now        func() time.Time
}

// Options tune a Store.
type Options struct {
	// Identity is the author of checkpoints; what it lacks is the user's
	// (CAIRN_AUTHOR_NAME and _EMAIL, else git's user.name and user.email),
	// or "cairn".
	Identity Identity
	// Warn receives one-line notices about state that was repaired, such
	// as a stat cache rebuilt after corruption. Nil discards them.
	Warn func(string)
	// DeferIndex keeps the stat cache in memory after a checkpoint instead
	// of writing it, and .git/index, when the lock is released: at 100,000
	// files that write is 10 MB. A long-running process sets it and calls
	// Flush when idle and before exit; until then git status in the
	// repository shows the last checkpoints as staged changes.
	DeferIndex bool
	// Owned lists repository paths (files, or folders with everything
	// below them) that are the caller's: the work tree's .gitignore,
	// which may have come from a remote, never keeps them out of a
	// checkpoint; only the OwnedIgnore patterns do.
	Owned []string
	// OwnedIgnore are the gitignore lines that apply to Owned paths.
	OwnedIgnore []string
	// Filter, when not nil, turns the files it claims into the blobs
	// stored and back (see Filter).
	Filter Filter
}

// Identity names the author of a commit.
type Identity = commitenc.Identity

// Open opens the repository whose work tree is dir.
func Open(ctx context.Context, dir string, opts Options) (*Store, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", dir, err)
	}
	gitDir := filepath.Join(abs, ".git")
	if fi, err := os.Stat(gitDir); err != nil || !fi.IsDir() {
		return nil, fmt.Errorf("open %s: %w", dir, ErrNotRepository)
	}
	repo, err := openRepo(abs) // sees packs other processes add
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", dir, err)
	}
	s := &Store{
		dir:    abs,
		gitDir: gitDir,
		state:  filepath.Join(abs, StateDir),
		objs:   objects{repo: repo, dir: abs, gitDir: gitDir},
		ident:  opts.Identity,
		warn:   opts.Warn,
		now:    time.Now,

		deferIndex: opts.DeferIndex,
	}
	if s.warn == nil {
		s.warn = func(string) {}
	}
	// The parts warn through the Store, whose warn may be replaced later.
	warn := func(msg string) { s.warn(msg) }
	s.index = index{file: s.StatePath(cacheFile), gitDir: gitDir, objs: &s.objs, warn: warn}
	s.wt = worktree{dir: abs, state: s.state, warn: warn, owned: opts.Owned, ownedIgn: parseIgnore(opts.OwnedIgnore), filter: opts.Filter}
	if s.ident.Name == "" || s.ident.Email == "" {
		s.ident = commitenc.DefaultIdentity(s.ident)
	}
	if err := os.MkdirAll(s.state, 0o700); err != nil {
		return nil, fmt.Errorf("open %s: %w", dir, err)
	}
	return s, nil
}

// Init creates a repository in dir with the given files as its first
// commit. It reports false, and changes nothing, when dir already holds a
// repository.
func Init(ctx context.Context, dir string, files map[string][]byte, subject string, opts Options) (*Store, bool, error) {
	if _, err := os.Stat(filepath.Join(dir, ".git")); err == nil {
		s, err := Open(ctx, dir, opts)
		return s, false, err
	}
	if err := os.MkdirAll(dir, DirPerm); err != nil {
		return nil, false, fmt.Errorf("init %s: %w", dir, err)
	}
	_, err := git.PlainInitWithOptions(dir, &git.PlainInitOptions{
		InitOptions: git.InitOptions{DefaultBranch: plumbing.NewBranchReferenceName("main")},
	})
	if err != nil {
		return nil, false, fmt.Errorf("init %s: %w", dir, err)
	}
	s, err := Open(ctx, dir, opts)
	if err != nil {
		return nil, false, err
	}
	unlock, err := s.Lock(ctx, 10*time.Second)
	if err != nil {
		return nil, false, err
	}
	defer unlock()
	for name, data := range files {
		if err := s.WriteFile(name, data); err != nil {
			return nil, false, err
		}
	}
	if _, err := s.Checkpoint(ctx, CheckpointOptions{Subject: subject, AllowEmpty: true}); err != nil {
		return nil, false, err
	}
	return s, true, nil
}

// Dir returns the work tree's absolute path.
func (s *Store) Dir() string { return s.dir }

// StatePath returns the absolute path of name inside the state folder.
func (s *Store) StatePath(name string) string { return filepath.Join(s.state, name) }

// Close writes what Flush would, when no lock is held, and releases the
// store.
func (s *Store) Close() error {
	s.mu.Lock()
	dirty, locked := s.index.dirty, s.lock != nil
	s.mu.Unlock()
	if dirty && !locked {
		return s.Flush(context.Background())
	}
	return nil
}

// Abs turns a slash-separated repository path into a file name, refusing
// paths that leave the work tree or reach into .git or the state folder.
func (s *Store) Abs(p string) (string, error) {
	clean, err := gitpath.Clean(p)
	if err != nil {
		return "", err
	}
	return filepath.Join(s.dir, filepath.FromSlash(clean)), nil
}

// Rel turns an absolute file name into a repository path. A relative
// name is an error: the process's working directory means nothing here,
// so callers join it to the folder it is relative to.
func (s *Store) Rel(name string) (string, error) {
	if !filepath.IsAbs(name) {
		return "", fmt.Errorf("%s: not an absolute path: %w", name, ErrOutside)
	}
	rel, err := filepath.Rel(s.dir, filepath.Clean(name))
	if err != nil {
		return "", fmt.Errorf("%s: %w", name, ErrOutside)
	}
	return gitpath.Clean(filepath.ToSlash(rel))
}

// The modes of the files and folders cairn makes in the work tree:
// memory is private to its owner, as the state folder is. Git reads
// them as the owner; the modes it records (100644, 100755) do not
// depend on these.
const (
	FilePerm = 0o600
	ExecPerm = 0o700 // a file git records as executable
	DirPerm  = 0o700
)

// WriteFile writes a repository file atomically. The caller holds the lock.
func (s *Store) WriteFile(p string, data []byte) error {
	name, err := s.Abs(p)
	if err != nil {
		return err
	}
	return safefile.Write(name, data, FilePerm) // its folders DirPerm
}

// ReadFile reads a repository file from the work tree. It never follows
// a symbolic link, as the file or as a folder on its way: that is a
// *safefile.LinkError naming the link (errors.Is safefile.ErrLink).
func (s *Store) ReadFile(p string) ([]byte, error) {
	clean, err := gitpath.Clean(p)
	if err != nil {
		return nil, err
	}
	b, err := safefile.ReadInRoot(s.dir, clean)
	if errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("read %s: %w", p, ErrNotFound)
	}
	return b, err
}

// ReadFileHead is ReadFile that reads at most n bytes of the file; size
// is the whole file's.
func (s *Store) ReadFileHead(p string, n int64) (data []byte, size int64, err error) {
	clean, err := gitpath.Clean(p)
	if err != nil {
		return nil, 0, err
	}
	data, size, err = safefile.ReadHeadInRoot(s.dir, clean, n)
	if errors.Is(err, os.ErrNotExist) {
		return nil, 0, fmt.Errorf("read %s: %w", p, ErrNotFound)
	}
	return data, size, err
}

// Remove deletes a repository file from the work tree, and the folders
// it leaves empty. The caller holds the lock.
func (s *Store) Remove(p string) error {
	name, err := s.Abs(p)
	if err != nil {
		return err
	}
	if err := os.Remove(name); err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return fmt.Errorf("remove %s: %w", p, ErrNotFound)
		}
		return fmt.Errorf("remove %s: %w", p, err)
	}
	for d := filepath.Dir(name); d != s.dir && len(d) > len(s.dir); d = filepath.Dir(d) {
		if os.Remove(d) != nil {
			break
		}
	}
	return nil
}
