package fsview

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"path"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/cairn-mem/cairn/internal/memory"
	"github.com/cairn-mem/cairn/internal/memory/catalog"
	"github.com/cairn-mem/cairn/internal/model"
	"github.com/cairn-mem/cairn/internal/recall"
)

// Searcher answers searches and packs context: a *recall.Index, or a
// client of a daemon that has one open.
type Searcher interface {
	Search(ctx context.Context, query string, opts recall.SearchOptions) (*recall.SearchResults, error)
	Context(ctx context.Context, opts recall.ContextOptions) (*recall.Pack, error)
}

// Options tune a View.
type Options struct {
	// Searcher runs the searches of search/ and packs CONTEXT.md; nil
	// leaves search/ empty and says so in CONTEXT.md.
	Searcher Searcher
	// Hits is how many files a search folder holds; 0 means 20.
	Hits int
	// Warn receives one-line notices (a search that failed); nil
	// discards them.
	Warn func(string)
	// ContextWait is how long a look at CONTEXT.md waits for the pack
	// before it shows a note that it is not ready; 0 means 2 s.
	ContextWait time.Duration
	// Catalog, when set, describes the work tree's files under roots
	// (a Memory's Catalog): kinds/ and tagged/ take the kind and tags of
	// each blob it names from it rather than parse the blob.
	Catalog func(ctx context.Context, roots ...string) ([]*catalog.Row, error)
}

// Limits on names looked up in search/.
const (
	// MaxQueryBytes is the longest query a search folder's name may be;
	// the kernel refuses names over 255 bytes anyway.
	MaxQueryBytes = 255
	maxSearches   = 64 // search results kept per checkpoint
	maxTreeCache  = 1 << 16
	maxBlobCache  = 32 << 20
)

// Names at the top of the view.
const (
	contextFile = "CONTEXT.md"
	latestLink  = "latest"
)

var liveRoots = []string{"archive", "core", "sessions"}

// History is what a View reads: a memory repository's commits, trees and
// blobs. A memory's Store is one; so is anything that serves the same
// immutable objects.
type History interface {
	Dir() string
	Reload()
	Resolve(rev string) (string, error)
	Commit(ctx context.Context, rev string) (*memory.Commit, error)
	Log(ctx context.Context, opts memory.GitLogOptions) ([]memory.Commit, error)
	Tags(ctx context.Context) ([]memory.Tag, error)
	TreeOf(ctx context.Context, rev string) (string, error)
	Tree(ctx context.Context, id string) ([]memory.TreeEntry, error)
	ReadBlob(ctx context.Context, id string) ([]byte, error)
	BlobSize(ctx context.Context, id string) (int64, error)
}

// A View is a memory repository's history as a read-only file system. It
// implements io/fs.FS (with ReadDir, ReadFile, Stat, ReadLink and Lstat)
// over the commits of a History, and is safe for concurrent use.
type View struct {
	st   History
	opts Options
	ctx  context.Context // for the io/fs methods, which take none

	mu    sync.Mutex
	snap  *snapshot
	trees map[string][]memory.TreeEntry // tree id -> entries, immutable
	sizes map[string]int64              // blob id -> size, immutable
	items map[string]itemMeta           // blob id -> parsed kind and tags
	blobs blobCache
	// changed keeps, for live paths, when a checkpoint seen while the
	// view was open last changed them; others date from base.
	changed map[string]time.Time
	base    time.Time
	// onContext is called when a context pack that was late is ready.
	onContext func()
}

type itemMeta struct {
	kind model.Kind
	tags []string
	ok   bool
}

// New returns a view of the store's history. ctx bounds the work that the
// io/fs methods do. Call Refresh to follow new checkpoints.
func New(ctx context.Context, st History, opts Options) (*View, error) {
	if opts.Hits <= 0 {
		opts.Hits = 20
	}
	if opts.Warn == nil {
		opts.Warn = func(string) {}
	}
	if opts.ContextWait <= 0 {
		opts.ContextWait = 2 * time.Second
	}
	v := &View{
		st: st, opts: opts, ctx: ctx,
		trees:   map[string][]memory.TreeEntry{},
		sizes:   map[string]int64{},
		items:   map[string]itemMeta{},
		changed: map[string]time.Time{},
	}
	if _, err := v.Refresh(ctx); err != nil {
		return nil, err
	}
	return v, nil
}

