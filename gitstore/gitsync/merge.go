package gitsync

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/cairn-mem/cairn/gitstore"
	"github.com/cairn-mem/cairn/gitstore/gitpath"
	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"
)

// Errors of Merge.
var (
	ErrUnrelated = errors.New("unrelated histories")
	ErrHostile   = errors.New("refusing a path from the remote")
	// ErrTooLarge means the remote brings a file over
	// MergeOptions.MaxBlobBytes.
	ErrTooLarge = errors.New("refusing a file from the remote")
)

// MergeFile is one file that changed differently on both sides of a
// merge (or was changed on one side and deleted on the other). A side
// without the file has a nil slice and its In flag false.
type MergeFile struct {
	Path                     string
	Base, Ours, Theirs       []byte
	InBase, InOurs, InTheirs bool
	// Exists reports whether a path is taken in the merge's result so far
	// (ours, or a file the merge adds), for naming extra files.
	Exists func(path string) bool
}

// Resolution is what a MergeFunc decided for one file.
type Resolution struct {
	Data   []byte // the merged content at Path
	Delete bool   // Path is deleted instead
	// Extra are further files to add, such as a conflict copy of the side
	// that did not stay in place. Their paths must be new.
	Extra []ExtraFile
	// Conflict says the sides could not be combined into one file.
	Conflict bool
}

// ExtraFile is a file a MergeFunc adds.
type ExtraFile struct {
	Path string
	Data []byte
}

// MergeFunc merges the contents of one file. Merge calls it only for
// files that changed differently on both sides: a file changed on one
// side takes that side without asking.
type MergeFunc func(MergeFile) (Resolution, error)

// MergeOptions say what to merge and how.
type MergeOptions struct {
	// Theirs is the revision to merge into the current branch, such as
	// refs/remotes/origin/main.
	Theirs string
	// Merge merges files changed on both sides; it is required.
	Merge MergeFunc
	// Subject, Body and Trailers describe the merge commit.
	Subject  string
	Body     string
	Trailers []gitstore.Trailer
	// AdoptUnrelated takes Theirs as it is when the histories share no
	// commit: for a memory that holds nothing of its own yet.
	AdoptUnrelated bool
	// AllowUnrelated merges histories that share no commit as if their
	// common ancestor were empty: every path both sides hold with
	// different contents goes to Merge.
	AllowUnrelated bool
	// CheckIncoming, when set, is called with every path and content the
	// merge brings into the work tree from Theirs; an error stops the
	// merge before anything is written.
	CheckIncoming func(path string, data []byte) error
	// Ask, when set, names files for which Merge is asked whenever Theirs
	// changes them, even when ours did not change and even when the merge
	// would be a fast-forward: for a file whose incoming values need a
	// look before they are applied (cairn.yaml).
	Ask func(path string) bool
	// MaxBlobBytes, when above 0, refuses (ErrTooLarge) a merge that would
	// bring a file of Theirs larger than this. The size is read from the
	// object's header, before the file is read.
	MaxBlobBytes int64
}

// HooksDir is the top-level folder of the work tree that holds the hook
// scripts agents run. A merge never writes it from Theirs: the scripts
// come from the cairn binary, and a remote that could replace them could
// run code here. Theirs' changes there are left out and listed in
// MergeResult.Held.
const HooksDir = "hooks"

// How a Merge ended.
const (
	MergeUpToDate    = "up-to-date"   // Theirs is already in our history
	MergeFastForward = "fast-forward" // our history was in Theirs: the branch moved to it
	MergeCommitted   = "merged"       // a merge commit with both parents
	MergeAdopted     = "adopted"      // unrelated history taken over (AdoptUnrelated)
)

// MergeResult says what Merge did.
type MergeResult struct {
	Kind      string
	Base      string // the merge base; empty for up-to-date and adopted
	Ours      string
	Theirs    string
	Head      string                // the branch's commit afterwards
	Changes   []gitstore.FileChange // what changed in the work tree
	Merged    []string              // paths the MergeFunc was asked about
	Conflicts []string              // paths it reported as conflicts
	Extra     []string              // paths it added (conflict copies)
	Held      []string              // paths Theirs changed that were left as ours has them (HooksDir)
}

