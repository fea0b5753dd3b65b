package links

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

// marker is in every message that names a link (safefile.LinkError's
// and gitstore's), so that WarnOnce can tell them apart.
const marker = " is a symbolic link;"

// WarnOnce wraps warn so that a warning about a link is given once
// per process, however many walks and scans meet it (the daemon checks
// the tree at every checkpoint). Other warnings pass as they are.
func WarnOnce(warn func(string)) func(string) {
	if warn == nil {
		return nil
	}
	var mu sync.Mutex
	seen := map[string]bool{}
	return func(msg string) {
		if strings.Contains(msg, marker) {
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

// Walk calls fn for each file under the repository folder root
// (slash-separated; "" is the whole work tree at dir), in lexical order,
// with its repository path. It never follows a symbolic link: root or a
// folder on its way being one, or a link met in the walk, is skipped and
// handed to skipped (which warns, and reports whether its error is about
// a link). A missing root is no error. fn may return fs.SkipDir for a
// folder.
func Walk(ctx context.Context, dir, root string, skipped func(error) bool, fn func(p string, d fs.DirEntry) error) error {
	base := dir
	if root != "" {
		fi, err := safefile.LstatInRoot(dir, root)
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		if skipped(err) {
			return nil
		}
		if err != nil {
			return err
		}
		if !fi.IsDir() {
			return nil
		}
		base = filepath.Join(dir, filepath.FromSlash(root))
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
		rel, _ := filepath.Rel(dir, name)
		p := filepath.ToSlash(rel)
		if d.Type()&fs.ModeSymlink != 0 {
			skipped(&safefile.LinkError{Path: p})
			return nil
		}
		return fn(p, d)
	})
}

// FS returns the work tree at dir as an fs.FS whose Open never follows a
// symbolic link. It opens regular files only.
func FS(dir string) fs.FS { return noFollowFS(dir) }

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

// InWorktree lists, sorted, the symbolic links in the work tree at dir,
// outside .git and the state folder stateDir.
func InWorktree(ctx context.Context, dir, stateDir string) ([]string, error) {
	var out []string
	err := filepath.WalkDir(dir, func(name string, d fs.DirEntry, err error) error {
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return nil
			}
			return err
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, name)
		p := filepath.ToSlash(rel)
		if d.IsDir() && (p == ".git" || p == stateDir) {
			return fs.SkipDir
		}
		if d.Type()&fs.ModeSymlink != 0 {
			out = append(out, p)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("look for links in %s: %w", dir, err)
	}
	sort.Strings(out)
	return out, nil
}

// InHead lists, sorted, the symbolic links (mode 120000) r's HEAD
// records; none when there is no commit yet.
func InHead(r *git.Repository) ([]string, error) {
	head, err := r.Head()
	if err != nil {
		return nil, nil // no commit yet
	}
	c, err := object.GetCommit(r.Storer, head.Hash())
	if err != nil {
		return nil, err
	}
	t, err := c.Tree()
	if err != nil {
		return nil, err
	}
	var out []string
	w := object.NewTreeWalker(t, true, nil)
	defer w.Close()
	for {
		p, e, err := w.Next()
		if err != nil {
			break // io.EOF, or a damaged tree verify reports itself
		}
		if e.Mode == filemode.Symlink {
			out = append(out, path.Clean(p))
		}
	}
	sort.Strings(out)
	return out, nil
}