// snapshot is what the mutable part of the view shows: one HEAD and one
// set of tags. It never changes; Refresh replaces it.
type snapshot struct {
	key   string // head and tags
	head  string // commit id, "" before the first commit
	tree  string
	time  time.Time
	ckpts []*checkpoint // newest first
	byDir map[string]*checkpoint
	tags  map[string]string // tag name -> checkpoint folder

	mu       sync.Mutex
	context  []byte
	ctxDone  bool
	ctxRun   chan struct{} // closed when the pack is made
	ctxLate  bool          // a placeholder was served
	searches map[string][]hit
	views    *views // kinds/ and tagged/, built on first use
}

type checkpoint struct {
	dir  string // folder name
	hash string
	tree string
	time time.Time
}

type hit struct {
	name string
	data []byte
}

type views struct {
	kinds  map[string]map[string]string // kind -> link name -> target path
	tagged map[string]map[string]string
}

// Change says what a Refresh found.
type Change struct {
	// Head is whether the latest checkpoint moved; Tags whether the tags
	// changed.
	Head, Tags bool
	// Paths are the live paths (under core/, sessions/, archive/) whose
	// entry changed, folders included; nil with Rewritten.
	Paths []string
	// Rewritten is set when the previous state could not be compared
	// with the new one (history rewritten and pruned): treat every live
	// path as changed.
	Rewritten bool
}

// Refresh reads HEAD and the tags again and, when they moved, makes the
// view show the new state. It returns nil when nothing changed.
func (v *View) Refresh(ctx context.Context) (*Change, error) {
	head, err := v.st.Resolve("HEAD")
	if errors.Is(err, memory.ErrUnknownRev) {
		head, err = "", nil
	}
	if err != nil {
		return nil, fmt.Errorf("fsview: read HEAD: %w", err)
	}
	tags, err := v.st.Tags(ctx)
	if err != nil {
		return nil, fmt.Errorf("fsview: read tags: %w", err)
	}
	var kb strings.Builder
	kb.WriteString(head)
	for _, t := range tags {
		kb.WriteString(" " + t.Name + "=" + t.Commit)
	}
	key := kb.String()
	v.mu.Lock()
	old := v.snap
	v.mu.Unlock()
	if old != nil && old.key == key {
		return nil, nil
	}
	s := &snapshot{key: key, head: head, byDir: map[string]*checkpoint{}, tags: map[string]string{}, searches: map[string][]hit{}}
	byHash := map[string]*checkpoint{}
	if head != "" {
		if old != nil && old.head == head {
			s.tree, s.time, s.ckpts, s.byDir = old.tree, old.time, old.ckpts, old.byDir
			for _, c := range s.ckpts {
				byHash[c.hash] = c
			}
		} else {
			// Objects may have been packed or pruned since: a new head
			// can come from a sync that rewrote history.
			v.st.Reload()
			log, err := v.st.Log(ctx, memory.GitLogOptions{})
			if err != nil {
				return nil, fmt.Errorf("fsview: %w", err)
			}
			for i := range log {
				c := &log[i]
				tree, err := v.st.TreeOf(ctx, c.Hash)
				if err != nil {
					return nil, fmt.Errorf("fsview: %w", err)
				}
				cp := &checkpoint{dir: CheckpointDir(c), hash: c.Hash, tree: tree, time: c.Time}
				if _, dup := s.byDir[cp.dir]; dup {
					cp.dir = cp.dir + "-" + c.Hash[7:12] // same second, prefix and subject
				}
				s.ckpts = append(s.ckpts, cp)
				s.byDir[cp.dir] = cp
				byHash[c.Hash] = cp
			}
			if len(s.ckpts) > 0 {
				s.tree, s.time = s.ckpts[0].tree, s.ckpts[0].time
			}
		}
	}
	for _, t := range tags {
		cp := byHash[t.Commit]
		if cp == nil {
			// A tag off the first-parent line: give it a folder too.
			c, err := v.st.Commit(ctx, t.Commit)
			if err != nil {
				continue
			}
			tree, err := v.st.TreeOf(ctx, c.Hash)
			if err != nil {
				continue
			}
			cp = &checkpoint{dir: CheckpointDir(c), hash: c.Hash, tree: tree, time: c.Time}
			if _, dup := s.byDir[cp.dir]; !dup {
				s.byDir[cp.dir] = cp
				s.ckpts = append(s.ckpts, cp)
			}
			byHash[c.Hash] = cp
		}
		s.tags[t.Name] = cp.dir
	}

	ch := &Change{Head: old == nil || old.head != s.head}
	if old != nil {
		ch.Tags = !maps.Equal(old.tags, s.tags)
	}
	v.mu.Lock()
	defer v.mu.Unlock()
	switch {
	case old == nil:
		v.base = s.time
	case ch.Head:
		paths, err := v.diffLive(ctx, old.tree, s.tree)
		if err != nil {
			ch.Rewritten = true
			v.base = s.time
			clear(v.changed)
		} else {
			for _, p := range paths {
				v.changed[p] = s.time
			}
			ch.Paths = paths
		}
	}
	v.snap = s
	return ch, nil
}

