package anchor

import (
	"context"
	"fmt"
	"path"
	"strconv"

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

// comparison is what changed in the project's tree from one commit to
// HEAD.
type comparison struct {
	from, head *object.Tree
	touched    map[string]bool   // every path changed, at either end
	renamed    map[string]string // old path -> new
	deleted    map[string]bool
	headIndex  func() (map[string][]string, error)
}

func (p *project) compare(ctx context.Context, from, head *object.Commit) (*comparison, error) {
	ft, err := from.Tree()
	if err != nil {
		return nil, fmt.Errorf("project commit %s: %w", from.Hash, err)
	}
	ht, err := head.Tree()
	if err != nil {
		return nil, fmt.Errorf("project commit %s: %w", head.Hash, err)
	}
	cmp := &comparison{from: ft, head: ht, touched: make(map[string]bool), renamed: make(map[string]string), deleted: make(map[string]bool)}
	cmp.headIndex = func() (map[string][]string, error) { return p.declIndex(ctx, head, ht) }
	if from.Hash == head.Hash {
		return cmp, nil
	}
	chs, err := object.DiffTreeWithOptions(ctx, ft, ht, &object.DiffTreeOptions{DetectRenames: true, RenameScore: 60, RenameLimit: 1000})
	if err != nil {
		return nil, fmt.Errorf("diff project commits %s..%s: %w", from.Hash, head.Hash, err)
	}
	for _, ch := range chs {
		f, t := ch.From.Name, ch.To.Name
		for _, n := range []string{f, t} {
			for q := n; q != "" && q != "."; q = path.Dir(q) {
				cmp.touched[q] = true
			}
		}
		switch {
		case f != "" && t == "":
			cmp.deleted[f] = true
		case f != "" && t != "" && f != t:
			cmp.renamed[f] = t
		}
	}
	return cmp, nil
}

// check returns what happened at a, nil when nothing did.
func (p *project) check(cmp *comparison, a Anchor) (*Change, error) {
	if a.Symbol != "" {
		return p.checkSymbol(cmp, a)
	}
	if !cmp.touched[a.Path] {
		return nil, nil
	}
	if to, ok := cmp.renamed[a.Path]; ok {
		if _, err := cmp.head.FindEntry(a.Path); err != nil {
			return &Change{Anchor: a, What: Renamed, To: to}, nil
		}
	}
	if _, err := cmp.head.FindEntry(a.Path); err != nil {
		return &Change{Anchor: a, What: Deleted}, nil
	}
	if a.Line > 0 {
		at, err := p.lineChanged(cmp, a)
		if err != nil || !at {
			return nil, err
		}
	}
	return &Change{Anchor: a, What: Changed}, nil
}

// lineChanged reports whether the edit of a file touched the anchor's
// line: the lines both versions share at their start and at their end
// are kept, and the line is touched when it is in between. One hunk
// for all: an edit above and one below a line count as at it, which a
// reader checks in a moment, while an edit far away alone never does.
func (p *project) lineChanged(cmp *comparison, a Anchor) (bool, error) {
	old, err := p.fileLines(cmp.from, a.Path)
	if err != nil {
		return false, err
	}
	cur, err := p.fileLines(cmp.head, a.Path)
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

// checkSymbol compares the symbol's declaration in its file at both
// ends; a symbol its file no longer declares moved or vanished.
func (p *project) checkSymbol(cmp *comparison, a Anchor) (*Change, error) {
	if !cmp.touched[a.Path] {
		return nil, nil
	}
	now, err := p.fileDecls(cmp.head, a.Path)
	if err != nil {
		return nil, err
	}
	if h, ok := now[a.Symbol]; ok {
		was, err := p.fileDecls(cmp.from, a.Path)
		if err != nil {
			return nil, err
		}
		if was[a.Symbol] == h {
			return nil, nil // edited elsewhere in the file
		}
		return &Change{Anchor: a, What: Changed}, nil
	}
	idx, err := cmp.headIndex()
	if err != nil {
		return nil, err
	}
	if files := idx[a.Symbol]; len(files) > 0 {
		return &Change{Anchor: a, What: Moved, To: files[0]}, nil
	}
	return &Change{Anchor: a, What: Vanish}, nil
}
