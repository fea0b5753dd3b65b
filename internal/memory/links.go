package memory

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"sync"

	"github.com/cairn-mem/cairn/internal/safefile"
	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"
)

// Symbolic links in the work tree are never followed where cairn reads
// memory: a link to /proc/self/environ, or a linked folder to /etc, would
// otherwise put what it points at into list, show, the context pack, MCP
// get, share and the checkpoints. Reads go through ReadFile (gitstore's,
// which opens every component with O_NOFOLLOW), walks through walkTree,
// which skips links with a warning naming them, and verify and doctor
// list them (Links).

// ErrLink means a path in the memory is, or goes through, a symbolic
// link, which cairn does not follow; the error names the link.
var ErrLink = safefile.ErrLink

// linkMarker is in every message that names a link (safefile.LinkError's
// and gitstore's), so that warnOnceLinks can tell them apart.
const linkMarker = " is a symbolic link;"

// warnOnceLinks wraps warn so that a warning about a link is given once
// per process, however many walks and scans meet it (the daemon checks
// the tree at every checkpoint). Other warnings pass as they are.
func warnOnceLinks(warn func(string)) func(string) {
	if warn == nil {
		return nil
	}
	var mu sync.Mutex
	seen := map[string]bool{}
	return func(msg string) {
		if strings.Contains(msg, linkMarker) {
			mu.Lock()
			dup := seen[msg]
			seen[msg] = true
			mu.Unlock()
			if dup {
				return
			}
		}
		warn(msg)
	}
}

// WarnLink warns, once, that err's link was skipped, when err is about a
// link (errors.Is ErrLink), and reports whether it was. Readers that skip
// what they cannot read call it so that the link is named, not silently
// left out.
func (m *Memory) WarnLink(err error) bool {
	if !errors.Is(err, ErrLink) {
		return false
	}
	m.warn(err.Error() + "; skipped")
	return true
}

func (m *Memory) warnLinkPath(p string) {
	m.WarnLink(&safefile.LinkError{Path: p})
}

// WalkFiles calls fn for each file under the repository folder root
// (slash-separated; "" is the whole work tree), in lexical order, with its
// repository path. It never follows a symbolic link: root or a folder on
// its way being one, or a link met in the walk, is skipped with a warning
// naming it. A missing root is no error. fn may return fs.SkipDir for a
// folder.
func (m *Memory) WalkFiles(ctx context.Context, root string, fn func(p string, d fs.DirEntry) error) error {
	base := m.Dir
	if root != "" {
		fi, err := safefile.LstatInRoot(m.Dir, root)
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		if m.WarnLink(err) {
			return nil
		}
		if err != nil {
			return err
		}
		if !fi.IsDir() {
			return nil
		}
		base = filepath.Join(m.Dir, filepath.FromSlash(root))
	}
	return filepath.WalkDir(base, func(name string, d fs.DirEntry, err error) error {
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return nil // removed meanwhile
			}
			return err
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		rel, _ := filepath.Rel(m.Dir, name)
		p := filepath.ToSlash(rel)
		if d.Type()&fs.ModeSymlink != 0 {
			m.warnLinkPath(p)
			return nil
		}
		return fn(p, d)
	})
}

// FS returns the work tree as an fs.FS whose Open never follows a
// symbolic link (for the search index's hit text, say). It opens regular
// files only.
func (m *Memory) FS() fs.FS { return noFollowFS(m.Dir) }

type noFollowFS string

func (root noFollowFS) Open(name string) (fs.File, error) {
	if !fs.ValidPath(name) || name == "." {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrInvalid}
	}
	f, err := safefile.OpenInRoot(string(root), name)
	if err != nil {
		return nil, err
	}
	return f, nil
}

// Links lists the symbolic links of the memory: those in the work tree
// (outside .git and the state folder), which cairn neither reads nor
// commits, and those HEAD records (mode 120000, from an old commit or a
// remote), which a clone would make. Both sorted.
func (m *Memory) Links(ctx context.Context) (worktree, committed []string, err error) {
	err = filepath.WalkDir(m.Dir, func(name string, d fs.DirEntry, err error) error {
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return nil
			}
			return err
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		rel, _ := filepath.Rel(m.Dir, name)
		p := filepath.ToSlash(rel)
		if d.IsDir() && (p == ".git" || p == StateDir) {
			return fs.SkipDir
		}
		if d.Type()&fs.ModeSymlink != 0 {
			worktree = append(worktree, p)
		}
		return nil
	})
	if err != nil {
		return nil, nil, fmt.Errorf("look for links in %s: %w", m.Dir, err)
	}
	err = m.store.WithRepo(func(r *git.Repository) error {
		head, err := r.Head()
		if err != nil {
			return nil // no commit yet
		}
		c, err := object.GetCommit(r.Storer, head.Hash())
		if err != nil {
			return err
		}
		t, err := c.Tree()
		if err != nil {
			return err
		}
		w := object.NewTreeWalker(t, true, nil)
		defer w.Close()
		for {
			p, e, err := w.Next()
			if err != nil {
				break // io.EOF, or a damaged tree verify reports itself
			}
			if e.Mode == filemode.Symlink {
				committed = append(committed, path.Clean(p))
			}
		}
		return nil
	})
	if err != nil {
		return nil, nil, fmt.Errorf("look for links in HEAD: %w", err)
	}
	sort.Strings(worktree)
	sort.Strings(committed)
	return worktree, committed, nil
}
