package memsync

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/cairn-mem/cairn/internal/config"
	"github.com/cairn-mem/cairn/internal/lazyre"
	"github.com/cairn-mem/cairn/internal/memory"
	"github.com/cairn-mem/cairn/internal/memory/purgelist"
	"github.com/cairn-mem/cairn/internal/model"
	"github.com/cairn-mem/cairn/internal/safefile"
)

// DefaultSyncAttempts bounds the fetch, merge and push rounds of one sync
// with one remote when pushes are refused because the remote moved.
const DefaultSyncAttempts = 5

// TrailerRemote names the remote a sync merged.
const TrailerRemote = "Cairn-Remote"

// SyncOptions tune Sync.
type SyncOptions struct {
	// Remote is the remote to sync with; empty means every configured
	// remote, in name order.
	Remote string
	// NoPush fetches and merges only.
	NoPush bool
	// Getenv supplies credentials (memory.TokenEnv, SSH_AUTH_SOCK,
	// HOME); nil means os.Getenv.
	Getenv func(string) string
	// Host names the conflict copies this machine writes; empty means
	// the host name.
	Host string
	// Attempts bounds the rounds with one remote; 0 means
	// DefaultSyncAttempts.
	Attempts int
	// AllowUnrelated merges a remote whose history shares no commit with
	// the memory (two memories started apart), as if from an empty one.
	AllowUnrelated bool
}

// RemoteSync says what a sync did with one remote.
type RemoteSync struct {
	Remote    string   `json:"remote"`
	URL       string   `json:"url"`
	Merge     string   `json:"merge"` // up-to-date, fast-forward, merged, adopted, or empty (the remote had nothing)
	Commit    string   `json:"commit"`
	Changes   int      `json:"changes"`             // files changed in the work tree
	Conflicts []string `json:"conflicts,omitempty"` // conflict copies written
	Pushed    bool     `json:"pushed"`
	Attempts  int      `json:"attempts"`
	Warnings  []string `json:"warnings,omitempty"`
	Error     string   `json:"error,omitempty"`
}

// SyncResult says what Sync did.
type SyncResult struct {
	Saved   *memory.Checkpoint `json:"-"` // changes checkpointed before merging
	Remotes []RemoteSync       `json:"remotes"`
}

// Errors of Sync.
var (
	ErrNoRemotes = errors.New("no remote configured; add one with cairn remote add NAME URL")
	ErrNotMemory = errors.New("the remote is not a cairn memory")
)

// Sync brings the memory and its remotes together: for each remote, it
// fetches; fast-forwards when it can, or merges three-way with the rules
// in merge.go and commits the merge with both parents; then pushes. A
// push refused because the remote moved fetches and merges again, at most
// opts.Attempts times. It never forces a push, refuses a remote whose
// history was rewritten or has nothing in common with the memory, and
// leaves the memory untouched when anything fails. Changes not yet
// checkpointed are checkpointed first. An error with one remote does not
// stop the others; the error returned names every remote that failed.
func Sync(ctx context.Context, m *memory.Memory, opts SyncOptions) (*SyncResult, error) {
	if opts.Getenv == nil {
		opts.Getenv = os.Getenv
	}
	if opts.Host == "" {
		opts.Host = hostName()
	}
	if opts.Attempts <= 0 {
		opts.Attempts = DefaultSyncAttempts
	}
	var remotes []memory.Remote
	if opts.Remote != "" {
		r, err := m.Git().Remote(opts.Remote)
		if err != nil {
			return nil, err
		}
		remotes = []memory.Remote{r}
	} else {
		rs, err := m.Git().Remotes()
		if err != nil {
			return nil, err
		}
		if len(rs) == 0 {
			return nil, ErrNoRemotes
		}
		remotes = rs
	}
	// One sync at a time: two would fetch and merge the same thing twice.
	unlockSync, err := safefile.Lock(ctx, m.StatePath("sync.lock"), -1)
	if err != nil {
		return nil, fmt.Errorf("sync: wait for another sync: %w", err)
	}
	defer unlockSync()

	res := &SyncResult{}
	unlock, err := m.Lock(ctx)
	if err != nil {
		return nil, err
	}
	res.Saved, err = m.CheckpointHeld(ctx, memory.CheckpointOptions{Message: "checkpoint: before sync", Event: "pre-sync"})
	unlock()
	if err != nil && !errors.Is(err, memory.ErrNothingToDo) {
		return nil, err
	}
	var failed []string
	for _, r := range remotes {
		rs := syncRemote(ctx, m, r, opts)
		if rs.Error != "" {
			failed = append(failed, rs.Error)
		}
		res.Remotes = append(res.Remotes, rs)
	}
	if len(failed) > 0 {
		return res, errors.New(strings.Join(failed, "; "))
	}
	return res, nil
}

