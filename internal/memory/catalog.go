package memory

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/cairn-mem/cairn/gitstore"
	"github.com/cairn-mem/cairn/internal/memory/catalog"
	"github.com/cairn-mem/cairn/internal/model"
)

// The catalogue (package catalog) describes the files under each item
// folder in .state/catalog-ROOT.tsv. It is derived, never trusted over
// the files: each read brings it up to HEAD from the diff since the
// commit it reflects (or rebuilds it when that commit is gone or the
// file is damaged), and up to the work tree by the sizes and times of
// core/ and sessions/, where hand edits and captures happen, and of the
// archive's items. A checkpoint brings the folders it changed up to
// date (Memory.followCatalog).

// catalogMemo keeps the parts read, for a long-running process: a part
// is read again only when its file changed.
type catalogMemo struct {
	mu    sync.Mutex
	parts map[string]*memoPart
}

type memoPart struct {
	part        *catalog.Part
	size, mtime int64 // of the file it was read from or written to
}

func catalogFile(root string) string { return "catalog-" + root + ".tsv" }

// Catalog returns the rows of the files under roots (all item folders
// when none is named), in path order, up to date with HEAD and the work
// tree. The rows are shared: callers must not change them.
func (m *Memory) Catalog(ctx context.Context, roots ...string) ([]*catalog.Row, error) {
	if len(roots) == 0 {
		roots = model.ItemRoots
	}
	head, top, err := m.headTree(ctx, "HEAD")
	if err != nil {
		return nil, fmt.Errorf("catalogue: %w", err)
	}
	m.cat.mu.Lock()
	defer m.cat.mu.Unlock()
	var rows []*catalog.Row
	for _, root := range roots {
		p, err := m.syncPart(ctx, root, head, rootTree(top, root), true)
		if err != nil {
			return nil, err
		}
		rows = append(rows, p.Sorted()...)
	}
	return rows, nil
}

// headTree resolves rev and lists its root tree; a branch without a
// commit yet has an empty tree.
func (m *Memory) headTree(ctx context.Context, rev string) (string, []gitstore.TreeEntry, error) {
	head, err := m.store.Resolve(rev)
	if errors.Is(err, gitstore.ErrUnknownRev) {
		return "", nil, nil
	}
	if err != nil {
		return "", nil, err
	}
	tree, err := m.store.TreeOf(ctx, head)
	if err != nil {
		return "", nil, err
	}
	top, err := m.store.Tree(ctx, tree)
	return head, top, err
}

// rootTree is the id of the tree named root among a root tree's entries.
func rootTree(top []gitstore.TreeEntry, root string) string {
	for _, e := range top {
		if e.Name == root && e.Mode.IsDir() {
			return e.Hash
		}
	}
	return ""
}

// syncPart brings root's part up to commit head, whose tree for root is
// tree, and, when worktree is set, up to the work tree; it writes the
// part back when that changed it. The caller holds m.cat.mu.
func (m *Memory) syncPart(ctx context.Context, root, head, tree string, worktree bool) (*catalog.Part, error) {
	p := m.loadPart(root)
	changed := false
	if p == nil || p.Root != root {
		var err error
		if p, err = m.rebuildPart(ctx, root, head, tree); err != nil {
			return nil, err
		}
		changed = true
	} else if p.Tree != tree {
		var diffs []gitstore.FileDiff
		err := errors.New("no commit")
		if p.Commit != "" && head != "" { // Diff takes "" for HEAD or the work tree
			diffs, err = m.store.Diff(ctx, gitstore.DiffOptions{From: p.Commit, To: head, Paths: []string{root}})
		}
		if err != nil {
			// The commit it reflects is gone (a gc after a reset, a
			// copied .state): describe the files again.
			m.warn(fmt.Sprintf("catalogue of %s/ rebuilt: %v", root, err))
			if p, err = m.rebuildPart(ctx, root, head, tree); err != nil {
				return nil, err
			}
		} else {
			p = clonePart(p)
			for _, d := range diffs {
				delete(p.Rows, d.Path)
				if d.Action != gitstore.Deleted && catalog.Relevant(d.Path) {
					if r := catalog.Describe(d.Path, d.New); kept(root, r) {
						p.Rows[d.Path] = r
					}
				}
			}
			p.Commit, p.Tree = head, tree
		}
		changed = true
	}
	if worktree {
		q, err := m.worktreePart(ctx, p)
		if err != nil {
			return nil, err
		}
		if q != p {
			p, changed = q, true
		}
	}
	if changed {
		m.storePart(p)
	}
	return p, nil
}

