package anchor

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path"
	"slices"
	"sort"
	"strings"

	"github.com/cairn-mem/cairn/internal/codegit"
	"github.com/cairn-mem/cairn/internal/coderef"
	"github.com/cairn-mem/cairn/internal/memory"
	"github.com/cairn-mem/cairn/internal/memory/codemark"
	"github.com/cairn-mem/cairn/internal/model"
	"github.com/cairn-mem/cairn/internal/safefile"
	"github.com/go-git/go-git/v5/plumbing/object"
)

// TrailerChecked names, in a checkpoint cairn stale --confirm makes, the
// memory file that was checked against the code at the checkpoint's
// Cairn-Code-Commit.
const TrailerChecked = "Cairn-Stale-Checked"

// eventConfirm is the Cairn-Event of such a checkpoint.
const eventConfirm = "stale-confirm"

// cacheVersion changes when the cache's meaning does: an old file is
// rebuilt, never misread.
const cacheVersion = 2

// cacheFile is the cache under the memory's .state folder.
const cacheFile = "anchors.json"

// cache is .state/anchors.json: each anchored memory file's anchors and,
// for the project's HEAD it was last checked against, what changed. It is
// derived from the memory's history and the project's, and rebuilt from
// them when missing or of another version.
type cache struct {
	Version int               `json:"version"`
	Memory  string            `json:"memory"` // the memory's HEAD the entries follow
	Entries map[string]*entry `json:"entries"`
}

// entry is one memory file: an item or a session's summary.
type entry struct {
	ID     string `json:"id"`
	Title  string `json:"title"`
	Memory string `json:"memory"` // the checkpoint that last changed the file
	Code   string `json:"code"`   // the project's commit then; "" for none
	// Dirty is, by path, the blob a file held in the work tree at the
	// checkpoint, an edit Code did not have (memory.TrailerCodeDirty).
	Dirty   map[string]string `json:"dirty,omitempty"`
	Checked string            `json:"checked,omitempty"` // the project's commit of a later check
	Anchors []Anchor          `json:"anchors,omitempty"`
	Reject  []string          `json:"rejected,omitempty"` // why, NUL, the path rejected
	// Resolved is set once the anchors were looked up in the project.
	Resolved bool   `json:"resolved,omitempty"`
	text     string // what follow read, for resolveEntry: not kept

	// What changed at the anchors from base() to Head; Head "" when not
	// checked yet.
	Head    string   `json:"head,omitempty"`
	Base    string   `json:"base,omitempty"`
	Changes []Change `json:"changes,omitempty"`
	Missing bool     `json:"missing,omitempty"` // the project lacks the base commit
	BaseAgo int      `json:"base_ago,omitempty"`
}

// base is the project commit the entry was last known true at.
func (e *entry) base() string {
	if e.Checked != "" {
		return e.Checked
	}
	return e.Code
}

// dirty is what the work tree held beyond the base commit, nil when a
// check made the base: a check is of the code committed.
func (e *entry) dirty() map[string]string {
	if e.Checked != "" {
		return nil
	}
	return e.Dirty
}

// Report is what cairn stale prints: the memories the code changed under.
type Report struct {
	Head     string      `json:"head"`              // the project's HEAD, "" when it is no git repository
	Anchored int         `json:"anchored"`          // memories with anchors
	Stale    []Stale     `json:"stale"`             // an anchor changed or moved
	Gone     []Stale     `json:"gone"`              // an anchor no longer exists
	Unknown  []string    `json:"unknown,omitempty"` // ids whose commit the project's clone lacks
	Rejected []Rejection `json:"rejected,omitempty"`
}

// Stale is a memory with what changed at its anchors.
type Stale struct {
	ID      string   `json:"id"`
	Path    string   `json:"path"` // in the memory
	Title   string   `json:"title"`
	Commit  string   `json:"commit"`      // the project commit it was written or checked at
	Ago     int      `json:"commits_ago"` // how many commits before HEAD that is, -1 unknown
	Changes []Change `json:"changes"`
}

// Mark is the line a context pack shows by the memory: the first
// change, how long ago, and how many more.
func (s Stale) Mark() string {
	if len(s.Changes) == 0 {
		return ""
	}
	c := s.Changes[0]
	var b strings.Builder
	b.WriteString("may be stale: ")
	b.WriteString(Describe(c))
	if n := len(s.Changes) - 1; n > 0 {
		fmt.Fprintf(&b, " (and %d more)", n)
	}
	return b.String()
}

