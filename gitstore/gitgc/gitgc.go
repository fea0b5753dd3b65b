package gitgc

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/cairn-mem/cairn/gitstore"
	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/format/idxfile"
	"github.com/go-git/go-git/v5/plumbing/format/packfile"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/go-git/go-git/v5/plumbing/storer"
)

// DefaultGrace is how old an unreachable object must be before Repack
// removes it: git gc's gc.pruneExpire. An object written moments ago
// by a process that does not hold the lock (go-git's fetch writes packs)
// may not be reachable yet.
const DefaultGrace = 14 * 24 * time.Hour

// tempAge is how old a temporary file of an object or a pack must be
// before it is taken for the leftover of a killed writer.
const tempAge = time.Hour

// Options tune Repack.
type Options struct {
	Grace time.Duration    // 0 means DefaultGrace; negative means none (prune every unreachable object)
	Now   func() time.Time // nil means time.Now
}

// Result says what Repack did and what it freed.
type Result struct {
	Before, After Usage
	Packed        int  // objects in the new pack
	Pruned        int  // unreachable loose objects removed
	Dropped       int  // unreachable objects of old packs left out of the new one
	Swept         int  // temporary files and orphaned packs of killed writers removed
	Skipped       bool // the repository was packed already: nothing was written
}

// Usage is what the object store holds.
type Usage struct {
	Loose      int   // loose objects
	LooseBytes int64 // their bytes
	Packs      int   // packs
	PackBytes  int64 // bytes of the packs and their indexes
	Disk       int64 // bytes of disk all of them take (blocks: a loose object takes one at least)
}

// Bytes is the size of the objects' files.
func (u Usage) Bytes() int64 { return u.LooseBytes + u.PackBytes }

// Repack packs the repository of s. The caller holds s's write lock (see
// gitstore.Store.Lock): a checkpoint made meanwhile would write objects
// no ref names yet. After it the Store has been reopened on the new pack.
func Repack(ctx context.Context, s *gitstore.Store, opts Options) (*Result, error) {
	if !s.Locked() {
		return nil, errors.New("repack: the caller must hold the write lock")
	}
	now := time.Now
	if opts.Now != nil {
		now = opts.Now
	}
	grace := opts.Grace
	if grace == 0 {
		grace = DefaultGrace
	}
	cutoff := now().Add(-max(grace, 0))
	g := &gc{gitDir: filepath.Join(s.Dir(), ".git")}
	g.packDir = filepath.Join(g.gitDir, "objects", "pack")
	res := &Result{}
	res.Swept = g.sweep(now().Add(-tempAge))

	var err error
	if res.Before, err = g.scan(); err != nil {
		return nil, err
	}
	var newPack string
	err = s.WithRepo(func(r *git.Repository) error {
		live, err := g.reachable(ctx, r)
		if err != nil {
			return err
		}
		todo := make(map[plumbing.Hash]bool, len(live))
		for h := range live {
			todo[h] = true
		}
		for _, p := range g.packs {
			for _, h := range p.objects {
				switch {
				case live[h]:
				case p.keep || p.mtime.After(cutoff):
					todo[h] = true // young: kept, now in the new pack
				default:
					res.Dropped++
				}
			}
		}
		if g.packed(live, res.Dropped, cutoff) {
			res.Skipped = true
			return nil
		}
		list := make([]plumbing.Hash, 0, len(todo))
		for h := range todo {
			list = append(list, h)
		}
		slices.SortFunc(list, func(a, b plumbing.Hash) int { return bytes.Compare(a[:], b[:]) })
		newPack, err = g.writePack(ctx, r.Storer, list)
		res.Packed = len(list)
		return err
	})
	if err != nil || res.Skipped {
		res.After = res.Before
		return res, err
	}
	if err := s.Reopen(); err != nil {
		return nil, err
	}
	// The new pack holds every object kept: what else there is can go.
	inPack, err := readIndex(filepath.Join(g.packDir, newPack+".idx"))
	if err != nil {
		return nil, fmt.Errorf("repack: read back the new pack: %w", err)
	}
	for _, p := range g.packs {
		if p.name == newPack || p.keep {
			continue
		}
		if err := removePack(filepath.Join(g.packDir, p.name)); err != nil {
			return nil, err
		}
	}
	for _, o := range g.loose {
		if !inPack[o.hash] && (g.live[o.hash] || o.mtime.After(cutoff)) {
			continue
		}
		if err := os.Remove(o.path); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("repack: remove loose object: %w", err)
		}
		if !inPack[o.hash] {
			res.Pruned++
		}
	}
	g.removeEmptyDirs()
	if err := s.Reopen(); err != nil {
		return nil, err
	}
	res.After, err = g.scan()
	return res, err
}