func syncRemote(ctx context.Context, m *memory.Memory, r memory.Remote, opts SyncOptions) RemoteSync {
	rs := RemoteSync{Remote: r.Name, URL: memory.RedactURL(r.URL)}
	fail := func(err error) RemoteSync {
		rs.Error = err.Error()
		return rs
	}
	for rs.Attempts < opts.Attempts {
		rs.Attempts++
		f, err := m.Git().Fetch(ctx, r.Name, opts.Getenv)
		if err != nil {
			return fail(err)
		}
		if f.Empty {
			rs.Merge = "empty"
		} else {
			if err := mergeFetched(ctx, m, f, opts, &rs); err != nil {
				return fail(err)
			}
		}
		if h, err := m.History().Resolve("HEAD"); err == nil {
			rs.Commit = h
		}
		if opts.NoPush {
			return rs
		}
		p, err := m.Git().Push(ctx, r.Name, opts.Getenv)
		if errors.Is(err, memory.ErrRemoteMoved) {
			continue
		}
		if err != nil {
			return fail(err)
		}
		rs.Pushed = !p.UpToDate
		return rs
	}
	return fail(fmt.Errorf("sync %s: the remote kept moving; gave up after %d rounds of fetch, merge and push (run cairn sync again)", r.Name, rs.Attempts))
}

// mergeFetched merges what a fetch brought, under the write lock.
func mergeFetched(ctx context.Context, m *memory.Memory, f *memory.Fetched, opts SyncOptions, rs *RemoteSync) error {
	// Its size only: the remote's file may be huge (the merge refuses it).
	if _, err := m.History().FileSizeAt(ctx, f.Tracking, config.File); err != nil {
		return fmt.Errorf("sync %s (%s): %w: its %s has no cairn.yaml", f.Remote, f.URL, ErrNotMemory, f.Branch)
	}
	unlock, err := m.Lock(ctx)
	if err != nil {
		return err
	}
	defer unlock()
	// Changes made since Sync checkpointed (a hook, between two rounds).
	// In the first round Sync has just checkpointed; a change made since
	// in a file the merge writes stops the merge (memory.ErrDirty), and
	// any other stays as it is for the next checkpoint.
	if rs.Attempts > 1 {
		if _, err := m.CheckpointHeld(ctx, memory.CheckpointOptions{Message: "checkpoint: before sync", Event: "pre-sync"}); err != nil && !errors.Is(err, memory.ErrNothingToDo) {
			return err
		}
	}
	// Both sides' purges hold: a path the remote purged leaves here too,
	// even where it was changed here since.
	purged := m.Purged()
	if data, err := m.History().ReadFileAt(ctx, f.Tracking, memory.PurgedFile); err == nil {
		purged = append(purged, purgelist.Parse(data)...)
	}
	mg := &merger{host: opts.Host, now: m.Now(), remote: f.Remote, taken: map[string]bool{}, purged: purged}
	var warnings []string
	res, err := m.Git().Merge(ctx, memory.MergeOptions{
		Theirs:         f.Tracking,
		Merge:          mg.merge,
		Subject:        "sync: merge " + f.Remote + "/" + f.Branch,
		AdoptUnrelated: onlyInit(ctx, m),
		AllowUnrelated: opts.AllowUnrelated,
		Ask:            func(p string) bool { return isConfig(p) || purgelist.Has(mg.purged, p) || p == memory.PurgedFile },
		MaxBlobBytes:   m.Config.Sync.BlobLimit(),
		Trailers: []memory.Trailer{
			{Key: memory.TrailerEvent, Value: "sync"},
			{Key: TrailerRemote, Value: f.Remote},
			{Key: memory.TrailerSchema, Value: strconv.Itoa(model.SchemaVersion)},
		},
		CheckIncoming: func(p string, data []byte) error {
			if w := checkIncoming(p, data); w != "" {
				warnings = append(warnings, fmt.Sprintf("%s: %s (kept as it is; fix it with cairn edit)", f.Remote, w))
			}
			return nil
		},
	})
	if errors.Is(err, memory.ErrUnrelated) {
		return fmt.Errorf("sync %s (%s): %w; refusing to merge (cairn sync %s --allow-unrelated merges two memories started apart)",
			f.Remote, f.URL, err, f.Remote)
	}
	if err != nil {
		return fmt.Errorf("sync %s: %w", f.Remote, err)
	}
	for _, w := range mg.warnings {
		warnings = append(warnings, f.Remote+": "+w)
	}
	if len(res.Held) > 0 {
		warnings = append(warnings, fmt.Sprintf("%s: changes to %s not applied (%s; hooks come from the cairn binary, never from a remote)",
			f.Remote, memory.HooksDir+"/", strings.Join(res.Held, ", ")))
	}
	for _, w := range warnings {
		m.Warn(w)
	}
	rs.Warnings = append(rs.Warnings, warnings...)
	if rs.Merge == "" || res.Kind != memory.MergeUpToDate {
		rs.Merge = res.Kind
	}
	rs.Changes += len(res.Changes)
	rs.Conflicts = append(rs.Conflicts, res.Extra...)
	if res.Kind != memory.MergeUpToDate {
		// A first sync brings the encrypt: section the memory was not
		// opened with.
		if err := m.FollowEncryption(ctx); err != nil {
			m.Warn(fmt.Sprintf("sync %s: %v", f.Remote, err))
		}
		m.Followed(ctx, &memory.Checkpoint{Hash: res.Head})
	}
	return nil
}