// Describe says what happened at one anchor, in a few words.
func Describe(c Change) string {
	subject := c.Anchor.String()
	switch c.What {
	case Moved:
		return fmt.Sprintf("%s moved to %s", c.Anchor.Symbol, c.To) + ago(c.Ago, " ")
	case Renamed:
		return fmt.Sprintf("%s was renamed to %s", subject, c.To)
	case Deleted:
		return subject + " was deleted" + ago(c.Ago, " ")
	case Vanish:
		return c.Anchor.Symbol + " is declared nowhere now (was in " + c.Anchor.Path + ")"
	}
	return subject + " changed" + ago(c.Ago, " ")
}

func ago(n int, sep string) string {
	switch {
	case n < 0:
		return ""
	case n == 0:
		return sep + "in the latest commit"
	case n == 1:
		return sep + "1 commit ago"
	}
	return fmt.Sprintf("%s%d commits ago", sep, n)
}

// Check brings the cache up to the memory's and the project's HEADs and
// returns the memories the code changed under. A project in no git
// repository has none, and is no error.
func Check(ctx context.Context, m *memory.Memory) (*Report, error) {
	return update(ctx, m)
}

// Known returns the pack's mark of each memory the code changed under,
// by id, as the last check found them, whatever HEADs it was made at,
// and whether that check is current: made at the memory's HEAD and the
// project's. It checks nothing: a check takes up to a second when the
// project's HEAD moved, and a session start must not wait for one. The
// daemon brings the check up to date in the background (so do cairn
// stale and cairn doctor); until then the pack shows what was last known.
func Known(m *memory.Memory) (marks map[string]string, current bool) {
	head := projectHead(m.Project)
	if head == "" {
		return nil, true // no repository, or no commit yet: nothing is anchored
	}
	memHead := memoryHead(m)
	s := loadSummary(m)
	if s == nil {
		return nil, false
	}
	marks = make(map[string]string, len(s.Report.Stale)+len(s.Report.Gone))
	for _, st := range append(s.Report.Gone, s.Report.Stale...) {
		marks[st.ID] = st.Mark()
	}
	return marks, s.Memory == memHead && s.Head == head
}

// projectHead is the commit checked out in the project dir, "" when it
// is in no repository or has no commit yet.
func projectHead(dir string) string {
	p, err := openProject(dir)
	if err != nil {
		return ""
	}
	defer p.release()
	head, err := p.head()
	if err != nil {
		return ""
	}
	return head
}

// summary is .state/anchors-report.json: the report for one pair of
// HEADs, the memory's and the project's. A session start whose HEADs
// match reads this small file only, not the entries (a warm check of
// 1,000 anchored items spends its time decoding JSON otherwise).
type summary struct {
	Version int     `json:"version"`
	Memory  string  `json:"memory"`
	Head    string  `json:"head"`
	Report  *Report `json:"report"`
}

// reportFile is the summary under .state.
const reportFile = "anchors-report.json"

// memoryHead is the memory's HEAD, "" before its first checkpoint.
func memoryHead(m *memory.Memory) string {
	h, err := m.History().Resolve("HEAD")
	if err != nil {
		return "" // a memory without checkpoints yet
	}
	return h
}

// loadSummary reads the summary the last check left; nil when there is
// none this version wrote whole.
func loadSummary(m *memory.Memory) *summary {
	b, err := os.ReadFile(m.StatePath(reportFile))
	var s summary
	if err != nil || json.Unmarshal(b, &s) != nil || s.Version != cacheVersion || s.Report == nil {
		return nil
	}
	return &s
}

func update(ctx context.Context, m *memory.Memory) (*Report, error) {
	memHead := memoryHead(m)
	var head string
	p, perr := openProject(m.Project)
	if perr == nil {
		defer p.release()
		if h, err := p.head(); err == nil {
			head = h
		}
	}
	if head == "" {
		// No repository, or no commit yet: nothing can be anchored, and
		// the memory's files are not even read.
		return &Report{Stale: []Stale{}, Gone: []Stale{}}, nil
	}
	if s := loadSummary(m); s != nil && s.Memory == memHead && s.Head == head {
		return s.Report, nil
	}

	name := m.StatePath(cacheFile)
	c := load(name)
	changed := false
	// A check cut short (a session start's deadline) keeps what it read:
	// the next one goes on from there rather than from nothing.
	keep := func(err error) error {
		if ctx.Err() != nil {
			save(name, c)
		}
		return err
	}
	if memHead != c.Memory {
		if err := follow(ctx, m, c, memHead); err != nil {
			return nil, keep(err)
		}
		changed = true
	}
	ch, err := refresh(ctx, m, p, c, head)
	if err != nil {
		return nil, keep(err)
	}
	changed = changed || ch
	if changed {
		if err := save(name, c); err != nil {
			return nil, err
		}
	}
	r := &Report{Head: head, Stale: []Stale{}, Gone: []Stale{}}
	fill(r, c, head)
	if err := save(m.StatePath(reportFile), &summary{Version: cacheVersion, Memory: memHead, Head: head, Report: r}); err != nil {
		return nil, err
	}
	return r, nil
}