// gc is one run of Repack: what it found in the object store.
type gc struct {
	gitDir, packDir string
	loose           []looseObject
	packs           []pack
	live            map[plumbing.Hash]bool
}

type looseObject struct {
	hash  plumbing.Hash
	path  string
	mtime time.Time
}

type pack struct {
	name    string // pack-<checksum>, without extension
	mtime   time.Time
	keep    bool // a .keep file says to leave it alone, as git does
	objects []plumbing.Hash
}

// packed reports whether there is nothing to gain: one pack holding
// every reachable object and nothing else, and no loose object but
// young unreachable ones.
func (g *gc) packed(live map[plumbing.Hash]bool, dropped int, cutoff time.Time) bool {
	if len(g.packs) != 1 || dropped != 0 || len(g.packs[0].objects) != len(live) {
		return false
	}
	for _, o := range g.loose {
		if live[o.hash] || !o.mtime.After(cutoff) {
			return false
		}
	}
	return true
}

// scan lists the loose objects and the packs, and measures them.
func (g *gc) scan() (Usage, error) {
	var u Usage
	g.loose, g.packs = nil, nil
	objDir := filepath.Join(g.gitDir, "objects")
	subs, err := os.ReadDir(objDir)
	if err != nil {
		return u, fmt.Errorf("repack: %w", err)
	}
	for _, sub := range subs {
		if !sub.IsDir() || len(sub.Name()) != 2 || !isHex(sub.Name()) {
			continue
		}
		dir := filepath.Join(objDir, sub.Name())
		files, err := os.ReadDir(dir)
		if err != nil {
			return u, fmt.Errorf("repack: %w", err)
		}
		for _, f := range files {
			name := sub.Name() + f.Name()
			if len(name) != 40 || !isHex(name) {
				continue
			}
			fi, err := f.Info()
			if err != nil {
				continue // removed meanwhile
			}
			g.loose = append(g.loose, looseObject{hash: plumbing.NewHash(name), path: filepath.Join(dir, f.Name()), mtime: fi.ModTime()})
			u.Loose++
			u.LooseBytes += fi.Size()
			u.Disk += disk(fi)
		}
	}
	idxs, _ := filepath.Glob(filepath.Join(g.packDir, "pack-*.idx"))
	for _, idx := range idxs {
		base := strings.TrimSuffix(idx, ".idx")
		fi, err := os.Stat(base + ".pack")
		if err != nil {
			continue // an index without its pack: git ignores it, and so do we
		}
		ii, _ := os.Stat(idx)
		hashes, err := readIndex(idx)
		if err != nil {
			return u, fmt.Errorf("repack: %w", err)
		}
		p := pack{name: filepath.Base(base), mtime: fi.ModTime(), keep: exists(base + ".keep")}
		for h := range hashes {
			p.objects = append(p.objects, h)
		}
		g.packs = append(g.packs, p)
		u.Packs++
		u.PackBytes += fi.Size() + ii.Size()
		u.Disk += disk(fi) + disk(ii)
	}
	return u, nil
}

// readIndex returns the objects a pack index lists.
func readIndex(name string) (map[plumbing.Hash]bool, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	idx := idxfile.NewMemoryIndex()
	if err := idxfile.NewDecoder(bufio.NewReader(f)).Decode(idx); err != nil {
		return nil, fmt.Errorf("pack index %s: %w", filepath.Base(name), err)
	}
	it, err := idx.Entries()
	if err != nil {
		return nil, fmt.Errorf("pack index %s: %w", filepath.Base(name), err)
	}
	defer it.Close()
	out := map[plumbing.Hash]bool{}
	for {
		e, err := it.Next()
		if err != nil {
			break
		}
		out[e.Hash] = true
	}
	return out, nil
}