// CheckpointDir is the folder name of a checkpoint under checkpoints/:
// its time in UTC, its short hash and its subject as a slug.
func CheckpointDir(c *memory.Commit) string {
	return c.Time.UTC().Format("2006-01-02T150405") + "-" + c.Hash[:7] + "-" + model.Slug(c.Subject)
}

// diffLive lists the live paths whose entries differ between two root
// trees, descending only into trees that differ. v.mu is held.
func (v *View) diffLive(ctx context.Context, from, to string) ([]string, error) {
	var out []string
	var walk func(dir, a, b string) error
	walk = func(dir, a, b string) error {
		var ea, eb []memory.TreeEntry
		var err error
		if a != "" {
			if ea, err = v.treeLocked(ctx, a); err != nil {
				return err
			}
		}
		if b != "" {
			if eb, err = v.treeLocked(ctx, b); err != nil {
				return err
			}
		}
		ma := map[string]memory.TreeEntry{}
		for _, e := range ea {
			ma[e.Name] = e
		}
		seen := map[string]bool{}
		visit := func(name string, x, y *memory.TreeEntry) error {
			p := path.Join(dir, name)
			if dir == "" && !slices.Contains(liveRoots, name) {
				return nil
			}
			if x != nil && y != nil && x.Hash == y.Hash && x.Mode == y.Mode {
				return nil
			}
			out = append(out, p)
			var ta, tb string
			if x != nil && x.Mode.IsDir() {
				ta = x.Hash
			}
			if y != nil && y.Mode.IsDir() {
				tb = y.Hash
			}
			if ta != "" || tb != "" {
				return walk(p, ta, tb)
			}
			return nil
		}
		for i := range eb {
			e := &eb[i]
			seen[e.Name] = true
			var x *memory.TreeEntry
			if o, ok := ma[e.Name]; ok {
				x = &o
			}
			if err := visit(e.Name, x, e); err != nil {
				return err
			}
		}
		for i := range ea {
			if e := &ea[i]; !seen[e.Name] {
				if err := visit(e.Name, e, nil); err != nil {
					return err
				}
			}
		}
		return nil
	}
	if err := walk("", from, to); err != nil {
		return nil, err
	}
	sort.Strings(out)
	return out, nil
}

func (v *View) current() *snapshot {
	v.mu.Lock()
	defer v.mu.Unlock()
	return v.snap
}

// tree returns the entries of a tree, from the cache when it can.
func (v *View) tree(ctx context.Context, id string) ([]memory.TreeEntry, error) {
	v.mu.Lock()
	defer v.mu.Unlock()
	return v.treeLocked(ctx, id)
}

func (v *View) treeLocked(ctx context.Context, id string) ([]memory.TreeEntry, error) {
	if es, ok := v.trees[id]; ok {
		return es, nil
	}
	es, err := v.st.Tree(ctx, id)
	if err != nil {
		return nil, err
	}
	if len(v.trees) >= maxTreeCache {
		clear(v.trees)
	}
	v.trees[id] = es
	return es, nil
}

func (v *View) blobSize(ctx context.Context, id string) (int64, error) {
	v.mu.Lock()
	n, ok := v.sizes[id]
	v.mu.Unlock()
	if ok {
		return n, nil
	}
	n, err := v.st.BlobSize(ctx, id)
	if err != nil {
		return 0, err
	}
	v.mu.Lock()
	if len(v.sizes) >= 4*maxTreeCache {
		clear(v.sizes)
	}
	v.sizes[id] = n
	v.mu.Unlock()
	return n, nil
}

