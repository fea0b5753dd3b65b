package catalog

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/cairn-mem/cairn/internal/model"
	"golang.org/x/sys/unix"
)

// Source is what keeping a catalogue needs of a memory: its history and
// its work tree, never through a symbolic link.
type Source interface {
	// Trees resolves rev to a commit and the ids of the item folders'
	// trees there, by folder; "" and none for a branch without commits.
	Trees(ctx context.Context, rev string) (commit string, trees map[string]string, err error)
	// Diff lists the files under root that differ between two commits,
	// with their new content.
	Diff(ctx context.Context, from, to, root string) ([]Change, error)
	// Walk calls fn for each file and folder under root in the work tree.
	Walk(ctx context.Context, root string, fn func(path string, d fs.DirEntry) error) error
	// ReadFile and Lstat are called from several goroutines at once.
	ReadFile(path string) ([]byte, error)
	Lstat(path string) (fs.FileInfo, error)
	Warn(msg string)
	// WarnLink warns that err's link was skipped, when err is about one.
	WarnLink(err error) bool
}

// Change is a file a commit or diff changed.
type Change struct {
	Path    string
	Deleted bool
	Data    []byte // the new content, from Diff
}

// FileName is the name of root's part in the state folder.
func FileName(root string) string { return "catalog-" + root + ".tsv" }

// A Keeper keeps a memory's catalogue: its parts' files in a folder
// (.state), and the parts last read, for a long-running process, which
// reads a file again only when its size or time moved. It is safe for
// concurrent use.
type Keeper struct {
	src Source
	dir string

	mu    sync.Mutex
	parts map[string]*memoPart
}

type memoPart struct {
	part        *Part
	size, mtime int64 // of the file it was read from or written to
}

// NewKeeper returns a Keeper of src's catalogue, in the folder dir.
func NewKeeper(src Source, dir string) *Keeper { return &Keeper{src: src, dir: dir} }