// loadPart returns root's part as last read or written, reading its file
// again when another process rewrote it; nil when there is none or it
// is damaged, which is said once.
func (m *Memory) loadPart(root string) *catalog.Part {
	name := m.StatePath(catalogFile(root))
	fi, err := os.Stat(name)
	if err != nil {
		return nil
	}
	if mp := m.cat.parts[root]; mp != nil && mp.size == fi.Size() && mp.mtime == fi.ModTime().UnixNano() {
		return mp.part
	}
	data, err := os.ReadFile(name)
	if err != nil {
		return nil
	}
	p, err := catalog.Read(data)
	if err != nil {
		// Removed, so that it is said once: the next read makes it again.
		os.Remove(name)
		m.warn(fmt.Sprintf("catalogue of %s/ rebuilt: %s: %v", root, name, err))
		return nil
	}
	m.memoPart(root, p, fi)
	return p
}

func (m *Memory) memoPart(root string, p *catalog.Part, fi fs.FileInfo) {
	if m.cat.parts == nil {
		m.cat.parts = make(map[string]*memoPart)
	}
	m.cat.parts[root] = &memoPart{part: p, size: fi.Size(), mtime: fi.ModTime().UnixNano()}
}

// storePart writes p; failing to is no error, only slower next time.
func (m *Memory) storePart(p *catalog.Part) {
	name := m.StatePath(catalogFile(p.Root))
	if err := p.Write(name); err != nil {
		delete(m.cat.parts, p.Root)
		return
	}
	if fi, err := os.Stat(name); err == nil {
		m.memoPart(p.Root, p, fi)
	}
}

func clonePart(p *catalog.Part) *catalog.Part {
	q := *p
	q.Rows = make(map[string]*catalog.Row, len(p.Rows))
	for k, r := range p.Rows {
		q.Rows[k] = r
	}
	return &q
}

// retake returns a copy of p whose times are taken at now. A row that
// was racy at p's time is smudged (its time cleared, so it is read
// again): at now it would look settled, and a change made in the same
// tick as its time would go unseen. git smudges its index entries so.
func retake(p *catalog.Part, now int64) *catalog.Part {
	q := clonePart(p)
	for k, r := range q.Rows {
		if r.MTime != 0 && p.Racy(r) {
			c := *r
			c.MTime = 0
			q.Rows[k] = &c
		}
	}
	q.Written = now
	return q
}