// prefetchSizes reads the sizes of a folder's blobs, several at a time:
// a listing is usually followed by a look at every entry (READDIRPLUS,
// ls -l), and each size costs a file open.
func (v *View) prefetchSizes(ctx context.Context, es []memory.TreeEntry) {
	var todo []string
	v.mu.Lock()
	for _, e := range es {
		if e.Mode.IsRegular() {
			if _, ok := v.sizes[e.Hash]; !ok {
				todo = append(todo, e.Hash)
			}
		}
	}
	v.mu.Unlock()
	if len(todo) < 8 {
		return
	}
	const workers = 4
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := w; i < len(todo); i += workers {
				v.blobSize(ctx, todo[i])
			}
		}()
	}
	wg.Wait()
}

func (v *View) readBlob(ctx context.Context, id string) ([]byte, error) {
	v.mu.Lock()
	b, ok := v.blobs.get(id)
	v.mu.Unlock()
	if ok {
		return b, nil
	}
	b, err := v.st.ReadBlob(ctx, id)
	if err != nil {
		return nil, err
	}
	v.mu.Lock()
	v.blobs.put(id, b)
	v.mu.Unlock()
	return b, nil
}

// blobCache keeps the most recently read blobs, up to maxBlobCache bytes,
// so that a file read a page at a time is decompressed once.
type blobCache struct {
	order []string
	data  map[string][]byte
	size  int
}

func (c *blobCache) get(id string) ([]byte, bool) {
	b, ok := c.data[id]
	return b, ok
}

func (c *blobCache) put(id string, b []byte) {
	if c.data == nil {
		c.data = map[string][]byte{}
	}
	if _, ok := c.data[id]; ok || len(b) > maxBlobCache/4 {
		return
	}
	for c.size+len(b) > maxBlobCache || len(c.order) >= 1024 {
		old := c.order[0]
		c.order = c.order[1:]
		c.size -= len(c.data[old])
		delete(c.data, old)
	}
	c.order = append(c.order, id)
	c.data[id] = b
	c.size += len(b)
}

// The kinds of node in the view.
type nodeKind uint8

const (
	kRoot nodeKind = iota
	kCheckpoints
	kTags     // tags/ or a folder of tag names with a common prefix
	kSearches // search/
	kSearch   // search/<query>/
	kKinds    // kinds/ or tagged/
	kKindDir  // kinds/<kind>/ or tagged/<tag>/
	kTree     // a git tree
	kBlob     // a git blob
	kData     // generated content
	kLink     // a symbolic link
)

// A node is one name in the view, as of one snapshot.
type node struct {
	path   string // "." for the root
	kind   nodeKind
	mode   fs.FileMode
	mtime  time.Time
	hash   string // kTree, kBlob
	data   []byte // kData
	target string // kLink
	arg    string // kTags: prefix; kSearch: query; kKinds: "kinds" or "tagged"; kKindDir: kind or tag
	// live is set on core/, sessions/, archive/ and what is below them:
	// the part that changes with new checkpoints.
	live bool
	// history is set on what is inside a checkpoint folder: it never
	// changes.
	history bool
	snap    *snapshot
}

func (n *node) name() string { return path.Base(n.path) }

func (n *node) isDir() bool { return n.mode.IsDir() }

// size returns the node's size, reading the blob's header for git files.
func (v *View) size(ctx context.Context, n *node) (int64, error) {
	switch n.kind {
	case kBlob:
		return v.blobSize(ctx, n.hash)
	case kData:
		return int64(len(n.data)), nil
	case kLink:
		return int64(len(n.target)), nil
	}
	return 0, nil
}

func (v *View) root(s *snapshot) *node {
	return &node{path: ".", kind: kRoot, mode: fs.ModeDir | 0o555, mtime: s.time, snap: s}
}

// walk resolves a slash-separated path without following the last
// element when it is a symbolic link. Links met on the way are followed.
func (v *View) walk(ctx context.Context, name string, follow bool) (*node, error) {
	s := v.current()
	n := v.root(s)
	if name == "." {
		return n, nil
	}
	elems := strings.Split(name, "/")
	for hops := 0; len(elems) > 0; {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if !n.isDir() {
			return nil, fs.ErrNotExist
		}
		c, err := v.lookup(ctx, n, elems[0])
		if err != nil {
			return nil, err
		}
		elems = elems[1:]
		if c.kind == kLink && (follow || len(elems) > 0) {
			if hops++; hops > 40 {
				return nil, fmt.Errorf("too many links: %w", fs.ErrInvalid)
			}
			dst := path.Join(path.Dir(c.path), c.target)
			if dst == "." || strings.HasPrefix(dst, "../") || dst == ".." {
				return nil, fs.ErrNotExist
			}
			elems = append(strings.Split(dst, "/"), elems...)
			n = v.root(s)
			continue
		}
		n = c
	}
	return n, nil
}