func load(name string) *cache {
	c := &cache{}
	b, err := os.ReadFile(name)
	if err != nil || json.Unmarshal(b, c) != nil || c.Version != cacheVersion || c.Entries == nil {
		return &cache{Version: cacheVersion, Entries: make(map[string]*entry)}
	}
	return c
}

func save(name string, c any) error {
	var b bytes.Buffer
	if err := json.NewEncoder(&b).Encode(c); err != nil {
		return fmt.Errorf("encode %s: %w", name, err)
	}
	if err := safefile.Write(name, b.Bytes(), 0o644); err != nil {
		return fmt.Errorf("write the anchor cache: %w", err)
	}
	return nil
}

// follow brings the entries from c.Memory to the memory's HEAD: the
// checkpoints in between, newest first, say which files changed (their
// anchors are read again) and which were checked. When c.Memory is not
// among them (a new cache, history restarted) every entry is read anew.
func follow(ctx context.Context, m *memory.Memory, c *cache, head string) error {
	h := m.History()
	var log []memory.LogEntry
	if head != "" {
		var err error
		if log, err = h.Log(ctx, memory.LogOptions{}); err != nil {
			return fmt.Errorf("read the memory's history: %w", err)
		}
	}
	stop := len(log)
	for i, e := range log {
		if e.Commit == c.Memory {
			stop = i
			break
		}
	}
	whole := stop == len(log) // the whole history walked: what it does not name is gone
	type seen struct {
		change  *memory.LogEntry
		checked string
		gone    bool
	}
	found := make(map[string]*seen)
	for i := range log[:stop] {
		e := &log[i]
		if err := ctx.Err(); err != nil {
			return err
		}
		if e.Event == eventConfirm {
			ci, err := h.CommitInfo(ctx, e.Commit)
			if err != nil {
				return fmt.Errorf("read checkpoint %s: %w", e.Commit, err)
			}
			if p := ci.Trailer(TrailerChecked); codemark.NamesCode(p) && found[p] == nil {
				found[p] = &seen{checked: e.CodeCommit}
			}
		}
		chs, err := h.Changes(ctx, e.Commit)
		if err != nil {
			return fmt.Errorf("read checkpoint %s: %w", e.Commit, err)
		}
		for _, ch := range chs {
			if !codemark.NamesCode(ch.Path) {
				continue
			}
			s := found[ch.Path]
			if s == nil {
				s = &seen{}
				found[ch.Path] = s
			}
			if s.change != nil || s.gone {
				continue
			}
			if ch.Action == memory.Deleted {
				s.gone = true
				continue
			}
			s.change = e
		}
	}
	for p, s := range found {
		switch {
		case s.gone:
			delete(c.Entries, p)
		case s.change != nil:
			if old := c.Entries[p]; old != nil && old.Memory == s.change.Commit {
				old.Checked = s.checked // read by a run that was cut short
				continue
			}
			e, err := readEntry(ctx, m, p, s.change)
			if err != nil {
				return err
			}
			e.Checked = s.checked
			c.Entries[p] = e
		case c.Entries[p] != nil:
			c.Entries[p].Checked = s.checked
		}
	}
	if whole {
		for p := range c.Entries {
			if found[p] == nil || found[p].change == nil {
				delete(c.Entries, p)
			}
		}
	}
	c.Memory = head
	return nil
}

// maxText is the most of a memory file whose anchors are looked for,
// as the search index reads at most search.max_file_bytes (1 MiB by
// default) of it: a pasted log of 50 MB cost cairn doctor and the
// daemon's check half a minute and a gigabyte.
const maxText = 1 << 20

// firstPart is data when it is at most n bytes, else its first n bytes
// cut after the last line's end in them (before a rune's start if none).
func firstPart(data []byte, n int) []byte {
	if len(data) <= n {
		return data
	}
	if i := bytes.LastIndexByte(data[:n], '\n'); i >= 0 {
		return data[:i+1]
	}
	for n > 0 && data[n]&0xC0 == 0x80 {
		n-- // data[n] is inside a rune
	}
	return data[:n]
}

