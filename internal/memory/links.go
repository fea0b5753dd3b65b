package memory

import (
	"context"
	"errors"
	"fmt"
	"io/fs"

	"github.com/cairn-mem/cairn/internal/memory/links"
	"github.com/cairn-mem/cairn/internal/safefile"
	"github.com/go-git/go-git/v5"
)

// Symbolic links in the work tree are never followed where cairn reads
// memory: a link to /proc/self/environ, or a linked folder to /etc, would
// otherwise put what it points at into list, show, the context pack, MCP
// get, share and the checkpoints. Reads go through ReadFile (gitstore's,
// which opens every component with O_NOFOLLOW), walks through WalkFiles,
// which skips links with a warning naming them, and verify and doctor
// list them (Links).

// ErrLink means a path in the memory is, or goes through, a symbolic
// link, which cairn does not follow; the error names the link.
var ErrLink = safefile.ErrLink

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

// WalkFiles calls fn for each file under the repository folder root
// (slash-separated; "" is the whole work tree), in lexical order, with its
// repository path. It never follows a symbolic link: root or a folder on
// its way being one, or a link met in the walk, is skipped with a warning
// naming it. A missing root is no error. fn may return fs.SkipDir for a
// folder.
func (m *Memory) WalkFiles(ctx context.Context, root string, fn func(p string, d fs.DirEntry) error) error {
	return links.Walk(ctx, m.Dir, root, m.WarnLink, fn)
}

// FS returns the work tree as an fs.FS whose Open never follows a
// symbolic link (for the search index's hit text, say). It opens regular
// files only.
func (m *Memory) FS() fs.FS { return links.FS(m.Dir) }

// Links lists the symbolic links of the memory: those in the work tree
// (outside .git and the state folder), which cairn neither reads nor
// commits, and those HEAD records (mode 120000, from an old commit or a
// remote), which a clone would make. Both sorted.
func (m *Memory) Links(ctx context.Context) (worktree, committed []string, err error) {
	if worktree, err = links.InWorktree(ctx, m.Dir, StateDir); err != nil {
		return nil, nil, err
	}
	err = m.store.WithRepo(func(r *git.Repository) (err error) {
		committed, err = links.InHead(r)
		return err
	})
	if err != nil {
		return nil, nil, fmt.Errorf("look for links in HEAD: %w", err)
	}
	return worktree, committed, nil
}