func (v *View) child(parent *node, name string, kind nodeKind, mode fs.FileMode) *node {
	p := name
	if parent.path != "." {
		p = parent.path + "/" + name
	}
	return &node{path: p, kind: kind, mode: mode, mtime: parent.mtime, snap: parent.snap, live: parent.live, history: parent.history}
}

func (v *View) link(parent *node, name, target string) *node {
	c := v.child(parent, name, kLink, fs.ModeSymlink|0o777)
	c.target = target
	return c
}

// lookup finds name in the folder dir.
func (v *View) lookup(ctx context.Context, dir *node, name string) (*node, error) {
	if name == "" || name == "." || name == ".." || strings.Contains(name, "/") {
		return nil, fs.ErrNotExist
	}
	s := dir.snap
	switch dir.kind {
	case kRoot:
		switch name {
		case contextFile:
			c := v.child(dir, name, kData, 0o444)
			c.data = v.contextPack(ctx, s)
			return c, nil
		case "checkpoints":
			return v.child(dir, name, kCheckpoints, fs.ModeDir|0o555), nil
		case "tags":
			return v.child(dir, name, kTags, fs.ModeDir|0o555), nil
		case "search":
			return v.child(dir, name, kSearches, fs.ModeDir|0o555), nil
		case "kinds", "tagged":
			c := v.child(dir, name, kKinds, fs.ModeDir|0o555)
			c.arg = name
			return c, nil
		}
		if !slices.Contains(liveRoots, name) || s.tree == "" {
			return nil, fs.ErrNotExist
		}
		root := &node{path: ".", kind: kTree, hash: s.tree, mode: fs.ModeDir, mtime: s.time, snap: s, live: true}
		return v.treeChild(ctx, root, name)
	case kCheckpoints:
		if name == latestLink {
			if len(s.ckpts) == 0 {
				return nil, fs.ErrNotExist
			}
			return v.link(dir, name, s.ckpts[0].dir), nil
		}
		cp := s.byDir[name]
		if cp == nil {
			return nil, fs.ErrNotExist
		}
		c := v.child(dir, name, kTree, fs.ModeDir|0o555)
		c.hash, c.mtime, c.history = cp.tree, cp.time, true
		return c, nil
	case kTags:
		full := name
		if dir.arg != "" {
			full = dir.arg + "/" + name
		}
		depth := strings.Count(full, "/") + 1
		if cp, ok := s.tags[full]; ok {
			return v.link(dir, name, strings.Repeat("../", depth)+"checkpoints/"+cp), nil
		}
		for t := range s.tags {
			if strings.HasPrefix(t, full+"/") {
				c := v.child(dir, name, kTags, fs.ModeDir|0o555)
				c.arg = full
				return c, nil
			}
		}
		return nil, fs.ErrNotExist
	case kSearches:
		if err := checkQuery(name); err != nil {
			return nil, err
		}
		c := v.child(dir, name, kSearch, fs.ModeDir|0o555)
		c.arg = name
		return c, nil
	case kSearch:
		for _, h := range v.search(ctx, s, dir.arg) {
			if h.name == name {
				c := v.child(dir, name, kData, 0o444)
				c.data = h.data
				return c, nil
			}
		}
		return nil, fs.ErrNotExist
	case kKinds:
		m := v.views(ctx, s).pick(dir.arg)
		if _, ok := m[name]; !ok {
			return nil, fs.ErrNotExist
		}
		c := v.child(dir, name, kKindDir, fs.ModeDir|0o555)
		c.arg = name
		c.path = dir.path + "/" + name
		return c, nil
	case kKindDir:
		kind := path.Base(path.Dir(dir.path)) // kinds or tagged
		target, ok := v.views(ctx, s).pick(kind)[dir.arg][name]
		if !ok {
			return nil, fs.ErrNotExist
		}
		return v.link(dir, name, "../../"+target), nil
	case kTree:
		return v.treeChild(ctx, dir, name)
	}
	return nil, fs.ErrNotExist
}

func (vs *views) pick(which string) map[string]map[string]string {
	if which == "tagged" {
		return vs.tagged
	}
	return vs.kinds
}