// readEntry reads the memory file p as checkpoint le left it; its
// anchors are resolved later, against the project.
func readEntry(ctx context.Context, m *memory.Memory, p string, le *memory.LogEntry) (*entry, error) {
	e := &entry{Memory: le.Commit, Code: le.CodeCommit, Dirty: le.CodeDirty, ID: path.Base(path.Dir(p))}
	if id, ok := model.IDFromPath(p); ok {
		e.ID = id
	}
	data, err := m.History().ReadFileAt(ctx, le.Commit, p)
	if err != nil {
		return nil, fmt.Errorf("read %s at checkpoint %s: %w", p, le.Commit, err)
	}
	data = firstPart(data, maxText)
	e.text = string(data)
	if it, err := model.Parse(p, data); err == nil {
		e.Title, e.text = it.Title, it.Title+"\n"+it.Body
		if it.ID != "" && strings.HasPrefix(p, "core/") {
			e.ID = it.ID
		}
	}
	return e, nil
}

// refresh resolves the anchors of the entries read since the last run
// and checks every entry whose base or the project's HEAD moved; it
// reports whether anything changed. When HEAD moved on from the one an
// entry was checked at, only the anchors the new commits touched are
// checked again (the others' results stand, older by those commits);
// the ages of what changed are found in one walk of the project's
// history.
func refresh(ctx context.Context, m *memory.Memory, p *project, c *cache, head string) (changed bool, err error) {
	var todo []*entry
	defer func() {
		if err != nil { // checked again next time, from the anchors resolved
			for _, e := range todo {
				e.Head = ""
			}
		}
	}()
	for mp, e := range c.Entries {
		if !e.Resolved {
			if err := resolveEntry(ctx, m, p, mp, e); err != nil {
				return false, err
			}
			if e.Code == head {
				e.Dirty = worktreeEdits(p, e)
			}
			changed = true
		}
		if (len(e.Anchors) == 0 && !e.Missing) || (e.Head == head && e.Base == e.base()) {
			continue
		}
		todo = append(todo, e)
	}
	if len(todo) == 0 {
		return changed, nil
	}
	hc, err := p.commit(head)
	if err != nil {
		return false, err
	}
	ht, err := hc.Tree()
	if err != nil {
		return false, fmt.Errorf("project commit %s: %w", head, err)
	}
	deltas := make(map[string]*delta)
	bases := make(map[string]*object.Tree)
	var (
		dated   []*entry // entries whose changes need ages
		baseAge []*entry // entries whose base needs an age
	)
	for _, e := range todo {
		base := e.base()
		var d *delta
		if e.Head != "" && e.Base == base && !e.Missing {
			if d = deltas[e.Head]; d == nil {
				if d, err = p.delta(ctx, e.Head, hc); err != nil {
					return false, err
				}
				deltas[e.Head] = d
			}
			if !d.ok {
				d = nil
			}
		}
		bt, ok := bases[base]
		if !ok {
			if bc, err := p.commit(base); err == nil {
				if bt, err = bc.Tree(); err != nil {
					return false, fmt.Errorf("project commit %s: %w", base, err)
				}
			}
			bases[base] = bt
		}
		e.Head, e.Base, e.Missing = head, base, bt == nil
		if bt == nil {
			e.Changes = nil
			continue
		}
		prior := make(map[Anchor]*Change, len(e.Changes))
		for i := range e.Changes {
			prior[e.Changes[i].Anchor] = &e.Changes[i]
		}
		var now []Change
		fresh := false
		for _, a := range e.Anchors {
			was := prior[a]
			if d != nil && !d.recheck(a, was) {
				if was != nil {
					c := *was
					if c.Ago >= 0 {
						c.Ago += d.commits
					}
					now = append(now, c)
				}
				continue
			}
			ch, err := p.check(ctx, ends{base: bt, head: ht, hc: hc, dirty: e.dirty()}, a)
			if err != nil {
				return false, err
			}
			if ch != nil {
				ch.Ago, fresh = -1, true
				now = append(now, *ch)
			}
		}
		e.Changes = now
		if d != nil && e.BaseAgo >= 0 {
			e.BaseAgo += d.commits
		} else {
			e.BaseAgo = -1
			if len(now) > 0 {
				baseAge = append(baseAge, e)
			}
		}
		if fresh {
			dated = append(dated, e)
		}
	}
	if len(dated)+len(baseAge) == 0 {
		return true, nil
	}
	var paths, commits []string
	for _, e := range dated {
		for _, ch := range e.Changes {
			if ch.Ago < 0 && ch.What != Renamed && ch.What != Vanish {
				paths = append(paths, ch.agePath())
			}
		}
	}
	for _, e := range baseAge {
		commits = append(commits, e.Base)
	}
	pathAge, commitAge, err := p.ages(ctx, hc, paths, commits)
	if err != nil {
		return false, err
	}
	for _, e := range dated {
		for i := range e.Changes {
			ch := &e.Changes[i]
			if n, ok := pathAge[ch.agePath()]; ok && ch.Ago < 0 && ch.What != Renamed && ch.What != Vanish {
				ch.Ago = n
			}
		}
	}
	for _, e := range baseAge {
		if n, ok := commitAge[e.Base]; ok {
			e.BaseAgo = n
		}
	}
	return true, nil
}

