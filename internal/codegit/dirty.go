package codegit

import (
	"path"
	"path/filepath"
	"slices"

	"github.com/cairn-mem/cairn/internal/safefile"
	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
)

// maxDirtyFile is the largest file State hashes: a memory names code,
// and a checkpoint must not read a data file it mentions in passing.
const maxDirtyFile = 4 << 20

// maxDirtyPaths bounds the paths one State looks at: a memory is prose,
// not a file list.
const maxDirtyPaths = 32

// A Dirty is a file of the project whose content in the work tree is not
// HEAD's: an edit not committed yet.
type Dirty struct {
	Path string // slash-separated, relative to the work tree's root
	Blob string // the git blob id of the work tree's content
}

// State returns the commit checked out in the repository that holds dir
// ("" as Head has it) and which of paths hold an edit that commit does
// not: files tracked there whose content in the work tree differs. A
// memory written beside such an edit is about the edited code, which the
// next commit takes; package anchor compares the code against it rather
// than against HEAD's.
//
// paths are relative to the work tree's root, or absolute inside it.
// It reads the files named and HEAD's entries for them, never the whole
// tree's status (a checkpoint must not cost a git status); a path
// outside, untracked, a link, a folder or a file over 4 MiB is passed
// over.
func State(dir string, paths []string) (head string, dirty []Dirty) {
	repo, err := git.PlainOpenWithOptions(dir, &git.PlainOpenOptions{DetectDotGit: true, EnableDotGitCommonDir: true})
	if err != nil {
		return "", nil
	}
	ref, err := repo.Head()
	if err != nil {
		return "", nil
	}
	return ref.Hash().String(), Edits(repo, paths)
}

// Edits is State's edits in a repository already open (package anchor
// keeps the project's open): those of paths that hold an edit HEAD does
// not.
func Edits(repo *git.Repository, paths []string) (dirty []Dirty) {
	if len(paths) == 0 {
		return nil
	}
	ref, err := repo.Head()
	if err != nil {
		return nil
	}
	wt, err := repo.Worktree()
	if err != nil {
		return nil // a bare repository has no edits
	}
	root := wt.Filesystem.Root()
	// Only a file that exists costs a look in HEAD's tree.
	var present []string
	for _, p := range paths {
		if rel, ok := inside(root, p); ok && len(present) < maxDirtyPaths && !slices.Contains(present, rel) {
			if fi, err := safefile.LstatInRoot(root, filepath.FromSlash(rel)); err == nil && fi.Mode().IsRegular() && fi.Size() <= maxDirtyFile {
				present = append(present, rel)
			}
		}
	}
	if len(present) == 0 {
		return nil
	}
	c, err := repo.CommitObject(ref.Hash())
	if err != nil {
		return nil
	}
	tree, err := c.Tree()
	if err != nil {
		return nil
	}
	for _, rel := range present {
		e, err := tree.FindEntry(rel)
		if err != nil || (e.Mode != filemode.Regular && e.Mode != filemode.Executable) {
			continue
		}
		data, size, err := safefile.ReadHeadInRoot(root, filepath.FromSlash(rel), maxDirtyFile+1)
		if err != nil || size > maxDirtyFile {
			continue
		}
		if h := plumbing.ComputeHash(plumbing.BlobObject, data); h != e.Hash {
			dirty = append(dirty, Dirty{Path: rel, Blob: h.String()})
		}
	}
	return dirty
}

// inside returns p relative to the work tree's root, slash-separated,
// and whether it lies inside.
func inside(root, p string) (string, bool) {
	if p == "" {
		return "", false
	}
	if path.IsAbs(p) {
		r, err := filepath.Rel(root, filepath.FromSlash(p))
		if err != nil || !filepath.IsLocal(r) {
			if real, err2 := filepath.EvalSymlinks(root); err2 == nil && real != root {
				return inside(real, p)
			}
			return "", false
		}
		p = filepath.ToSlash(r)
	}
	p = path.Clean(p)
	return p, filepath.IsLocal(filepath.FromSlash(p))
}