// treeChild finds name in a git tree.
func (v *View) treeChild(ctx context.Context, dir *node, name string) (*node, error) {
	es, err := v.tree(ctx, dir.hash)
	if err != nil {
		return nil, err
	}
	i, ok := slices.BinarySearchFunc(es, name, func(e memory.TreeEntry, name string) int {
		return strings.Compare(e.Name, name)
	})
	if !ok {
		// git sorts folders as if their names ended in '/'.
		i = slices.IndexFunc(es, func(e memory.TreeEntry) bool { return e.Name == name })
		if i < 0 {
			return nil, fs.ErrNotExist
		}
	}
	return v.treeNode(ctx, dir, es[i])
}

func (v *View) treeNode(ctx context.Context, dir *node, e memory.TreeEntry) (*node, error) {
	var c *node
	switch {
	case e.Mode.IsDir():
		c = v.child(dir, e.Name, kTree, fs.ModeDir|0o555)
	case e.Mode&fs.ModeSymlink != 0:
		b, err := v.readBlob(ctx, e.Hash)
		if err != nil {
			return nil, err
		}
		c = v.link(dir, e.Name, string(b))
	default:
		c = v.child(dir, e.Name, kBlob, e.Mode&0o555|0o444)
	}
	c.hash = e.Hash
	if c.live {
		v.mu.Lock()
		if t, ok := v.changed[c.path]; ok {
			c.mtime = t
		} else {
			c.mtime = v.base
		}
		v.mu.Unlock()
	}
	return c, nil
}

// readDir lists a folder, sorted by name.
func (v *View) readDir(ctx context.Context, dir *node) ([]*node, error) {
	s := dir.snap
	var out []*node
	add := func(name string) error {
		c, err := v.lookup(ctx, dir, name)
		if err != nil {
			return err
		}
		out = append(out, c)
		return nil
	}
	switch dir.kind {
	case kRoot:
		names := []string{contextFile, "checkpoints", "kinds", "search", "tagged", "tags"}
		if s.tree != "" {
			es, err := v.tree(ctx, s.tree)
			if err != nil {
				return nil, err
			}
			for _, e := range es {
				if slices.Contains(liveRoots, e.Name) {
					names = append(names, e.Name)
				}
			}
		}
		for _, n := range names {
			if err := add(n); err != nil {
				return nil, err
			}
		}
	case kCheckpoints:
		if len(s.ckpts) > 0 {
			out = append(out, v.link(dir, latestLink, s.ckpts[0].dir))
		}
		for _, cp := range s.ckpts {
			c := v.child(dir, cp.dir, kTree, fs.ModeDir|0o555)
			c.hash, c.mtime, c.history = cp.tree, cp.time, true
			out = append(out, c)
		}
	case kTags:
		seen := map[string]bool{}
		for t := range s.tags {
			rest, ok := t, dir.arg == ""
			if !ok {
				rest, ok = strings.CutPrefix(t, dir.arg+"/")
			}
			if !ok {
				continue
			}
			name, _, _ := strings.Cut(rest, "/")
			if !seen[name] {
				seen[name] = true
				if err := add(name); err != nil {
					return nil, err
				}
			}
		}
	case kSearches:
		// Nothing to list: any name is a search.
	case kSearch:
		for _, h := range v.search(ctx, s, dir.arg) {
			c := v.child(dir, h.name, kData, 0o444)
			c.data = h.data
			out = append(out, c)
		}
	case kKinds:
		for name := range v.views(ctx, s).pick(dir.arg) {
			if err := add(name); err != nil {
				return nil, err
			}
		}
	case kKindDir:
		kind := path.Base(path.Dir(dir.path))
		for name, target := range v.views(ctx, s).pick(kind)[dir.arg] {
			out = append(out, v.link(dir, name, "../../"+target))
		}
	case kTree:
		es, err := v.tree(ctx, dir.hash)
		if err != nil {
			return nil, err
		}
		v.prefetchSizes(ctx, es)
		for _, e := range es {
			c, err := v.treeNode(ctx, dir, e)
			if err != nil {
				return nil, err
			}
			out = append(out, c)
		}
	default:
		return nil, fmt.Errorf("%s: %w", dir.path, errNotDir)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].name() < out[j].name() })
	return out, nil
}

var errNotDir = errors.New("not a directory")

// read returns a file's content.
func (v *View) read(ctx context.Context, n *node) ([]byte, error) {
	switch n.kind {
	case kBlob:
		return v.readBlob(ctx, n.hash)
	case kData:
		return n.data, nil
	}
	return nil, fmt.Errorf("%s: %w", n.path, fs.ErrInvalid)
}