// worktreeEdits adds to the edits e's checkpoint recorded
// (memory.TrailerCodeDirty: of the files its text names) those the work
// tree holds now at its other anchors' files: a symbol's file, which the
// text need not name ("verifyStripe now hashes the raw buffer"). It is
// called only while the project's HEAD is still the commit the memory
// was written at (the daemon checks within seconds of a checkpoint), so
// that what the work tree holds beyond it is the edits the memory was
// written beside, not a later commit's content.
func worktreeEdits(p *project, e *entry) map[string]string {
	var paths []string
	for _, a := range e.Anchors {
		if _, ok := e.Dirty[a.Path]; !ok && !slices.Contains(paths, a.Path) {
			paths = append(paths, a.Path)
		}
	}
	if len(paths) == 0 {
		return e.Dirty
	}
	found := codegit.Edits(p.repo, paths)
	if len(found) == 0 {
		return e.Dirty
	}
	out := maps.Clone(e.Dirty)
	if out == nil {
		out = make(map[string]string, len(found))
	}
	for _, d := range found {
		out[d.Path] = d.Blob
	}
	return out
}

// resolveEntry finds the anchors of the memory file mp in the project's
// tree at the commit it was written at. A clone that lacks the commit
// (a shallow one) leaves the entry Missing if its text names anything.
func resolveEntry(ctx context.Context, m *memory.Memory, p *project, mp string, e *entry) error {
	e.Resolved, e.Anchors, e.Reject, e.Missing, e.Head = true, nil, nil, false, ""
	if e.Code == "" {
		return nil // written while the project had no commits, or was no repository
	}
	if e.text == "" {
		data, err := m.History().ReadFileAt(ctx, e.Memory, mp)
		if err != nil {
			return fmt.Errorf("read %s at checkpoint %s: %w", mp, e.Memory, err)
		}
		e.text = string(data)
		if it, err := model.Parse(mp, data); err == nil {
			e.text = it.Title + "\n" + it.Body
		}
	}
	cands := coderef.Extract(e.text)
	e.text = ""
	if len(cands) == 0 {
		return nil
	}
	c, err := p.commit(e.Code)
	if err != nil {
		e.Missing = true
		return nil
	}
	t, err := c.Tree()
	if err != nil {
		return fmt.Errorf("project commit %s: %w", e.Code, err)
	}
	seen := make(map[Anchor]bool)
	for _, cand := range cands {
		as, why, err := p.resolve(ctx, c, t, cand)
		if err != nil {
			return err
		}
		if why != "" {
			e.Reject = append(e.Reject, why+"\x00"+cand.Path)
		}
		for _, a := range as {
			if !seen[a] {
				seen[a] = true
				e.Anchors = append(e.Anchors, a)
			}
		}
	}
	return nil
}

// fill makes the report from the entries checked at head.
func fill(r *Report, c *cache, head string) {
	paths := make([]string, 0, len(c.Entries))
	for p := range c.Entries {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	for _, p := range paths {
		e := c.Entries[p]
		for _, rj := range e.Reject {
			why, where, _ := strings.Cut(rj, "\x00")
			r.Rejected = append(r.Rejected, Rejection{ID: e.ID, Path: where, Reason: why})
		}
		if len(e.Anchors) == 0 && !e.Missing {
			continue
		}
		if len(e.Anchors) > 0 {
			r.Anchored++
		}
		if e.Head != head {
			continue
		}
		if e.Missing {
			r.Unknown = append(r.Unknown, e.ID)
			continue
		}
		s := Stale{ID: e.ID, Path: p, Title: e.Title, Commit: e.Base, Ago: e.BaseAgo}
		var gone []Change
		for _, ch := range e.Changes {
			if ch.Gone() {
				gone = append(gone, ch)
			} else {
				s.Changes = append(s.Changes, ch)
			}
		}
		if len(s.Changes) > 0 {
			r.Stale = append(r.Stale, s)
		}
		if len(gone) > 0 {
			g := s
			g.Changes = gone
			r.Gone = append(r.Gone, g)
		}
	}
}