// onlyInit reports whether the memory holds nothing but its first
// checkpoint, so that a remote's unrelated history can replace it.
func onlyInit(ctx context.Context, m *memory.Memory) bool {
	c, err := m.History().CommitInfo(ctx, "HEAD")
	return err == nil && len(c.Parents) == 0 && c.Trailer(memory.TrailerEvent) == "" && strings.HasPrefix(c.Subject, "init:")
}

// checkIncoming returns a warning about a file the remote brings that
// cairn cannot read (items and session.yaml files).
func checkIncoming(p string, data []byte) string {
	// cairn.yaml is the merger's (mergeConfig), which says once what it
	// kept from a remote's invalid file.
	switch {
	case strings.HasSuffix(p, ".md") && model.LayerOf(p) == model.LayerCore && !IsConflictCopy(p):
		if _, err := model.Parse(p, data); err != nil {
			return err.Error()
		}
	case strings.HasSuffix(p, "/"+model.SessionFile):
		if _, err := model.ParseSession(p, data); err != nil {
			return err.Error()
		}
	}
	return ""
}

var notHostChar = lazyre.New(`[^A-Za-z0-9_-]+`)

func hostName() string {
	h, _ := os.Hostname()
	h, _, _ = strings.Cut(h, ".")
	h = notHostChar.ReplaceAllString(h, "-")
	if h == "" {
		return "host"
	}
	return h
}

// Remotes lists the configured remotes.
func Remotes(m *memory.Memory) ([]memory.Remote, error) { return m.Git().Remotes() }

// ReachTimeout bounds Reach: a remote that has not answered by then is
// as good as unreachable for a sync.
const ReachTimeout = 10 * time.Second

// Reach checks that a remote answers when asked the way Sync asks, with
// cairn's own credentials (a token in memory.TokenEnv or
// .state/credentials, the ssh agent), which the git tool would not have.
// getenv supplies them; nil means os.Getenv.
func Reach(ctx context.Context, m *memory.Memory, remote string, getenv func(string) string) error {
	if getenv == nil {
		getenv = os.Getenv
	}
	ctx, cancel := context.WithTimeout(ctx, ReachTimeout)
	defer cancel()
	return m.Git().Reach(ctx, remote, getenv)
}

// AddRemote configures a remote (stored in .git/config, where git sees it
// too).
func AddRemote(ctx context.Context, m *memory.Memory, name, url, base string) (memory.Remote, error) {
	unlock, err := m.Lock(ctx)
	if err != nil {
		return memory.Remote{}, err
	}
	defer unlock()
	return m.Git().AddRemote(name, url, base)
}

// RemoveRemote forgets a remote; nothing on the remote changes.
func RemoveRemote(ctx context.Context, m *memory.Memory, name string) error {
	unlock, err := m.Lock(ctx)
	if err != nil {
		return err
	}
	defer unlock()
	return m.Git().RemoveRemote(name)
}

