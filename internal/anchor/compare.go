package anchor

import (
	"context"
	"fmt"
	"io"
	"path"
	"strconv"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"
)

// An Anchor is a place in the project's code a memory names: a file or
// folder, a line of a file, or a symbol and the file that declared it.
type Anchor struct {
	Path   string `json:"path"` // slash-separated, relative to the project's root
	Line   int    `json:"line,omitempty"`
	Symbol string `json:"symbol,omitempty"`
}

func (a Anchor) String() string {
	switch {
	case a.Symbol != "":
		return a.Symbol + " (" + a.Path + ")"
	case a.Line > 0:
		return a.Path + ":" + strconv.Itoa(a.Line)
	}
	return a.Path
}

// What happened at an anchor.
const (
	Changed = "changed"  // the path, the line or the symbol's declaration was edited
	Moved   = "moved"    // the symbol is declared in another file now
	Deleted = "deleted"  // the path is gone
	Renamed = "renamed"  // the path is gone, its content is elsewhere
	Vanish  = "vanished" // the symbol is declared nowhere
)

// A Change is what happened at an anchor between the commit a memory was
// written at and HEAD.
type Change struct {
	Anchor Anchor `json:"anchor"`
	What   string `json:"what"`         // Changed, Moved, Deleted, Renamed or Vanish
	To     string `json:"to,omitempty"` // the new path, of Moved and Renamed
	// Ago is how many commits before HEAD the path last changed (0:
	// HEAD itself), -1 when the walk did not reach it.
	Ago int `json:"commits_ago"`
}

// Gone reports whether the anchor no longer exists at all.
func (c Change) Gone() bool { return c.What == Deleted || c.What == Renamed || c.What == Vanish }

// agePath is the path whose last change Ago counts.
func (c Change) agePath() string {
	if c.What == Moved {
		return c.To
	}
	return c.Anchor.Path
}

// ends are the two trees an anchor is compared in: the base commit's and
// HEAD's.
type ends struct {
	base, head *object.Tree
	hc         *object.Commit // HEAD, for its declarations and files
	// dirty is, by path, what the work tree held beyond base when the
	// memory was written (entry.Dirty): the code it is about.
	dirty map[string]string
}

// check returns what happened at a between the two ends, nil when
// nothing did. A file or folder whose object id is the same at both ends
// did not change, so most anchors cost two look-ups.
func (p *project) check(ctx context.Context, t ends, a Anchor) (*Change, error) {
	eb, errb := t.base.FindEntry(a.Path)
	eh, errh := t.head.FindEntry(a.Path)
	switch {
	case errb == nil && errh == nil && eb.Hash == eh.Hash:
		return nil, nil
	case errb != nil && errh != nil:
		return nil, nil // gone already when it was checked
	}
	if errb == nil && errh == nil && eb.Mode == filemode.Dir && eh.Mode == filemode.Dir && len(t.dirty) > 0 {
		if took, err := p.tookEdits(ctx, t, a.Path, eb.Hash, eh.Hash); took || err != nil {
			return nil, err
		}
	}
	was := plumbing.ZeroHash // the file's content the memory was written beside
	if errb == nil && eb.Mode.IsFile() {
		was = eb.Hash
	}
	if w, ok := t.dirty[a.Path]; ok {
		// The memory was written beside an edit of the file that the
		// base did not have (an agent leaves its commits to the user):
		// the commit that took the edit is no change under it.
		h := plumbing.NewHash(w)
		if errh == nil && eh.Hash == h {
			return nil, nil
		}
		if _, err := p.repo.Storer.EncodedObject(plumbing.BlobObject, h); err == nil {
			was = h // staged or committed once: compare with it
		}
	}
	if a.Symbol != "" {
		return p.checkSymbol(ctx, t, a, was)
	}
	if errh != nil {
		to, err := p.renamedTo(ctx, t, a.Path, eb)
		if err != nil || to == "" {
			return &Change{Anchor: a, What: Deleted}, err
		}
		return &Change{Anchor: a, What: Renamed, To: to}, nil
	}
	if a.Line > 0 && !was.IsZero() && eh.Mode.IsFile() {
		at, err := p.lineChanged(was, eh.Hash, a)
		if err != nil || !at {
			return nil, err
		}
	}
	return &Change{Anchor: a, What: Changed}, nil
}

// tookEdits reports whether all that changed in a folder between its
// trees at the two ends is edits the work tree held when the memory was
// written: the commit that took them changed nothing under it.
func (p *project) tookEdits(ctx context.Context, t ends, dir string, was, now plumbing.Hash) (bool, error) {
	a, err := p.repo.TreeObject(was)
	if err != nil {
		return false, fmt.Errorf("read project tree %s: %w", dir, err)
	}
	b, err := p.repo.TreeObject(now)
	if err != nil {
		return false, fmt.Errorf("read project tree %s: %w", dir, err)
	}
	chs, err := object.DiffTreeWithOptions(ctx, a, b, &object.DiffTreeOptions{})
	if err != nil {
		return false, fmt.Errorf("compare project trees of %s: %w", dir, err)
	}
	for _, ch := range chs {
		if ch.To.Name == "" || t.dirty[path.Join(dir, ch.To.Name)] != ch.To.TreeEntry.Hash.String() {
			return false, nil
		}
	}
	return len(chs) > 0, nil
}