// checkQuery refuses names that cannot be a search: too long, not text.
func checkQuery(q string) error {
	if len(q) > MaxQueryBytes {
		return fmt.Errorf("search name of %d bytes, longer than %d: %w", len(q), MaxQueryBytes, fs.ErrInvalid)
	}
	if !utf8.ValidString(q) {
		return fmt.Errorf("search name %q is not UTF-8 text: %w", q, fs.ErrInvalid)
	}
	for _, r := range q {
		if unicode.IsControl(r) {
			return fmt.Errorf("search name %q holds control characters: %w", q, fs.ErrInvalid)
		}
	}
	if strings.TrimSpace(q) == "" || strings.HasPrefix(q, ".") {
		// Editors and shells probe for .git, .hidden and the like.
		return fs.ErrNotExist
	}
	return nil
}

// search runs a query once per snapshot and names its hits.
func (v *View) search(ctx context.Context, s *snapshot, q string) []hit {
	s.mu.Lock()
	hits, ok := s.searches[q]
	s.mu.Unlock()
	if ok {
		return hits
	}
	hits = v.runSearch(ctx, s, q)
	s.mu.Lock()
	defer s.mu.Unlock()
	if prev, ok := s.searches[q]; ok {
		return prev // another lookup won the race; keep one answer
	}
	if len(s.searches) >= maxSearches {
		clear(s.searches)
	}
	s.searches[q] = hits
	return hits
}

func (v *View) runSearch(ctx context.Context, s *snapshot, q string) []hit {
	if v.opts.Searcher == nil {
		return nil
	}
	res, err := v.opts.Searcher.Search(ctx, q, recall.SearchOptions{K: v.opts.Hits * 3})
	if err != nil {
		v.opts.Warn(fmt.Sprintf("search/%s: %v", q, err))
		return nil
	}
	var out []hit
	seen := map[string]bool{}
	for _, h := range res.Hits {
		if seen[h.Path] || len(out) >= v.opts.Hits {
			continue
		}
		seen[h.Path] = true
		data, err := v.fileAt(ctx, s, h.Path)
		if err != nil {
			// The index is ahead of or behind the checkpoint: show the
			// chunk that matched.
			data = []byte(h.Text)
		}
		title := h.Title
		if title == "" {
			title = path.Base(h.Path)
		}
		out = append(out, hit{name: fmt.Sprintf("%02d-%s.md", len(out)+1, model.Slug(title)), data: data})
	}
	return out
}

// fileAt reads a file of the snapshot's tree.
func (v *View) fileAt(ctx context.Context, s *snapshot, p string) ([]byte, error) {
	if s.tree == "" {
		return nil, fs.ErrNotExist
	}
	n := &node{path: ".", kind: kTree, hash: s.tree, mode: fs.ModeDir, snap: s}
	for _, e := range strings.Split(p, "/") {
		if n.kind != kTree {
			return nil, fs.ErrNotExist
		}
		c, err := v.treeChild(ctx, n, e)
		if err != nil {
			return nil, err
		}
		n = c
	}
	return v.read(ctx, n)
}

// contextPack returns CONTEXT.md of a snapshot, made once. Packing may
// wait for the search index to catch up, which on a large memory without
// a daemon takes long: after ContextWait a note says so, and the pack
// replaces it when it is ready (OnContext tells the FUSE layer).
func (v *View) contextPack(ctx context.Context, s *snapshot) []byte {
	s.mu.Lock()
	if s.ctxDone {
		defer s.mu.Unlock()
		return s.context
	}
	if s.ctxRun == nil {
		run := make(chan struct{})
		s.ctxRun = run
		go func() {
			b := v.makePack(v.ctx)
			s.mu.Lock()
			s.context, s.ctxDone = b, true
			late := s.ctxLate
			s.mu.Unlock()
			close(run)
			if late && v.onContext != nil {
				v.onContext()
			}
		}()
	}
	run := s.ctxRun
	s.mu.Unlock()
	t := time.NewTimer(v.opts.ContextWait)
	defer t.Stop()
	select {
	case <-run:
		s.mu.Lock()
		defer s.mu.Unlock()
		return s.context
	case <-t.C:
	case <-ctx.Done():
	}
	s.mu.Lock()
	s.ctxLate = true
	s.mu.Unlock()
	return []byte("<!-- the context pack is not ready yet (the search index is catching up); read this file again in a moment -->\n")
}