// Conflict is a conflict copy a sync wrote, beside the file it differs
// from.
type Conflict struct {
	Path     string `json:"path"`     // the copy
	Original string `json:"original"` // the file kept in place
}

// Conflicts lists the conflict copies in the memory.
func Conflicts(ctx context.Context, m *memory.Memory) ([]Conflict, error) {
	var out []Conflict
	err := filepath.WalkDir(m.Dir, func(name string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		if d.IsDir() {
			if name != m.Dir && (strings.EqualFold(d.Name(), ".git") || strings.EqualFold(d.Name(), memory.StateDir) || strings.EqualFold(d.Name(), "inbox")) && filepath.Dir(name) == m.Dir {
				return filepath.SkipDir
			}
			return nil
		}
		if !IsConflictCopy(d.Name()) {
			return nil
		}
		rel, _ := filepath.Rel(m.Dir, name)
		p := filepath.ToSlash(rel)
		out = append(out, Conflict{Path: p, Original: ConflictOriginal(p)})
		return nil
	})
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out, err
}

// How Resolve settles a conflict.
const (
	KeepOriginal = "original" // drop the copy
	KeepCopy     = "copy"     // the copy replaces the original
	KeepBoth     = "both"     // the copy becomes an item of its own
)

// Resolve settles the conflict copy at p (a path, or the original's path
// when it has exactly one copy) and checkpoints the result.
func Resolve(ctx context.Context, m *memory.Memory, p, keep string) (*memory.Checkpoint, error) {
	cs, err := Conflicts(ctx, m)
	if err != nil {
		return nil, err
	}
	var c *Conflict
	for i := range cs {
		if cs[i].Path == p {
			c = &cs[i]
			break
		}
	}
	if c == nil {
		var of []Conflict
		for _, x := range cs {
			if x.Original == p {
				of = append(of, x)
			}
		}
		switch len(of) {
		case 0:
			return nil, fmt.Errorf("resolve %s: no conflict copy there", p)
		case 1:
			c = &of[0]
		default:
			return nil, fmt.Errorf("resolve %s: %d conflict copies; name one", p, len(of))
		}
	}
	unlock, err := m.LockSettled(ctx)
	if err != nil {
		return nil, err
	}
	defer unlock()
	data, err := m.ReadFile(c.Path)
	if err != nil {
		return nil, err
	}
	data = unmarkConflict(data)
	b := &memory.Writes{}
	switch keep {
	case KeepOriginal:
	case KeepCopy:
		b.Put(c.Original, data)
	case KeepBoth:
		it, err := model.Parse(c.Original, data)
		if err != nil {
			return nil, fmt.Errorf("resolve %s: keep both needs an item: %w", c.Path, err)
		}
		it.ID = model.NewID(m.Now())
		out, err := it.Marshal()
		if err != nil {
			return nil, err
		}
		b.Put(path.Join(path.Dir(c.Original), it.FileName()), out)
	default:
		return nil, fmt.Errorf("resolve: keep %q: want original, copy or both", keep)
	}
	b.Remove(c.Path)
	return m.CommitWrites(ctx, b, memory.CheckpointOptions{
		Message: fmt.Sprintf("resolve: keep %s of %s", keep, c.Original),
		Event:   "resolve",
	})
}

// unmarkConflict takes out the keys markConflict added.
func unmarkConflict(data []byte) []byte {
	lines := strings.SplitAfter(string(data), "\n")
	var out strings.Builder
	inFront := false
	for i, l := range lines {
		if i == 0 && model.IsDelimiter(strings.TrimRight(l, "\n")) {
			inFront = true
		} else if inFront && model.IsDelimiter(strings.TrimRight(l, "\n")) {
			inFront = false
		} else if inFront && (strings.HasPrefix(l, "conflict_of:") || strings.HasPrefix(l, "conflict_from:") || strings.HasPrefix(l, "conflict_at:")) {
			continue
		}
		out.WriteString(l)
	}
	return []byte(out.String())
}

// VerifyOptions tune Verify.
type VerifyOptions struct {
	// Repair fetches missing or corrupt objects from the remotes.
	Repair bool
	// Getenv supplies credentials; nil means os.Getenv.
	Getenv func(string) string
}