// roots are the commits (or tags) history starts from: every ref, HEAD,
// and what the reflogs name, whose objects git gc keeps too. A reflog's
// object that is gone already is no root.
func (g *gc) roots(r *git.Repository) (must, may []plumbing.Hash, err error) {
	refs, err := r.Storer.IterReferences()
	if err != nil {
		return nil, nil, fmt.Errorf("repack: list refs: %w", err)
	}
	err = refs.ForEach(func(ref *plumbing.Reference) error {
		if ref.Type() == plumbing.HashReference {
			must = append(must, ref.Hash())
		}
		return nil
	})
	if err != nil {
		return nil, nil, fmt.Errorf("repack: list refs: %w", err)
	}
	if head, err := r.Storer.Reference(plumbing.HEAD); err == nil && head.Type() == plumbing.HashReference {
		must = append(must, head.Hash()) // a detached HEAD
	}
	logs := filepath.Join(g.gitDir, "logs")
	filepath.WalkDir(logs, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return nil
		}
		for _, line := range strings.Split(string(data), "\n") {
			f := strings.Fields(line)
			for _, id := range f[:min(2, len(f))] {
				if h := plumbing.NewHash(id); len(id) == 40 && isHex(id) && !h.IsZero() {
					may = append(may, h)
				}
			}
		}
		return nil
	})
	return must, may, nil
}

// reachable walks history from the roots and returns every object it
// names. An object missing under a ref is an error: repacking a broken
// repository would lose the chance to repair it from a remote.
func (g *gc) reachable(ctx context.Context, r *git.Repository) (map[plumbing.Hash]bool, error) {
	must, may, err := g.roots(r)
	if err != nil {
		return nil, err
	}
	st := r.Storer
	seen := map[plumbing.Hash]bool{}
	var stack []plumbing.Hash
	for _, h := range may {
		if st.HasEncodedObject(h) == nil {
			stack = append(stack, h)
		}
	}
	stack = append(stack, must...)
	for len(stack) > 0 {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		h := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if seen[h] {
			continue
		}
		o, err := st.EncodedObject(plumbing.AnyObject, h)
		if err != nil {
			return nil, fmt.Errorf("repack: read object %s: %w (run cairn verify --repair)", h, err)
		}
		seen[h] = true
		switch o.Type() {
		case plumbing.CommitObject:
			c, err := object.DecodeCommit(st, o)
			if err != nil {
				return nil, fmt.Errorf("repack: commit %s: %w", h, err)
			}
			stack = append(stack, c.TreeHash)
			stack = append(stack, c.ParentHashes...)
		case plumbing.TreeObject:
			t, err := object.DecodeTree(st, o)
			if err != nil {
				return nil, fmt.Errorf("repack: tree %s: %w", h, err)
			}
			for _, e := range t.Entries {
				switch {
				case e.Mode == filemode.Submodule:
				case e.Mode == filemode.Dir:
					stack = append(stack, e.Hash)
				default:
					if st.HasEncodedObject(e.Hash) != nil {
						return nil, fmt.Errorf("repack: blob %s of tree %s is missing (run cairn verify --repair)", e.Hash, h)
					}
					seen[e.Hash] = true
				}
			}
		case plumbing.TagObject:
			t, err := object.DecodeTag(st, o)
			if err != nil {
				return nil, fmt.Errorf("repack: tag %s: %w", h, err)
			}
			stack = append(stack, t.Target)
		}
	}
	g.live = seen
	return seen, nil
}

