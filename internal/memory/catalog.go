package memory

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path"
	"path/filepath"

	"github.com/cairn-mem/cairn/gitstore"
	"github.com/cairn-mem/cairn/internal/memory/catalog"
	"github.com/cairn-mem/cairn/internal/model"
	"github.com/cairn-mem/cairn/internal/safefile"
	"golang.org/x/sys/unix"
)

// Catalog returns the catalogue's rows of the files under roots (all
// item folders when none is named), in path order, up to date with HEAD
// and the work tree (package catalog: .state/catalog-ROOT.tsv, brought
// up to HEAD from the diff, up to the work tree by size and time, and by
// each checkpoint from what it changed). The rows are shared: callers
// must not change them.
func (m *Memory) Catalog(ctx context.Context, roots ...string) ([]*catalog.Row, error) {
	return m.cat.Rows(ctx, roots...)
}

// followCatalog brings the catalogue up to a checkpoint (catalog.Keeper.Follow).
func (m *Memory) followCatalog(ctx context.Context, cp *gitstore.Checkpoint) {
	var changes []catalog.Change
	if len(cp.Changes) > 0 {
		changes = make([]catalog.Change, len(cp.Changes))
		for i, c := range cp.Changes {
			changes[i] = catalog.Change{Path: c.Path, Deleted: c.Action == gitstore.Deleted}
		}
	}
	m.cat.Follow(ctx, cp.Hash, changes)
}

// catalogSource is a memory as its catalogue reads it.
type catalogSource struct{ m *Memory }

func (s catalogSource) Trees(ctx context.Context, rev string) (string, map[string]string, error) {
	head, err := s.m.store.Resolve(rev)
	if errors.Is(err, gitstore.ErrUnknownRev) {
		return "", nil, nil
	}
	if err != nil {
		return "", nil, err
	}
	tree, err := s.m.store.TreeOf(ctx, head)
	if err != nil {
		return "", nil, err
	}
	top, err := s.m.store.Tree(ctx, tree)
	if err != nil {
		return "", nil, err
	}
	trees := make(map[string]string, len(model.ItemRoots))
	for _, e := range top {
		if e.Mode.IsDir() {
			trees[e.Name] = e.Hash
		}
	}
	return head, trees, nil
}

func (s catalogSource) Diff(ctx context.Context, from, to, root string) ([]catalog.Change, error) {
	diffs, err := s.m.store.Diff(ctx, gitstore.DiffOptions{From: from, To: to, Paths: []string{root}})
	if err != nil {
		return nil, err
	}
	out := make([]catalog.Change, len(diffs))
	for i, d := range diffs {
		out[i] = catalog.Change{Path: d.Path, Deleted: d.Action == gitstore.Deleted || d.New == nil, Data: d.New}
	}
	return out, nil
}

func (s catalogSource) Walk(ctx context.Context, root string, fn func(string, fs.DirEntry) error) error {
	return s.m.WalkFiles(ctx, root, fn)
}

func (s catalogSource) ReadFile(p string) ([]byte, error) { return s.m.store.ReadFile(p) }

func (s catalogSource) Lstat(p string) (fs.FileInfo, error) {
	return os.Lstat(filepath.Join(s.m.Dir, filepath.FromSlash(p)))
}

// LstatIn looks at the files names under folder dir through a descriptor
// of it (catalog.FolderSource). The folder is not reached through a link
// as its last part, and its files are not followed, as with Lstat.
func (s catalogSource) LstatIn(dir string, names []string, out []fs.FileInfo) {
	fd, err := unix.Open(filepath.Join(s.m.Dir, filepath.FromSlash(dir)), unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
	if err != nil {
		return // none looked at: as gone
	}
	defer unix.Close(fd)
	for i, name := range names {
		var st unix.Stat_t
		if unix.Fstatat(fd, name, &st, unix.AT_SYMLINK_NOFOLLOW) == nil {
			out[i] = catalog.StatInfo(path.Base(name), &st)
		}
	}
}

// ListIn lists folder dir's entries but links, which are warned of as
// WalkFiles does (catalog.FolderSource); none when it is gone.
func (s catalogSource) ListIn(dir string) ([]fs.DirEntry, error) {
	f, err := os.OpenFile(filepath.Join(s.m.Dir, filepath.FromSlash(dir)), os.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW, 0)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil // removed meanwhile
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	ents, err := f.ReadDir(-1)
	out := ents[:0]
	for _, e := range ents {
		if e.Type()&fs.ModeSymlink != 0 {
			s.m.WarnLink(&safefile.LinkError{Path: dir + "/" + e.Name()})
			continue
		}
		out = append(out, e)
	}
	return out, err
}

func (s catalogSource) Warn(msg string)         { s.m.warn(msg) }
func (s catalogSource) WarnLink(err error) bool { return s.m.WarnLink(err) }