func (v *View) makePack(ctx context.Context) []byte {
	if v.opts.Searcher == nil {
		return []byte("<!-- no context: this view has no search index -->\n")
	}
	p, err := v.opts.Searcher.Context(ctx, recall.ContextOptions{})
	if err != nil {
		v.opts.Warn(fmt.Sprintf("%s: %v", contextFile, err))
		return fmt.Appendf(nil, "<!-- no context: %v -->\n", err)
	}
	b := []byte(p.Text)
	if len(b) > 0 && b[len(b)-1] != '\n' {
		b = append(b, '\n')
	}
	return fmt.Appendf(b, "\n<!-- cairn context: %d of %d tokens, %d memories left out -->\n", p.UsedTokens, p.BudgetTokens, len(p.LeftOut))
}

// views builds kinds/ and tagged/ of a snapshot from the items in core/.
func (v *View) views(ctx context.Context, s *snapshot) *views {
	s.mu.Lock()
	vs := s.views
	s.mu.Unlock()
	if vs != nil {
		return vs
	}
	vs = &views{kinds: map[string]map[string]string{}, tagged: map[string]map[string]string{}}
	v.seedItems(ctx)
	for _, k := range append(model.Kinds(), model.Summary, model.Observation) {
		vs.kinds[string(k)] = map[string]string{}
	}
	var walk func(dir, tree string)
	walk = func(dir, tree string) {
		es, err := v.tree(ctx, tree)
		if err != nil {
			return
		}
		for _, e := range es {
			p := dir + "/" + e.Name
			if e.Mode.IsDir() {
				walk(p, e.Hash)
				continue
			}
			if !e.Mode.IsRegular() || !strings.HasSuffix(e.Name, ".md") {
				continue
			}
			meta := v.itemMeta(ctx, p, e.Hash)
			if !meta.ok {
				continue
			}
			if m := vs.kinds[string(meta.kind)]; m != nil {
				m[e.Name] = p
			}
			for _, t := range meta.tags {
				if vs.tagged[t] == nil {
					vs.tagged[t] = map[string]string{}
				}
				vs.tagged[t][e.Name] = p
			}
		}
	}
	if s.tree != "" {
		if es, err := v.tree(ctx, s.tree); err == nil {
			for _, e := range es {
				if e.Name == "core" && e.Mode.IsDir() {
					walk("core", e.Hash)
				}
			}
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.views == nil {
		s.views = vs
	}
	return s.views
}

// seedItems takes what the catalogue knows of items by blob id. A blob
// it does not name (a commit of other content) is parsed as before.
func (v *View) seedItems(ctx context.Context) {
	if v.opts.Catalog == nil {
		return
	}
	rows, err := v.opts.Catalog(ctx, "core")
	if err != nil {
		v.opts.Warn(fmt.Sprintf("kinds/, tagged/: %v", err))
		return
	}
	v.mu.Lock()
	defer v.mu.Unlock()
	for _, r := range rows {
		if _, ok := v.items[r.Blob]; ok || (r.Type != catalog.Item && r.Type != catalog.Broken) {
			continue
		}
		if len(v.items) >= 4*maxTreeCache {
			break
		}
		m := itemMeta{kind: model.Kind(r.Kind), ok: r.Type == catalog.Item}
		for _, t := range r.Tags {
			if validTagDir(t) {
				m.tags = append(m.tags, t)
			}
		}
		v.items[r.Blob] = m
	}
}

func (v *View) itemMeta(ctx context.Context, p, id string) itemMeta {
	v.mu.Lock()
	m, ok := v.items[id]
	v.mu.Unlock()
	if ok {
		return m
	}
	if b, err := v.readBlob(ctx, id); err == nil {
		if it, err := model.Parse(p, b); err == nil {
			m = itemMeta{kind: it.Kind, ok: true}
			for _, t := range it.Tags {
				if validTagDir(t) {
					m.tags = append(m.tags, t)
				}
			}
		}
	}
	v.mu.Lock()
	if len(v.items) >= 4*maxTreeCache {
		clear(v.items)
	}
	v.items[id] = m
	v.mu.Unlock()
	return m
}

// validTagDir reports whether an item's tag can be a folder name.
func validTagDir(t string) bool {
	if t == "" || t == "." || t == ".." || len(t) > 255 || strings.Contains(t, "/") || !utf8.ValidString(t) {
		return false
	}
	for _, r := range t {
		if unicode.IsControl(r) {
			return false
		}
	}
	return true
}