// VerifyReport is what Verify found and did.
type VerifyReport struct {
	Objects   int              `json:"objects"`
	Problems  []memory.Problem `json:"problems"`
	Repaired  int              `json:"repaired"`
	Remotes   []string         `json:"remotes_tried,omitempty"`
	Conflicts []Conflict       `json:"conflicts"`
	IndexDocs int              `json:"index_documents"`
	IndexNote string           `json:"index_note,omitempty"`
	// Links are the symbolic links in the work tree, which cairn neither
	// follows nor commits; CommittedLinks those HEAD records (an old
	// commit's, or a remote's), which a clone would make.
	Links          []string `json:"links"`
	CommittedLinks []string `json:"committed_links"`
}

// ErrLinks is returned by Verify when the memory holds symbolic links.
var ErrLinks = errors.New("symbolic links in the memory")

// ErrDamaged is returned by Verify when objects are missing or corrupt
// and could not all be repaired.
var ErrDamaged = errors.New("the memory repository is damaged")

// Verify checks every object of the history (its content hashes to its
// name, nothing is missing), and optionally the search index. With
// opts.Repair, objects that are missing or corrupt are fetched from the
// remotes, in name order, until none is left.
func Verify(ctx context.Context, m *memory.Memory, opts VerifyOptions) (*VerifyReport, error) {
	if opts.Getenv == nil {
		opts.Getenv = os.Getenv
	}
	res, err := m.Git().Verify(ctx)
	if err != nil {
		return nil, err
	}
	rep := &VerifyReport{Objects: res.Objects, Problems: res.Problems}
	open := func() []memory.Problem {
		var out []memory.Problem
		for _, p := range rep.Problems {
			if !p.Fixed {
				out = append(out, p)
			}
		}
		return out
	}
	if opts.Repair && len(rep.Problems) > 0 {
		rs, err := m.Git().Remotes()
		if err != nil {
			return nil, err
		}
		unlock, err := m.Lock(ctx)
		if err != nil {
			return nil, err
		}
		for _, r := range rs {
			if len(open()) == 0 {
				break
			}
			rep.Remotes = append(rep.Remotes, r.Name)
			n, err := m.Git().Repair(ctx, r.Name, rep.Problems, opts.Getenv)
			rep.Repaired += n
			if err != nil {
				m.Warn(err.Error())
			}
		}
		unlock()
		if rep.Repaired > 0 {
			// Check again: a repaired tree may name objects that were
			// out of reach before.
			again, err := m.Git().Verify(ctx)
			if err != nil {
				return nil, err
			}
			fixed := rep.Problems
			rep.Objects, rep.Problems = again.Objects, again.Problems
			for _, p := range fixed {
				if p.Fixed {
					rep.Problems = append(rep.Problems, p)
				}
			}
		}
	}
	if rep.Conflicts, err = Conflicts(ctx, m); err != nil {
		return nil, err
	}
	if rep.Links, rep.CommittedLinks, err = m.Links(ctx); err != nil {
		return nil, err
	}
	if n := len(open()); n > 0 {
		return rep, fmt.Errorf("%w: %d objects missing or corrupt (cairn verify --repair fetches them from the remotes)", ErrDamaged, n)
	}
	if n := len(rep.Links) + len(rep.CommittedLinks); n > 0 {
		return rep, fmt.Errorf("%w: %d, which cairn does not follow or commit: remove them, then cairn checkpoint", ErrLinks, n)
	}
	return rep, nil
}

// AutoSync says when a long-running process (the daemon) should sync: a
// little after each checkpoint, and on an interval, backing off while
// syncs fail (offline, a server down) up to MaxBackoff. The zero value
// uses the defaults. It does no I/O: the caller asks Due and calls Sync.
type AutoSync struct {
	Interval   time.Duration // between syncs when nothing happens; 0 means 5 minutes
	After      time.Duration // from a checkpoint to its sync; 0 means 10 seconds
	MaxBackoff time.Duration // longest wait after failures; 0 means 30 minutes

	next     time.Time
	failures int
}

func (a *AutoSync) interval() time.Duration { return orDefault(a.Interval, 5*time.Minute) }

func orDefault(d, def time.Duration) time.Duration {
	if d > 0 {
		return d
	}
	return def
}

// Checkpointed notes a checkpoint made at now: a sync is due soon, unless
// syncs are failing, when the backoff holds.
func (a *AutoSync) Checkpointed(now time.Time) {
	if a.failures > 0 {
		return
	}
	if t := now.Add(orDefault(a.After, 10*time.Second)); a.next.IsZero() || t.Before(a.next) {
		a.next = t
	}
}