// writePack writes the objects of list into a new pack and its index,
// each through a temporary file, synced, then renamed into place, and
// returns the pack's name (pack-<checksum>).
func (g *gc) writePack(ctx context.Context, st storer.EncodedObjectStorer, list []plumbing.Hash) (string, error) {
	if err := os.MkdirAll(g.packDir, 0o755); err != nil {
		return "", fmt.Errorf("repack: %w", err)
	}
	tmp, err := os.CreateTemp(g.packDir, "tmp_pack_")
	if err != nil {
		return "", fmt.Errorf("repack: %w", err)
	}
	defer os.Remove(tmp.Name()) // gone by rename when all went well
	w := bufio.NewWriterSize(tmp, 1<<20)
	// Deltas against the 10 objects before each (git's pack.window)
	// are what make a pack of many versions of the same files small.
	sum, err := packfile.NewEncoder(w, st, false).Encode(list, 10)
	if err == nil {
		err = w.Flush()
	}
	if err == nil {
		err = tmp.Sync()
	}
	if err != nil {
		tmp.Close()
		return "", fmt.Errorf("repack: write pack: %w", err)
	}
	if err := ctx.Err(); err != nil {
		tmp.Close()
		return "", err
	}
	// The index is built by reading the pack back, as git index-pack
	// does: what it lists is what the pack holds.
	if _, err := tmp.Seek(0, 0); err != nil {
		tmp.Close()
		return "", fmt.Errorf("repack: %w", err)
	}
	iw := new(idxfile.Writer)
	parser, err := packfile.NewParser(packfile.NewScanner(tmp), iw)
	if err == nil {
		_, err = parser.Parse()
	}
	var idx *idxfile.MemoryIndex
	if err == nil {
		idx, err = iw.Index()
	}
	tmp.Close()
	if err != nil {
		return "", fmt.Errorf("repack: index the new pack: %w", err)
	}
	if n, _ := idx.Count(); n != int64(len(list)) {
		return "", fmt.Errorf("repack: the new pack holds %d objects, not %d", n, len(list))
	}
	for _, h := range list {
		if ok, _ := idx.Contains(h); !ok {
			return "", fmt.Errorf("repack: object %s is missing from the new pack", h)
		}
	}
	tmpIdx, err := os.CreateTemp(g.packDir, "tmp_idx_")
	if err != nil {
		return "", fmt.Errorf("repack: %w", err)
	}
	defer os.Remove(tmpIdx.Name())
	bw := bufio.NewWriter(tmpIdx)
	_, err = idxfile.NewEncoder(bw).Encode(idx)
	if err == nil {
		err = bw.Flush()
	}
	if err == nil {
		err = tmpIdx.Sync()
	}
	if cerr := tmpIdx.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return "", fmt.Errorf("repack: write pack index: %w", err)
	}
	name := "pack-" + sum.String()
	base := filepath.Join(g.packDir, name)
	os.Chmod(tmp.Name(), 0o444)
	os.Chmod(tmpIdx.Name(), 0o444)
	// The pack first: a pack without its index is ignored by git and by
	// go-git, an index without its pack is not.
	if err := os.Rename(tmp.Name(), base+".pack"); err != nil {
		return "", fmt.Errorf("repack: %w", err)
	}
	if err := os.Rename(tmpIdx.Name(), base+".idx"); err != nil {
		return "", fmt.Errorf("repack: %w", err)
	}
	if err := syncDir(g.packDir); err != nil {
		return "", fmt.Errorf("repack: %w", err)
	}
	return name, nil
}

// removePack removes a pack: its index first, so that no moment has an
// index whose pack is gone.
func removePack(base string) error {
	for _, ext := range []string{".idx", ".pack", ".rev", ".bitmap", ".mtimes"} {
		if err := os.Remove(base + ext); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("repack: remove old pack: %w", err)
		}
	}
	return nil
}

// sweep removes what killed writers left: temporary object and pack
// files older than before, and packs without an index (a repack killed
// between its two renames). None of them is an object git can see.
func (g *gc) sweep(before time.Time) int {
	n := 0
	rm := func(name string) {
		if fi, err := os.Lstat(name); err == nil && fi.ModTime().Before(before) && os.Remove(name) == nil {
			n++
		}
	}
	tmps, _ := filepath.Glob(filepath.Join(g.packDir, "tmp_*"))
	objs, _ := filepath.Glob(filepath.Join(g.gitDir, "objects", "??", "tmp_obj_*"))
	for _, name := range append(tmps, objs...) {
		rm(name)
	}
	packs, _ := filepath.Glob(filepath.Join(g.packDir, "pack-*.pack"))
	for _, p := range packs {
		if !exists(strings.TrimSuffix(p, ".pack") + ".idx") {
			rm(p)
		}
	}
	return n
}

// removeEmptyDirs removes the fan-out folders that removing loose
// objects emptied, as git prune does.
func (g *gc) removeEmptyDirs() {
	dirs, _ := filepath.Glob(filepath.Join(g.gitDir, "objects", "??"))
	for _, d := range dirs {
		os.Remove(d) // fails unless empty
	}
}

// disk is the bytes of disk a file takes.
func disk(fi fs.FileInfo) int64 {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return st.Blocks * 512
	}
	return fi.Size()
}

func syncDir(dir string) error {
	f, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer f.Close()
	return f.Sync()
}

func exists(name string) bool {
	_, err := os.Lstat(name)
	return err == nil
}

func isHex(s string) bool {
	for _, c := range s {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	return true
}