// renamedTo finds where a path gone from HEAD went: the one path of
// HEAD with the same content, else the one with the same name. A file
// both moved and edited under another name counts as deleted.
func (p *project) renamedTo(ctx context.Context, t ends, old string, was *object.TreeEntry) (string, error) {
	if was == nil {
		return "", nil
	}
	hi, err := p.headFiles(ctx, t)
	if err != nil {
		return "", err
	}
	if ps := hi.byHash[was.Hash]; len(ps) == 1 {
		return ps[0], nil
	}
	if ps := hi.byName[path.Base(old)]; len(ps) == 1 {
		return ps[0], nil
	}
	return "", nil
}

// files is a tree's paths by object id and by name, files and folders.
type files struct {
	byHash map[plumbing.Hash][]string
	byName map[string][]string
}

func (p *project) headFiles(ctx context.Context, t ends) (*files, error) {
	if p.files != nil && p.filesOf == t.hc.Hash {
		return p.files, nil
	}
	f := &files{byHash: make(map[plumbing.Hash][]string), byName: make(map[string][]string)}
	w := object.NewTreeWalker(t.head, true, nil)
	defer w.Close()
	for {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		name, e, err := w.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("walk the tree of project commit %s: %w", t.hc.Hash, err)
		}
		f.byHash[e.Hash] = append(f.byHash[e.Hash], name)
		f.byName[path.Base(name)] = append(f.byName[path.Base(name)], name)
	}
	p.files, p.filesOf = f, t.hc.Hash
	return f, nil
}

// lineChanged reports whether the edit of a file touched the anchor's
// line: the lines both versions share at their start and at their end
// are kept, and the line is touched when it is in between. One hunk
// for all: an edit above and one below a line count as at it, which a
// reader checks in a moment, while an edit far away alone never does.
func (p *project) lineChanged(was, now plumbing.Hash, a Anchor) (bool, error) {
	old, err := p.blobLines(was, a.Path)
	if err != nil {
		return false, err
	}
	cur, err := p.blobLines(now, a.Path)
	if err != nil {
		return false, err
	}
	pre := 0
	for pre < len(old) && pre < len(cur) && old[pre] == cur[pre] {
		pre++
	}
	suf := 0
	for suf < len(old)-pre && suf < len(cur)-pre && old[len(old)-1-suf] == cur[len(cur)-1-suf] {
		suf++
	}
	lo, hi := pre, len(old)-suf // the changed lines of old, 0-based, [lo, hi)
	if hi <= lo {
		hi = lo + 1 // lines inserted: the line they pushed down is touched
	}
	l := a.Line - 1
	return l >= lo && l < hi, nil
}

// checkSymbol compares the symbol's declaration in its file at HEAD
// with the one in was, the content the memory was written beside (zero
// for none); a symbol its file no longer declares moved or vanished.
func (p *project) checkSymbol(ctx context.Context, t ends, a Anchor, was plumbing.Hash) (*Change, error) {
	now, err := p.fileDecls(t.head, a.Path)
	if err != nil {
		return nil, err
	}
	if h, ok := now[a.Symbol]; ok {
		var before decls
		if !was.IsZero() {
			if before, err = p.blobDecls(was); err != nil {
				return nil, err
			}
		}
		if d, ok := before[a.Symbol]; ok && d == h {
			return nil, nil // edited elsewhere in the file
		}
		return &Change{Anchor: a, What: Changed}, nil
	}
	idx, err := p.declIndex(ctx, t.hc, t.head)
	if err != nil {
		return nil, err
	}
	if files := idx[a.Symbol]; len(files) > 0 {
		return &Change{Anchor: a, What: Moved, To: files[0]}, nil
	}
	return &Change{Anchor: a, What: Vanish}, nil
}

// A delta is what changed in the project from one HEAD to the next: the
// paths (and their folders) and how many commits it took. ok is false
// when the old HEAD is not a first-parent ancestor of the new one
// within maxDelta commits (another branch checked out, history
// rewritten): every anchor is checked again then.
type delta struct {
	ok      bool
	commits int
	touched map[string]bool
	code    bool // a code file changed: a moved or vanished symbol may have moved again
}

// maxDelta bounds the walk that looks for the old HEAD.
const maxDelta = 1000

func (p *project) delta(ctx context.Context, from string, to *object.Commit) (*delta, error) {
	d := &delta{touched: make(map[string]bool)}
	c := to
	for n := 0; n <= maxDelta; n++ {
		if c.Hash.String() == from {
			d.ok, d.commits = true, n
			break
		}
		if c.NumParents() == 0 {
			return d, nil
		}
		pc, err := c.Parent(0)
		if err != nil {
			return d, nil // a shallow clone's end
		}
		c = pc
	}
	if !d.ok {
		return d, nil
	}
	names, err := changedNames(ctx, c, to)
	if err != nil {
		return nil, err
	}
	for _, n := range names {
		d.code = d.code || isCode(n)
		for q := n; q != "." && q != "/"; q = path.Dir(q) {
			d.touched[q] = true
		}
	}
	return d, nil
}

// recheck reports whether the anchor's result at the old HEAD may differ
// at the new one: its path, or where it went, changed in between.
func (d *delta) recheck(a Anchor, prior *Change) bool {
	if d.touched[a.Path] {
		return true
	}
	if prior == nil {
		return false
	}
	return prior.To != "" && d.touched[prior.To] || (prior.What == Moved || prior.What == Vanish) && d.code
}