// Due reports whether a sync is due at now, and when the next one is.
func (a *AutoSync) Due(now time.Time) (bool, time.Time) {
	if a.next.IsZero() {
		a.next = now // the first sync: at start
	}
	return !now.Before(a.next), a.next
}

// Done records a sync that ended at now with err, and schedules the next:
// after Interval, or after a backoff doubling from After with each failure.
func (a *AutoSync) Done(now time.Time, err error) {
	if err == nil {
		a.failures = 0
		a.next = now.Add(a.interval())
		return
	}
	a.failures++
	wait := orDefault(a.After, 10*time.Second)
	for i := 1; i < a.failures && wait < orDefault(a.MaxBackoff, 30*time.Minute); i++ {
		wait *= 2
	}
	a.next = now.Add(min(wait, orDefault(a.MaxBackoff, 30*time.Minute)))
}

// HasRemotes reports whether any remote is configured.
func HasRemotes(m *memory.Memory) bool {
	rs, err := m.Git().Remotes()
	return err == nil && len(rs) > 0
}

// Loop is the daemon's syncing: it syncs the memory in Dir with its
// remotes when Schedule says: at the start, a little after each new
// commit, and every interval, backing off while syncs fail. A nil
// Schedule means the schedule of cairn.yaml's sync section. It works
// through a Memory of its own, whose lock excludes the caller's like
// another process's, so a slow network never holds the caller's memory.
// Report, if set, receives each sync's outcome. Memories without remotes
// are looked at again every few seconds, so adding a remote starts the
// syncing.
type Loop struct {
	Dir      string
	Options  memory.Options
	Schedule *AutoSync
	Report   func(*SyncResult, error)
}

// Serve syncs until ctx is done, and returns nil then. With no Schedule
// and sync.auto false in cairn.yaml it returns nil at once: there is
// nothing to do. Failed syncs go to Report, not to the caller; Serve
// fails only when it cannot open the memory.
func (l *Loop) Serve(ctx context.Context) error {
	m, err := memory.Open(ctx, l.Dir, l.Options)
	if err != nil {
		return fmt.Errorf("sync loop: open %s: %w", l.Dir, err)
	}
	defer m.Close()
	a := l.Schedule
	if a == nil {
		if !m.Config.Sync.Enabled() {
			return nil
		}
		a = Schedule(m.Config.Sync)
	}
	tick := time.NewTicker(time.Second)
	defer tick.Stop()
	head := ""
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-tick.C:
		}
		if !HasRemotes(m) {
			continue
		}
		now := m.Now()
		if h, err := m.History().Resolve("HEAD"); err == nil && h != head {
			if head != "" {
				a.Checkpointed(now)
			}
			head = h
		}
		if due, _ := a.Due(now); !due {
			continue
		}
		res, err := Sync(ctx, m, SyncOptions{})
		if ctx.Err() != nil {
			return nil
		}
		a.Done(m.Now(), err)
		// What the sync took is the commit it pushed, not HEAD now: a
		// checkpoint that landed between its push and this line was read
		// as synced and waited for the next interval to be pushed.
		if h := syncedCommit(res); h != "" {
			head = h
		} else if h, err := m.History().Resolve("HEAD"); err == nil {
			head = h
		}
		if l.Report != nil {
			l.Report(res, err)
		}
	}
}

// syncedCommit is the commit the first remote of res was synced at, ""
// if none: the oldest, the sync resolving each remote's in turn.
func syncedCommit(res *SyncResult) string {
	if res == nil {
		return ""
	}
	for _, r := range res.Remotes {
		if r.Commit != "" {
			return r.Commit
		}
	}
	return ""
}

// Schedule returns the AutoSync that cairn.yaml's sync section describes.
func Schedule(c config.Sync) *AutoSync {
	return &AutoSync{
		After:      time.Duration(c.After),
		Interval:   time.Duration(c.Interval),
		MaxBackoff: time.Duration(c.MaxBackoff),
	}
}

// RedactedRemotes lists the configured remotes with their URLs redacted
// (memory.RedactURL): a URL may hold a password
// (https://user:secret@host/), which is never to be shown.
func RedactedRemotes(m *memory.Memory) ([]memory.Remote, error) {
	rs, err := Remotes(m)
	for i := range rs {
		rs[i].URL = memory.RedactURL(rs[i].URL)
	}
	return rs, err
}