// Rows returns the rows of the files under roots (all item folders when
// none is named), in path order, up to date with HEAD and the work tree.
// The rows are shared: callers must not change them.
func (k *Keeper) Rows(ctx context.Context, roots ...string) ([]*Row, error) {
	if len(roots) == 0 {
		roots = model.ItemRoots
	}
	head, trees, err := k.src.Trees(ctx, "HEAD")
	if err != nil {
		return nil, fmt.Errorf("catalogue: %w", err)
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	var rows []*Row
	for _, root := range roots {
		p, err := k.syncPart(ctx, root, head, trees[root], true)
		if err != nil {
			return nil, err
		}
		rows = append(rows, p.Sorted()...)
	}
	return rows, nil
}

// syncPart brings root's part up to commit head, whose tree for root is
// tree, and, when worktree is set, up to the work tree; it writes the
// part back when that changed it. The caller holds k.mu.
func (k *Keeper) syncPart(ctx context.Context, root, head, tree string, worktree bool) (*Part, error) {
	p := k.loadPart(root)
	changed := false
	if p == nil || p.Root != root {
		var err error
		if p, err = k.rebuildPart(ctx, root, head, tree); err != nil {
			return nil, err
		}
		changed = true
	} else if p.Tree != tree {
		var diffs []Change
		err := errors.New("no commit")
		if p.Commit != "" && head != "" {
			diffs, err = k.src.Diff(ctx, p.Commit, head, root)
		}
		if err != nil {
			// The commit it reflects is gone (a gc after a reset, a
			// copied .state): describe the files again.
			k.src.Warn(fmt.Sprintf("catalogue of %s/ rebuilt: %v", root, err))
			if p, err = k.rebuildPart(ctx, root, head, tree); err != nil {
				return nil, err
			}
		} else {
			p = clonePart(p)
			for _, d := range diffs {
				delete(p.Rows, d.Path)
				p.untrust(d.Path)
				if !d.Deleted && Relevant(d.Path) {
					if r := Describe(d.Path, d.Data); kept(root, r) {
						p.Rows[d.Path] = r
					}
				}
			}
			p.Commit, p.Tree = head, tree
		}
		changed = true
	}
	dirsOnly := false
	if worktree {
		q, only, err := k.worktreePart(ctx, p)
		if err != nil {
			return nil, err
		}
		if q != p {
			dirsOnly = only && !changed
			p, changed = q, true
		}
	}
	switch {
	case dirsOnly:
		k.storeDirs(p)
	case changed:
		k.storePart(p)
	}
	return p, nil
}

// loadPart returns root's part as last read or written, reading its file
// again when another process rewrote it; nil when there is none or it
// is damaged, which is said once.
func (k *Keeper) loadPart(root string) *Part {
	name := filepath.Join(k.dir, FileName(root))
	fi, err := os.Stat(name)
	if err != nil {
		return nil
	}
	if mp := k.parts[root]; mp != nil && mp.size == fi.Size() && mp.mtime == fi.ModTime().UnixNano() {
		return mp.part
	}
	data, err := os.ReadFile(name)
	if err != nil {
		return nil
	}
	p, err := Read(data)
	if err != nil {
		// Removed, so that it is said once: the next read makes it again.
		os.Remove(name)
		k.src.Warn(fmt.Sprintf("catalogue of %s/ rebuilt: %s: %v", root, name, err))
		return nil
	}
	dirs, _ := os.ReadFile(DirsName(name)) // none: the folders are listed
	p.ReadDirs(dirs)
	k.memoPart(root, p, fi)
	return p
}

func (k *Keeper) memoPart(root string, p *Part, fi fs.FileInfo) {
	if k.parts == nil {
		k.parts = make(map[string]*memoPart)
	}
	k.parts[root] = &memoPart{part: p, size: fi.Size(), mtime: fi.ModTime().UnixNano()}
}

// storePart writes p; failing to is no error, only slower next time.
func (k *Keeper) storePart(p *Part) {
	name := filepath.Join(k.dir, FileName(p.Root))
	if err := p.Write(name); err != nil {
		delete(k.parts, p.Root)
		return
	}
	if fi, err := os.Stat(name); err == nil {
		k.memoPart(p.Root, p, fi)
	}
}

// storeDirs writes p's folders' times only: its rows and time are those
// of its file, which stays as loadPart found it, so the memo of that
// file now holds p. (Stat'ed again, the file could be another process's
// newer one, which p is not.)
func (k *Keeper) storeDirs(p *Part) {
	if err := p.WriteDirs(filepath.Join(k.dir, FileName(p.Root))); err != nil {
		delete(k.parts, p.Root)
		return
	}
	if mp := k.parts[p.Root]; mp != nil {
		mp.part = p
	}
}

func clonePart(p *Part) *Part {
	q := *p // q.sorted, p's order, serves q's Sorted
	q.Rows = maps.Clone(p.Rows)
	q.Dirs = maps.Clone(p.Dirs)
	if q.Dirs == nil {
		q.Dirs = make(map[string]int64)
	}
	return &q
}

// untrust marks the listing of the folder holding path as not to be
// trusted: the rows of its files changed otherwise than by listing it.
func (p *Part) untrust(file string) {
	if d := path.Dir(file); p.Dirs[d] != 0 {
		p.Dirs[d] = 0
	}
}

// dirTime is the modification time of folder d, 0 when it cannot be had.
func dirTime(d fs.DirEntry) int64 {
	fi, err := d.Info()
	if err != nil {
		return 0
	}
	return fi.ModTime().UnixNano()
}

// retake returns a copy of p whose times are taken at now. A row that
// was racy at p's time is smudged (its time cleared, so it is read
// again): at now it would look settled, and a change made in the same
// tick as its time would go unseen. git smudges its index entries so.
func retake(p *Part, now int64) *Part {
	q := clonePart(p)
	for k, r := range q.Rows {
		if r.MTime != 0 && p.Racy(r) {
			c := *r
			c.MTime = 0
			q.Rows[k] = &c
		}
	}
	for d, t := range q.Dirs {
		if p.RacyDir(t) {
			q.Dirs[d] = 0 // so with a folder's time
		}
	}
	q.Written, q.DirsTaken = now, 0
	return q
}

// rebuildPart describes every file under root in the work tree. The
// files are read by a few workers: at 100,000 files the opens and reads
// dominate, and they overlap.
func (k *Keeper) rebuildPart(ctx context.Context, root, head, tree string) (*Part, error) {
	p := NewPart(root)
	p.Commit, p.Tree, p.Written = head, tree, time.Now().UnixNano()
	if root == "core" {
		os.Remove(filepath.Join(k.dir, "core.tsv")) // the core items' cache of earlier versions
	}
	type file struct {
		path string
		d    fs.DirEntry
	}
	var files []file
	err := k.src.Walk(ctx, root, func(path string, d fs.DirEntry) error {
		if d.IsDir() {
			p.Dirs[path] = dirTime(d)
		} else if Relevant(path) {
			files = append(files, file{path, d})
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("catalogue of %s/: %w", root, err)
	}
	rows := make([]*Row, len(files))
	errs := make([]error, len(files))
	next := make(chan int)
	var wg sync.WaitGroup
	for range min(2*runtime.GOMAXPROCS(0), 8) {
		wg.Go(func() {
			for i := range next {
				rows[i], errs[i] = readRow(k.src, files[i].path, files[i].d)
			}
		})
	}
	for i := range files {
		next <- i
	}
	close(next)
	wg.Wait()
	for i, r := range rows {
		k.src.WarnLink(errs[i])
		if r != nil && kept(root, r) {
			p.Rows[r.Path] = r
		} else {
			p.untrust(files[i].path)
		}
	}
	return p, ctx.Err()
}

// kept reports whether r is kept in root's part. The archive's is not
// compared with the work tree file by file (worktreePart), so its logs
// are left out: it keeps what listing needs, items, sessions' state and
// summaries.
func kept(root string, r *Row) bool {
	return root != "archive" || r.Type != Other || path.Base(r.Path) == "summary.md"
}

// describeFile reads and describes a work-tree file; nil when it went
// away or cannot be read (a link is warned of and left out).
func (k *Keeper) describeFile(path string, d fs.DirEntry) *Row {
	r, err := readRow(k.src, path, d)
	k.src.WarnLink(err)
	return r
}

// readRow is describeFile without the warning, for the rebuild's
// workers; the error says why r is nil.
func readRow(src Source, path string, d fs.DirEntry) (*Row, error) {
	fi, err := d.Info()
	if err != nil {
		return nil, err
	}
	data, err := src.ReadFile(path)
	if err != nil {
		return nil, err
	}
	r := Describe(path, data)
	if int64(len(data)) == fi.Size() {
		r.MTime = fi.ModTime().UnixNano()
	}
	return r, nil
}

// worktreePart compares p with the work tree: every relevant file under
// core/ and sessions/, and the archive's items, by size and time. It
// returns p itself when nothing differs, else a changed copy.
//
// A folder whose time is the one it had when its files were last listed
// (and far enough from when that time was taken, as with a file's) holds
// the same names: adding, removing or renaming a file sets its folder's
// time. Its files are not listed again, only looked at one by one (an
// edit in place sets the file's time, not its folder's), and a listing
// that gave no row for a file there (unreadable) or rows changed since
// otherwise (a commit's diff) is not trusted. At 100,000 files this saves
// listing and sorting 5,000 core items on every pack.
//
// dirsOnly says the copy differs from p in its folders' times alone: its
// rows and their time stand, and only the folders' times, taken now
// (DirsTaken), need writing. Right after a checkpoint that added an item,
// the pack lists the item's folder again (the checkpoint untrusted it);
// writing the whole part for its time cost a cold pack 3-5 ms at 100,000
// files.
func (k *Keeper) worktreePart(ctx context.Context, p *Part) (q *Part, dirsOnly bool, err error) {
	// q is the copy, made at the first difference.
	now := time.Now().UnixNano()
	timed := map[string]*Row{}
	copyPart := func() {
		if q == nil {
			q = retake(p, now)
		}
	}
	set := func(path string, r *Row) {
		copyPart()
		if r == nil {
			delete(q.Rows, path)
		} else {
			q.Rows[path] = r
		}
	}
	// check compares the file at path with its row old (p.Rows[path]);
	// false when it has none after (unreadable, or gone).
	check := func(path string, old *Row, d fs.DirEntry) bool {
		fi, err := d.Info()
		if err != nil {
			if old != nil {
				set(path, nil)
			}
			return false
		}
		if old != nil && old.Size == fi.Size() && old.MTime == fi.ModTime().UnixNano() && !p.Racy(old) {
			return true
		}
		r := k.describeFile(path, d)
		if r == nil && old == nil {
			return false // unreadable, and not described before
		}
		if r != nil && old != nil && r.Blob == old.Blob {
			if r.MTime == old.MTime {
				return true // racy, and still the same
			}
			same := *old // keep the row; only its time is new
			same.MTime = r.MTime
			if old.MTime == 0 {
				timed[path] = &same // smudged: given its time back below
				return true
			}
			r = &same
		}
		set(path, r)
		return r != nil
	}
	// retime gives the smudged rows found unchanged their times back,
	// when the part is written anyway or they are many: left smudged, a
	// row costs reading its file at each read; given its time, the whole
	// part is written, and right after a checkpoint the item a pack
	// before had added is such a row (retake smudged it).
	retime := func() {
		if q != nil || len(timed) > maxSmudged {
			for path, r := range timed {
				set(path, r)
			}
		}
	}
	if p.Root == "archive" {
		// Sessions move here whole, by checkpoints; what is edited by
		// hand here is an item.
		for path, r := range p.Rows {
			if r.Type != Item && r.Type != Broken {
				continue
			}
			fi, err := k.src.Lstat(path)
			if err != nil || !fi.Mode().IsRegular() {
				set(path, nil)
				continue
			}
			check(path, r, fs.FileInfoToDirEntry(fi))
		}
		retime()
		if q == nil {
			return p, false, nil
		}
		return q, false, nil
	}

	// The files of trusted folders, and those of folders listed again,
	// looked at below: lstatAll makes fewer and cheaper calls than a
	// listing's own look at each file.
	var trusted, looked []string
	// olds are the rows of trusted, side by side: looking each up again
	// cost 0.4 ms of a pack.
	var olds []*Row
	dirs := make(map[string]int64, len(p.Dirs)) // the folders' times now
	listed := func(name string, d fs.DirEntry) error {
		if d.IsDir() {
			dirs[name] = dirTime(d) // taken before the folder is read
			return nil
		}
		if !Relevant(name) {
			return nil
		}
		looked = append(looked, name) // looked at below, with the trusted, and seen there
		return nil
	}
	type file struct {
		path string
		row  *Row
	}
	files, subdirs := map[string][]file{}, map[string][]string{}
	for f, r := range p.Rows {
		d := dirOf(f)
		files[d] = append(files[d], file{f, r})
	}
	for d := range p.Dirs {
		if d != p.Root {
			subdirs[path.Dir(d)] = append(subdirs[path.Dir(d)], d)
		}
	}
	var visit func(dir string) error
	visit = func(dir string) error {
		was := p.Dirs[dir]
		fi, err := k.src.Lstat(dir)
		if err != nil || !fi.IsDir() || was == 0 || fi.ModTime().UnixNano() != was || p.RacyDir(was) {
			if in, ok := k.src.(FolderSource); ok && err == nil && fi.IsDir() {
				return listIn(ctx, in, dir, fi, listed)
			}
			return k.src.Walk(ctx, dir, listed)
		}
		dirs[dir] = was
		for _, f := range files[dir] {
			trusted, olds = append(trusted, f.path), append(olds, f.row)
		}
		for _, d := range subdirs[dir] {
			if err := visit(d); err != nil {
				return err
			}
		}
		return ctx.Err()
	}
	if err := visit(p.Root); err != nil {
		return nil, false, fmt.Errorf("catalogue of %s/: %w", p.Root, err)
	}
	// The rows looked at: every trusted file has one, and so may a file
	// listed again. The others' files are gone (with their folder, or
	// from a folder listed again), which a set of the paths looked at
	// finds below; at 5,700 core items it cost 1-2 ms of every pack.
	seen := len(trusted)
	for _, f := range looked {
		r := p.Rows[f]
		if r != nil {
			seen++
		}
		trusted, olds = append(trusted, f), append(olds, r)
	}
	for i, fi := range k.lstatAll(trusted) {
		f := trusted[i]
		if fi == nil || !fi.Mode().IsRegular() {
			if olds[i] != nil {
				set(f, nil) // gone or replaced
			}
			dirs[path.Dir(f)] = 0
			continue
		}
		if !check(f, olds[i], fs.FileInfoToDirEntry(fi)) {
			dirs[path.Dir(f)] = 0
		}
	}
	if seen < len(p.Rows) {
		at := make(map[string]bool, len(trusted))
		for _, f := range trusted {
			at[f] = true
		}
		for path := range p.Rows {
			if !at[path] {
				set(path, nil)
			}
		}
	}
	retime()
	// A folder listed too close to p's time to be trusted is trusted
	// once that time is taken again, later.
	settles := false
	for _, t := range dirs {
		settles = settles || t != 0 && p.RacyDir(t) && t < now-int64(time.Second)
	}
	if q == nil && (settles || dirsMoved(p.Dirs, dirs, now)) {
		// The rows and their time stand; the folders' times are those
		// taken now.
		q = clonePart(p)
		q.Dirs, q.DirsTaken = dirs, now
		return q, true, nil
	}
	if q == nil {
		return p, false, nil
	}
	q.Dirs = dirs
	return q, false, nil
}

// maxSmudged is the most smudged rows found unchanged that a read leaves
// smudged rather than write the part for their times.
const maxSmudged = 32

// dirsMoved reports whether the folders' times now (dirs, taken at now)
// differ from was in a way the next read would see. A folder untrusted
// in was and listed now within a second of now is untrusted at the next
// read all the same (racy), so only that change does not call for
// writing the part: right after a checkpoint that added a file, the pack
// lists the folder again, and rewriting 5,000 core rows for a time that
// cannot be trusted yet cost a cold pack 6 ms.
func dirsMoved(was, dirs map[string]int64, now int64) bool {
	for d, t := range dirs {
		w, ok := was[d]
		if !ok || w != t && (w != 0 || t != 0 && t < now-int64(time.Second)) {
			return true
		}
	}
	for d := range was {
		if _, ok := dirs[d]; !ok {
			return true
		}
	}
	return false
}

// listIn calls fn as Walk(dir, fn) would, of folder dir, whose
// information is fi, through in: one listing of the folder, in no order,
// where a walk sorts it and makes each path again from the root (a
// folder of 1,500 core items, listed again after a checkpoint added to
// it: about 4 against 1.5 ms). Its folders, if any, are walked.
func listIn(ctx context.Context, in FolderSource, dir string, fi fs.FileInfo, fn func(string, fs.DirEntry) error) error {
	if err := fn(dir, fs.FileInfoToDirEntry(fi)); err != nil {
		return err
	}
	ents, err := in.ListIn(dir)
	if err != nil {
		return err
	}
	for _, e := range ents {
		name := dir + "/" + e.Name()
		if e.IsDir() {
			err = in.Walk(ctx, name, fn)
		} else {
			err = fn(name, e)
		}
		if err != nil {
			return err
		}
	}
	return ctx.Err()
}

// FolderSource is a Source that can look at several files under one
// folder through a descriptor of that folder (fstatat), which resolves
// a path of two parts where Lstat resolves one from the root: at 100,000
// files, 10.7 against 12.7 ms of a warm pack's CPU in profiles.
type FolderSource interface {
	Source
	// LstatIn sets out[i] to what Lstat(dir/names[i]) returns, nil
	// where that fails; a name may hold slashes (no part of it but the
	// last is a link, as with Lstat). It is called from several
	// goroutines at once.
	LstatIn(dir string, names []string, out []fs.FileInfo)
	// ListIn lists folder dir's entries, in no order, but the links,
	// which it warns of as Walk does; none when dir is gone.
	ListIn(dir string) ([]fs.DirEntry, error)
}

// StatInfo is a file's unix.Stat_t, of an fstatat, as an fs.FileInfo, as
// os.Lstat gives it, for a FolderSource.
func StatInfo(name string, st *unix.Stat_t) fs.FileInfo { return &statInfo{name: name, st: *st} }

type statInfo struct {
	name string
	st   unix.Stat_t
}

func (fi *statInfo) Name() string       { return fi.name }
func (fi *statInfo) Size() int64        { return fi.st.Size }
func (fi *statInfo) ModTime() time.Time { return time.Unix(fi.st.Mtim.Unix()) }
func (fi *statInfo) IsDir() bool        { return fi.Mode().IsDir() }
func (fi *statInfo) Sys() any           { return &fi.st }

func (fi *statInfo) Mode() fs.FileMode {
	m := fs.FileMode(fi.st.Mode & 0o777)
	switch fi.st.Mode & unix.S_IFMT {
	case unix.S_IFREG:
	case unix.S_IFDIR:
		m |= fs.ModeDir
	case unix.S_IFLNK:
		m |= fs.ModeSymlink
	default:
		m |= fs.ModeIrregular
	}
	return m
}

// lstatAll looks at the files at paths, a few at a time: at 100,000
// files the 5,000 core items' lstat calls are most of a warm pack, and
// they overlap on two cores. A file that cannot be looked at is nil.
// Each worker takes every nth file, and of a FolderSource the files of
// a folder together (paths holds a folder's files side by side).
func (k *Keeper) lstatAll(paths []string) []fs.FileInfo {
	out := make([]fs.FileInfo, len(paths))
	n := min(runtime.GOMAXPROCS(0), 4, 1+len(paths)/512)
	in, byFolder := k.src.(FolderSource)
	var runs []folderRun
	if byFolder {
		runs = folderRuns(paths)
	}
	var wg sync.WaitGroup
	for w := range n {
		wg.Go(func() {
			if byFolder {
				lstatByFolder(in, paths, runs, w, n, out)
				return
			}
			for i := w; i < len(paths); i += n {
				if fi, err := k.src.Lstat(paths[i]); err == nil {
					out[i] = fi
				}
			}
		})
	}
	wg.Wait()
	return out
}

// A folderRun is paths[start:end], the files of folder dir.
type folderRun struct {
	dir        string
	start, end int
}

// folderRuns cuts paths into runs of files under one folder: the
// folder holding them when it holds minByFolder or more (core/decisions/
// holds 1,000 items at 100,000 files, and each path the kernel resolves
// below the descriptor is one folder shorter), else their item folder
// (core, sessions): one descriptor serves the 200 session folders of
// five files each, which opened one by one cost what they saved.
func folderRuns(paths []string) []folderRun {
	var runs []folderRun
	small := false // the last run is of small folders, by their item folder
	for i := 0; i < len(paths); {
		dir, j := parent(paths[i]), i+1
		for j < len(paths) && inFolder(paths[j], dir) {
			j++
		}
		switch {
		case j-i >= minByFolder:
			runs, small = append(runs, folderRun{dir: dir, start: i, end: j}), false
		case small && runs[len(runs)-1].dir == top(dir):
			runs[len(runs)-1].end = j
		default:
			runs, small = append(runs, folderRun{dir: top(dir), start: i, end: j}), true
		}
		i = j
	}
	return runs
}

// dirOf is path.Dir(p). A row's path is clean, and so is its folder's
// part, which path.Dir would go over again (Clean) after looking for
// the last slash from the end: a pack takes the folder of each of 5,700
// core items, where that cost 1-2 ms. Any path of a part that is not so
// (an empty, "." or ".." part) goes to path.Dir.
func dirOf(p string) string {
	last := -1 // the last slash
	for at := 0; ; {
		i := strings.IndexByte(p[at:], '/')
		if i < 0 {
			break
		}
		if c := p[at : at+i]; c == "" || c == "." || c == ".." {
			return path.Dir(p)
		}
		last = at + i
		at = last + 1
	}
	if last < 0 {
		return path.Dir(p)
	}
	return p[:last]
}

// parent is the folder holding the file at p, "" at the top.
func parent(p string) string { return p[:max(strings.LastIndexByte(p, '/'), 0)] }

// inFolder reports whether parent(p) is dir, looking forward from dir's
// end: parent looks for the last slash from the end, over the name of
// the file, which for 5,700 core items cost 0.5 ms of a pack.
func inFolder(p, dir string) bool {
	if dir == "" { // no path of a part
		return parent(p) == ""
	}
	return len(p) > len(dir) && p[len(dir)] == '/' && p[:len(dir)] == dir && strings.IndexByte(p[len(dir)+1:], '/') < 0
}

// top is the first folder of the path of folder d.
func top(d string) string {
	if i := strings.IndexByte(d, '/'); i >= 0 {
		return d[:i]
	}
	return d
}

// lstatByFolder is worker w of n's part of lstatAll through in: the
// files i with i%n == w, those under a folder in one call.
func lstatByFolder(in FolderSource, paths []string, runs []folderRun, w, n int, out []fs.FileInfo) {
	var names []string
	var got []fs.FileInfo
	var at []int
	for _, r := range runs {
		names, at = names[:0], at[:0]
		for i := r.start + (w-r.start%n+n)%n; i < r.end; i += n {
			names, at = append(names, strings.TrimPrefix(paths[i][len(r.dir):], "/")), append(at, i)
		}
		switch {
		case len(names) >= minByFolder:
			got = slices.Grow(got[:0], len(names))[:len(names)]
			clear(got)
			in.LstatIn(r.dir, names, got)
			for j, i := range at {
				out[i] = got[j]
			}
		default:
			for _, i := range at {
				if fi, err := in.Lstat(paths[i]); err == nil {
					out[i] = fi
				}
			}
		}
	}
}

// minByFolder is the fewest files worth opening their folder for: the
// open and close cost about what two paths resolved from the root do.
const minByFolder = 8

// Follow brings the parts of the folders a commit changed up to it:
// from the files it names when a part described its parent (its cost
// follows the change), else from the diff. A folder it did not touch
// keeps its part, whose tree id still matches; a merge, which names no
// changes (nil), has every part compared. Without parts it reads nothing.
func (k *Keeper) Follow(ctx context.Context, commit string, changes []Change) {
	touched := map[string]bool{}
	for _, c := range changes {
		root, _, _ := strings.Cut(c.Path, "/")
		if slices.Contains(model.ItemRoots, root) {
			touched[root] = true
		}
	}
	if changes == nil {
		for _, root := range model.ItemRoots {
			touched[root] = true
		}
	}
	if len(touched) == 0 {
		return
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	parts := map[string]*Part{}
	for root := range touched {
		if p := k.loadPart(root); p != nil {
			parts[root] = p
		} // else made at the next read
	}
	if len(parts) == 0 {
		return
	}
	head, trees, err := k.src.Trees(ctx, commit)
	if err != nil {
		return
	}
	_, parent, perr := k.src.Trees(ctx, commit+"~1")
	for _, root := range model.ItemRoots {
		p := parts[root]
		if p == nil {
			continue
		}
		if perr == nil && len(changes) > 0 && p.Tree == parent[root] {
			q := retake(p, time.Now().UnixNano())
			for _, c := range changes {
				if !strings.HasPrefix(c.Path, root+"/") {
					continue
				}
				delete(q.Rows, c.Path)
				q.untrust(c.Path)
				if c.Deleted || !Relevant(c.Path) {
					continue
				}
				fi, err := k.src.Lstat(c.Path)
				if err != nil || !fi.Mode().IsRegular() {
					continue // gone since: the next read compares the folder again
				}
				if r := k.describeFile(c.Path, fs.FileInfoToDirEntry(fi)); r != nil && kept(root, r) {
					q.Rows[c.Path] = r
				}
			}
			q.Commit, q.Tree = head, trees[root]
			k.storePart(q)
			continue
		}
		if _, err := k.syncPart(ctx, root, head, trees[root], false); err != nil && !errors.Is(err, context.Canceled) {
			k.src.Warn(fmt.Sprintf("catalogue of %s/: %v", root, err))
		}
	}
}