// rebuildPart describes every file under root in the work tree. The
// files are read by a few workers: at 100,000 files the opens and reads
// dominate, and they overlap.
func (m *Memory) rebuildPart(ctx context.Context, root, head, tree string) (*catalog.Part, error) {
	p := catalog.NewPart(root)
	p.Commit, p.Tree, p.Written = head, tree, time.Now().UnixNano()
	if root == "core" {
		os.Remove(m.StatePath("core.tsv")) // the core items' cache of earlier versions
	}
	type file struct {
		path string
		d    fs.DirEntry
	}
	var files []file
	err := m.WalkFiles(ctx, root, func(path string, d fs.DirEntry) error {
		if !d.IsDir() && catalog.Relevant(path) {
			files = append(files, file{path, d})
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("catalogue of %s/: %w", root, err)
	}
	rows := make([]*catalog.Row, len(files))
	errs := make([]error, len(files))
	next := make(chan int)
	var wg sync.WaitGroup
	for range min(2*runtime.GOMAXPROCS(0), 8) {
		wg.Go(func() {
			for i := range next {
				rows[i], errs[i] = readRow(m, files[i].path, files[i].d)
			}
		})
	}
	for i := range files {
		next <- i
	}
	close(next)
	wg.Wait()
	for i, r := range rows {
		m.WarnLink(errs[i])
		if r != nil && kept(root, r) {
			p.Rows[r.Path] = r
		}
	}
	return p, ctx.Err()
}

// kept reports whether r is kept in root's part. The archive's is not
// compared with the work tree file by file (worktreePart), so its logs
// are left out: it keeps what listing needs, items, sessions' state and
// summaries.
func kept(root string, r *catalog.Row) bool {
	return root != "archive" || r.Type != catalog.Other || path.Base(r.Path) == "summary.md"
}

// describeFile reads and describes a work-tree file; nil when it went
// away or cannot be read (a link is warned of and left out).
func (m *Memory) describeFile(path string, d fs.DirEntry) *catalog.Row {
	r, err := readRow(m, path, d)
	m.WarnLink(err)
	return r
}

// readRow is describeFile without the warning, for the rebuild's
// workers; the error says why r is nil.
func readRow(m *Memory, path string, d fs.DirEntry) (*catalog.Row, error) {
	fi, err := d.Info()
	if err != nil {
		return nil, err
	}
	data, err := m.store.ReadFile(path)
	if err != nil {
		return nil, err
	}
	r := catalog.Describe(path, data)
	if int64(len(data)) == fi.Size() {
		r.MTime = fi.ModTime().UnixNano()
	}
	return r, nil
}

// worktreePart compares p with the work tree: every relevant file under
// core/ and sessions/, and the archive's items, by size and time. It
// returns p itself when nothing differs, else a changed copy.
func (m *Memory) worktreePart(ctx context.Context, p *catalog.Part) (*catalog.Part, error) {
	var q *catalog.Part // the copy, made at the first difference
	now := time.Now().UnixNano()
	set := func(path string, r *catalog.Row) {
		if q == nil {
			q = retake(p, now)
		}
		if r == nil {
			delete(q.Rows, path)
		} else {
			q.Rows[path] = r
		}
	}
	check := func(path string, d fs.DirEntry) {
		old := p.Rows[path]
		fi, err := d.Info()
		if err != nil {
			if old != nil {
				set(path, nil)
			}
			return
		}
		if old != nil && old.Size == fi.Size() && old.MTime == fi.ModTime().UnixNano() && !p.Racy(old) {
			return
		}
		r := m.describeFile(path, d)
		if r == nil && old == nil {
			return // unreadable, and not described before
		}
		if r != nil && old != nil && r.Blob == old.Blob {
			if r.MTime == old.MTime {
				return // racy, and still the same
			}
			same := *old // keep the row; only its time is new
			same.MTime = r.MTime
			r = &same
		}
		set(path, r)
	}
	if p.Root == "archive" {
		// Sessions move here whole, by checkpoints; what is edited by
		// hand here is an item.
		for path, r := range p.Rows {
			if r.Type != catalog.Item && r.Type != catalog.Broken {
				continue
			}
			fi, err := os.Lstat(filepath.Join(m.Dir, filepath.FromSlash(path)))
			if err != nil || !fi.Mode().IsRegular() {
				set(path, nil)
				continue
			}
			check(path, fs.FileInfoToDirEntry(fi))
		}
	} else {
		seen := make(map[string]bool, len(p.Rows))
		err := m.WalkFiles(ctx, p.Root, func(path string, d fs.DirEntry) error {
			if d.IsDir() {
				return nil
			}
			if !catalog.Relevant(path) {
				return nil
			}
			seen[path] = true
			check(path, d)
			return nil
		})
		if err != nil {
			return nil, fmt.Errorf("catalogue of %s/: %w", p.Root, err)
		}
		for path := range p.Rows {
			if !seen[path] {
				set(path, nil)
			}
		}
	}
	if q == nil {
		return p, nil
	}
	return q, nil
}

// followCatalog brings the parts of the folders a checkpoint changed up
// to it: from the files it names when a part described its parent (its
// cost follows the change), else from the diff. A folder it did not
// touch keeps its part, whose tree id still matches; a merge, which
// names no changes, has every part compared.
func (m *Memory) followCatalog(ctx context.Context, cp *gitstore.Checkpoint) {
	touched := map[string]bool{}
	for _, c := range cp.Changes {
		root, _, _ := strings.Cut(c.Path, "/")
		if slices.Contains(model.ItemRoots, root) {
			touched[root] = true
		}
	}
	if len(cp.Changes) == 0 {
		for _, root := range model.ItemRoots {
			touched[root] = true
		}
	}
	if len(touched) == 0 {
		return
	}
	m.cat.mu.Lock()
	defer m.cat.mu.Unlock()
	parts := map[string]*catalog.Part{}
	for root := range touched {
		if p := m.loadPart(root); p != nil {
			parts[root] = p
		} // else made at the next read
	}
	if len(parts) == 0 {
		return
	}
	head, top, err := m.headTree(ctx, cp.Hash)
	if err != nil {
		return
	}
	_, parent, perr := m.headTree(ctx, cp.Hash+"~1")
	for _, root := range model.ItemRoots {
		p := parts[root]
		if p == nil {
			continue
		}
		if perr == nil && len(cp.Changes) > 0 && p.Tree == rootTree(parent, root) {
			q := retake(p, time.Now().UnixNano())
			for _, c := range cp.Changes {
				if !strings.HasPrefix(c.Path, root+"/") {
					continue
				}
				delete(q.Rows, c.Path)
				if c.Action == gitstore.Deleted || !catalog.Relevant(c.Path) {
					continue
				}
				fi, err := os.Lstat(filepath.Join(m.Dir, filepath.FromSlash(c.Path)))
				if err != nil || !fi.Mode().IsRegular() {
					continue // gone since: the next read compares the folder again
				}
				if r := m.describeFile(c.Path, fs.FileInfoToDirEntry(fi)); r != nil && kept(root, r) {
					q.Rows[c.Path] = r
				}
			}
			q.Commit, q.Tree = head, rootTree(top, root)
			m.storePart(q)
			continue
		}
		if _, err := m.syncPart(ctx, root, head, rootTree(top, root), false); err != nil && !errors.Is(err, context.Canceled) {
			m.warn(fmt.Sprintf("catalogue of %s/: %v", root, err))
		}
	}
}