// Merge merges Theirs into the current branch: nothing when Theirs is in
// our history already; a fast-forward when ours is in Theirs'; otherwise a
// three-way merge of the trees, with opts.Merge deciding about files both
// sides changed, committed with both parents. The work tree, the stat
// cache and .git/index follow the new commit. A file with changes not yet
// checkpointed that the merge would overwrite stops it before anything is
// written (gitstore.ErrDirty), so the caller checkpoints first. Paths from Theirs
// that could escape the work tree, reach into .git, .state or inbox/, or
// are symbolic links or submodules stop it too (ErrHostile); Theirs'
// changes under HooksDir are left out (MergeResult.Held). When anything
// of Theirs was left out or asked about (opts.Ask) and the result is not
// Theirs' tree, a would-be fast-forward becomes a merge commit. The
// caller holds the lock.
func Merge(ctx context.Context, s *gitstore.Store, opts MergeOptions) (*MergeResult, error) {
	if !s.Locked() {
		return nil, errors.New("merge: the write lock is not held")
	}
	if opts.Merge == nil {
		return nil, errors.New("merge: no MergeFunc")
	}
	_, ours, err := s.Head()
	if err != nil {
		return nil, err
	}
	id, err := s.Resolve(opts.Theirs)
	if err != nil {
		return nil, fmt.Errorf("merge %s: %w", opts.Theirs, err)
	}
	theirs := plumbing.NewHash(id)
	res := &MergeResult{Ours: ours.String(), Theirs: theirs.String(), Head: ours.String()}
	if theirs == ours {
		res.Kind = MergeUpToDate
		return res, nil
	}
	var base, oursTree, baseTree, theirsTree plumbing.Hash
	unrelated := false
	err = s.WithRepo(func(repo *git.Repository) error {
		tc, err := object.GetCommit(repo.Storer, theirs)
		if err != nil {
			return fmt.Errorf("merge %s: read commit: %w", opts.Theirs, err)
		}
		theirsTree = tc.TreeHash
		if ours.IsZero() {
			return nil
		}
		oc, err := object.GetCommit(repo.Storer, ours)
		if err != nil {
			return fmt.Errorf("merge: read commit %s: %w", short(ours), err)
		}
		oursTree = oc.TreeHash
		bases, err := oc.MergeBase(tc)
		if err != nil {
			return fmt.Errorf("merge %s: find the merge base: %w", opts.Theirs, err)
		}
		if len(bases) == 0 && !opts.AdoptUnrelated && !opts.AllowUnrelated {
			return fmt.Errorf("merge %s: %w: it shares no checkpoint with this memory", opts.Theirs, ErrUnrelated)
		}
		unrelated = len(bases) == 0 && !opts.AdoptUnrelated
		if len(bases) > 0 {
			// Of several bases (criss-cross merges) any one is safe here:
			// the content rules keep both sides whichever is chosen.
			base, baseTree = bases[0].Hash, bases[0].TreeHash
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	res.Base = base.String()
	if base.IsZero() {
		res.Base = ""
	}
	if base == theirs {
		res.Kind = MergeUpToDate
		return res, nil
	}

	w := s.NewObjectWriter(false)
	m := &treeMerge{ctx: ctx, s: s, w: w, fn: opts.Merge, check: opts.CheckIncoming, ask: opts.Ask, max: opts.MaxBlobBytes}
	m.ours = oursTree
	forward := base == ours || base.IsZero() && !unrelated
	if forward {
		baseTree = oursTree
	}
	// A fast-forward (or adoption) is a merge whose base is ours: Theirs
	// everywhere, except what is held or asked about.
	if err := m.trees("", baseTree, oursTree, theirsTree); err != nil {
		return nil, fmt.Errorf("merge %s: %w", opts.Theirs, err)
	}
	sort.Slice(m.changes, func(i, j int) bool { return m.changes[i].Path < m.changes[j].Path })
	if err := m.checkExtra(oursTree); err != nil {
		return nil, fmt.Errorf("merge %s: %w", opts.Theirs, err)
	}
	tree := theirsTree
	if !forward || len(m.held) > 0 || len(m.merged) > 0 {
		if tree, err = s.BuildTree(w, oursTree, m.changes); err != nil {
			return nil, fmt.Errorf("merge %s: %w", opts.Theirs, err)
		}
	}

	u := gitstore.BranchUpdate{Ours: ours, Changes: m.changes, Tree: tree}
	switch {
	case forward && tree == theirsTree && base.IsZero():
		res.Kind = MergeAdopted
		u.Head = theirs
	case forward && tree == theirsTree:
		res.Kind = MergeFastForward
		u.Head = theirs
	default:
		res.Kind = MergeCommitted
		u.Subject, u.Body, u.Trailers = opts.Subject, opts.Body, opts.Trailers
		if u.Subject == "" {
			u.Subject = "merge " + opts.Theirs
		}
		u.Parents = []plumbing.Hash{ours, theirs}
		if ours.IsZero() {
			u.Parents = u.Parents[1:]
		}
	}
	u.Reflog = fmt.Sprintf("%s: %s", res.Kind, opts.Theirs)
	head, err := s.UpdateBranch(ctx, w, u)
	if err != nil {
		return nil, fmt.Errorf("merge %s: %w", opts.Theirs, err)
	}

	res.Head = head.String()
	for _, ch := range m.changes {
		res.Changes = append(res.Changes, ch.FileChange)
	}
	res.Merged, res.Conflicts, res.Extra, res.Held = m.merged, m.conflicts, m.extra, m.held
	return res, nil
}

func short(h plumbing.Hash) string { return h.String()[:10] }

// treeEntry is one entry of a tree object.
type treeEntry struct {
	name string
	mode filemode.FileMode
	hash plumbing.Hash
}

// treeMerge collects the changes, relative to ours, that a merge makes.
type treeMerge struct {
	ctx   context.Context
	s     *gitstore.Store
	w     *gitstore.ObjectWriter
	fn    MergeFunc
	check func(string, []byte) error
	ask   func(string) bool
	max   int64 // MergeOptions.MaxBlobBytes

	ours      plumbing.Hash // our root tree
	changes   []gitstore.TreeChange
	merged    []string
	conflicts []string
	extra     []string
	held      []string
}

func (e treeEntry) present() bool { return !e.hash.IsZero() }
func (e treeEntry) isDir() bool   { return e.present() && e.mode == filemode.Dir }
func (e treeEntry) isFile() bool  { return e.present() && e.mode != filemode.Dir }
func (e treeEntry) same(o treeEntry) bool {
	return e.hash == o.hash && (e.mode == o.mode || !e.present())
}

// entries reads a tree's entries by name; theirs says they come from the
// remote and are checked.
func (m *treeMerge) entries(h plumbing.Hash, prefix string, theirs bool) (map[string]treeEntry, error) {
	out := map[string]treeEntry{}
	if h.IsZero() || h == emptyTreeMarker {
		return out, nil
	}
	t, err := m.tree(h)
	if err != nil {
		return nil, fmt.Errorf("read tree %s (%s): %w", short(h), prefix, err)
	}
	for _, e := range t.Entries {
		te := treeEntry{e.Name, e.Mode, e.Hash}
		if theirs {
			if err := checkIncoming(prefix, te); err != nil {
				return nil, err
			}
		}
		out[e.Name] = te
	}
	return out, nil
}

// tree reads a tree object.
func (m *treeMerge) tree(h plumbing.Hash) (*object.Tree, error) {
	var t *object.Tree
	err := m.s.WithRepo(func(repo *git.Repository) (err error) {
		t, err = object.GetTree(repo.Storer, h)
		return err
	})
	return t, err
}

// findEntry reports whether the tree root holds path p.
func (m *treeMerge) findEntry(root plumbing.Hash, p string) (bool, error) {
	found := false
	err := m.s.WithRepo(func(repo *git.Repository) error {
		t, err := object.GetTree(repo.Storer, root)
		if err != nil {
			return err
		}
		_, err = t.FindEntry(p)
		found = err == nil
		return nil
	})
	return found, err
}

// blob reads a blob's content; the zero hash is no file.
func (m *treeMerge) blob(h plumbing.Hash) ([]byte, error) {
	if h.IsZero() {
		return nil, nil
	}
	return m.s.ReadBlob(m.ctx, h.String())
}

// checkSize refuses a file of Theirs over the limit, from the size in
// the object's header, so that a huge file is never read.
func (m *treeMerge) checkSize(p string, e treeEntry) error {
	if m.max <= 0 || !e.isFile() {
		return nil
	}
	n, err := m.s.BlobSize(m.ctx, e.hash.String())
	if err != nil {
		return err
	}
	if n > m.max {
		return fmt.Errorf("%w: %q is %d bytes, more than sync.max_blob_bytes (%d)", ErrTooLarge, p, n, m.max)
	}
	return nil
}

// checkIncoming refuses tree entries from the remote that could write
// outside the work tree or into places cairn owns.
func checkIncoming(prefix string, e treeEntry) error {
	name := e.name
	p := prefix + name
	switch {
	case strings.ContainsAny(name, "/\\\x00"):
		return fmt.Errorf("%w: %q (a bad file name)", ErrHostile, p)
	case gitpath.ValidName(name) != nil:
		// prefix was checked already, so the error names this name.
		return fmt.Errorf("%w: %w", ErrHostile, gitpath.Valid(p))
	case strings.EqualFold(name, ".git"):
		return fmt.Errorf("%w: %q (git's own folder)", ErrHostile, p)
	// EqualFold: on a file system that ignores case, "INBOX" is inbox.
	case prefix == "" && (strings.EqualFold(name, gitstore.StateDir) || strings.EqualFold(name, "inbox")):
		return fmt.Errorf("%w: %q (cairn's own state)", ErrHostile, p)
	}
	switch e.mode {
	case filemode.Dir, filemode.Regular, filemode.Deprecated, filemode.Executable:
		return nil
	case filemode.Symlink:
		return fmt.Errorf("%w: %q is a symbolic link", ErrHostile, p)
	}
	return fmt.Errorf("%w: %q has mode %o (a submodule?)", ErrHostile, p, uint32(e.mode))
}

// trees merges three trees at prefix (each zero when absent).
func (m *treeMerge) trees(prefix string, b, o, t plumbing.Hash) error {
	be, err := m.entries(b, prefix, false)
	if err != nil {
		return err
	}
	oe, err := m.entries(o, prefix, false)
	if err != nil {
		return err
	}
	te, err := m.entries(t, prefix, true)
	if err != nil {
		return err
	}
	names := map[string]bool{}
	for _, es := range []map[string]treeEntry{be, oe, te} {
		for n := range es {
			names[n] = true
		}
	}
	sorted := make([]string, 0, len(names))
	for n := range names {
		sorted = append(sorted, n)
	}
	sort.Strings(sorted)
	for _, n := range sorted {
		eb, eo, et := be[n], oe[n], te[n]
		p := prefix + n
		if held(p) {
			if !eo.same(et) && !eb.same(et) {
				m.held = append(m.held, p)
			}
			continue
		}
		switch {
		case eo.same(et), eb.same(et):
			// Same on both sides, or only ours changed: ours stays.
		case eb.same(eo):
			if err := m.take(p, eo, et); err != nil {
				return err
			}
		case !eo.isFile() && !et.isFile() && !eb.isFile():
			if err := m.trees(p+"/", eb.hash, eo.hash, et.hash); err != nil {
				return err
			}
		case !eo.isDir() && !et.isDir():
			if eb.isDir() {
				eb = treeEntry{}
			}
			if err := m.file(p, eb, eo, et); err != nil {
				return err
			}
		default:
			return fmt.Errorf("cannot merge %s: a file on one side, a folder on the other", p)
		}
	}
	return nil
}

// held reports whether p is under HooksDir, in any case: a file system
// that ignores case would write "Hooks/x" into hooks/.
func held(p string) bool {
	top, _, _ := strings.Cut(p, "/")
	return strings.EqualFold(top, HooksDir)
}

// take makes path go from entry from (ours) to entry to (theirs).
func (m *treeMerge) take(p string, from, to treeEntry) error {
	if from.same(to) {
		return nil
	}
	if held(p) {
		m.held = append(m.held, p)
		return nil
	}
	if m.ask != nil && to.isFile() && !from.isDir() && m.ask(p) {
		return m.file(p, from, from, to)
	}
	if from.isDir() && to.isDir() {
		prefix := p + "/"
		if p == "" {
			prefix = ""
		}
		fe, err := m.entries(from.hash, prefix, false)
		if err != nil {
			return err
		}
		te, err := m.entries(to.hash, prefix, true)
		if err != nil {
			return err
		}
		for n, e := range fe {
			if err := m.take(prefix+n, e, te[n]); err != nil {
				return err
			}
		}
		for n, e := range te {
			if _, ok := fe[n]; !ok {
				if err := m.take(prefix+n, treeEntry{}, e); err != nil {
					return err
				}
			}
		}
		return nil
	}
	if from.isDir() {
		if err := m.take(p, from, treeEntry{mode: filemode.Dir, hash: emptyTreeMarker}); err != nil {
			return err
		}
	} else if from.isFile() && !to.isFile() {
		m.changes = append(m.changes, gitstore.TreeChange{FileChange: gitstore.FileChange{Path: p, Action: gitstore.Deleted}})
	}
	if to.isDir() {
		return m.take(p, treeEntry{mode: filemode.Dir, hash: emptyTreeMarker}, to)
	}
	if to.isFile() {
		if err := m.checkSize(p, to); err != nil {
			return err
		}
		if m.check != nil {
			data, err := m.blob(to.hash)
			if err != nil {
				return err
			}
			if err := m.check(p, data); err != nil {
				return err
			}
		}
		action := gitstore.Added
		if from.isFile() {
			action = gitstore.Modified
		}
		m.changes = append(m.changes, gitstore.TreeChange{FileChange: gitstore.FileChange{Path: p, Action: action},
			Blob: to.hash, Mode: normMode(to.mode)})
	}
	return nil
}

// emptyTreeMarker stands for a folder with no entries while take lists
// what a folder adds or removes; it is never read from the repository.
var emptyTreeMarker = plumbing.NewHash("4b825dc642cb6eb9a060e54bf8d69288fbee4904")

// file merges one file changed on both sides.
func (m *treeMerge) file(p string, eb, eo, et treeEntry) error {
	mf := MergeFile{Path: p, InBase: eb.present(), InOurs: eo.present(), InTheirs: et.present(), Exists: m.exists}
	if err := m.checkSize(p, et); err != nil {
		return err
	}
	var err error
	if mf.Base, err = m.blob(eb.hash); err != nil {
		return err
	}
	if mf.Ours, err = m.blob(eo.hash); err != nil {
		return err
	}
	if mf.Theirs, err = m.blob(et.hash); err != nil {
		return err
	}
	r, err := m.fn(mf)
	if err != nil {
		return fmt.Errorf("merge %s: %w", p, err)
	}
	m.merged = append(m.merged, p)
	if r.Conflict {
		m.conflicts = append(m.conflicts, p)
	}
	if r.Delete {
		if eo.present() {
			m.changes = append(m.changes, gitstore.TreeChange{FileChange: gitstore.FileChange{Path: p, Action: gitstore.Deleted}})
		}
	} else {
		h, err := m.w.Write(plumbing.BlobObject, r.Data)
		if err != nil {
			return err
		}
		mode := filemode.Regular
		if eo.present() {
			mode = normMode(eo.mode)
		}
		if h != eo.hash || !eo.present() {
			action := gitstore.Modified
			if !eo.present() {
				action = gitstore.Added
			}
			if m.check != nil {
				if err := m.check(p, r.Data); err != nil {
					return err
				}
			}
			m.changes = append(m.changes, gitstore.TreeChange{FileChange: gitstore.FileChange{Path: p, Action: action}, Blob: h, Mode: mode})
		}
	}
	for _, x := range r.Extra {
		cp, err := gitpath.Clean(x.Path)
		if err != nil || cp != x.Path {
			return fmt.Errorf("merge %s: bad extra path %q", p, x.Path)
		}
		h, err := m.w.Write(plumbing.BlobObject, x.Data)
		if err != nil {
			return err
		}
		m.extra = append(m.extra, cp)
		m.changes = append(m.changes, gitstore.TreeChange{FileChange: gitstore.FileChange{Path: cp, Action: gitstore.Added}, Blob: h, Mode: filemode.Regular})
	}
	return nil
}

// exists reports whether p is in our tree or added by the merge so far.
func (m *treeMerge) exists(p string) bool {
	for _, ch := range m.changes {
		if ch.Path == p && ch.Action != gitstore.Deleted {
			return true
		}
	}
	if m.ours.IsZero() {
		return false
	}
	found, err := m.findEntry(m.ours, p)
	return err == nil && found
}

// checkExtra refuses extra files whose paths are taken already. Changes
// are sorted.
func (m *treeMerge) checkExtra(oursTree plumbing.Hash) error {
	if len(m.extra) == 0 {
		return nil
	}
	if _, err := m.tree(oursTree); err != nil {
		return err
	}
	for i, ch := range m.changes {
		if i > 0 && m.changes[i-1].Path == ch.Path {
			return fmt.Errorf("two files for %s", ch.Path)
		}
	}
	for _, x := range m.extra {
		found, err := m.findEntry(oursTree, x)
		if err != nil {
			return err
		}
		if found {
			return fmt.Errorf("extra file %s exists already", x)
		}
	}
	return nil
}

// normMode is the mode git gives a file: executable or not.
func normMode(m filemode.FileMode) filemode.FileMode {
	if m == filemode.Executable {
		return filemode.Executable
	}
	return filemode.Regular
}
