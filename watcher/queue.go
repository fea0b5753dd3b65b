package watcher

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/cairn-mem/cairn/internal/safefile"
	"github.com/oklog/ulid/v2"
)

// State is where a job is. Each state is a folder, and a job changes state
// by a rename(2) of its file.
type State string

// The states of a job.
const (
	Pending    State = "pending"    // <memory>/inbox/: waiting to be claimed
	Processing State = "processing" // claimed by a worker
	Failed     State = "failed"     // out of attempts, or an inbox file the queue could not take
	Dropped    State = "dropped"    // failed, then dropped by a person; kept, never run
)

// ParseState returns the State a user named (any case), and whether it
// is one of Pending, Processing, Failed or Dropped.
func ParseState(s string) (State, bool) {
	st := State(strings.ToLower(s))
	switch st {
	case Pending, Processing, Failed, Dropped:
		return st, true
	}
	return st, false
}

// Defaults of QueueOptions, and Recover's usual threshold.
const (
	DefaultMaxAttempts = 5
	// DefaultMaxAbandoned is far above DefaultMaxAttempts: a worker that
	// dies holding a job was most likely killed for a reason of its own
	// (a restart, a laptop lid, an OOM elsewhere), and a job that runs
	// first after every start-up is the one a series of such deaths hits.
	// Only a job that stops its worker nearly every time reaches it.
	DefaultMaxAbandoned = 20
	DefaultSettle       = 2 * time.Second
	// RecoverAfter is how long a job may sit in processing/ before Recover
	// at start-up takes it for abandoned.
	RecoverAfter = 5 * time.Minute
)

var (
	// ErrEmpty is returned by Claim when no pending job is due.
	ErrEmpty = errors.New("no job is due")
	// ErrLost is returned by Done and Fail when the job's file is no longer
	// in processing/: someone else recovered, finished or removed it.
	ErrLost = errors.New("job is no longer in processing")
	// errSkip tells Claim to go on to the next candidate.
	errSkip = errors.New("skip")
)

// QueueOptions tune a Queue. The zero value gives the defaults.
type QueueOptions struct {
	// MaxAttempts is how many failed attempts send a job to failed/.
	MaxAttempts int
	// MaxAbandoned is how many times Recover may put back a job whose
	// worker stopped holding it before it sends the job to failed/, so
	// that a job that crashes its worker every time is not run forever.
	// Zero means DefaultMaxAbandoned.
	MaxAbandoned int
	// Backoff says how long a job waits before its next attempt, given the
	// attempts so far. The default doubles from 5 s up to 5 min.
	Backoff func(attempts int) time.Duration
	// Settle is how long a file dropped into the inbox under a name the
	// queue did not give it must stay unchanged before it is taken, so that
	// a writer that does not write through a temporary name and a rename
	// has time to finish. Zero means DefaultSettle, negative means none.
	Settle time.Duration
	// Now is the clock; nil means time.Now.
	Now func() time.Time
	// OnReject, if set, is told of each file dropped into the inbox that
	// Claim sent straight to failed/ (its record, with the reason in
	// LastError), so that a run of Claims can count it as a failure.
	OnReject func(j *Job)
	// Document, if set, reports whether an inbox name is one that writers
	// give one JSON document (the capture hook's hook-<time>-<pid>.json),
	// written there in place or renamed there once complete: such a file
	// is taken as soon as it holds the whole document, without Settle. One
	// cut short waits a minute, as its writer may still be writing, and is
	// then taken as any other file (to failed/, with the reason; empty, it
	// is removed); one too large to read whole (MaxJobSize) settles as any
	// other when it ends as a document does, and waits as one cut short
	// when it does not.
	Document func(name string) bool
	// Staged, if set, reports whether a hidden inbox name is a writer's
	// temporary file, and the name the writer renames it to once written
	// (".hook-1-2.tmp" → "hook-1-2.json"). Sweep cleans up those whose
	// writer was killed before the rename.
	Staged func(name string) (final string, ok bool)
}

// Queue is the durable file queue. Its methods are safe for concurrent use
// by several goroutines and several processes.
type Queue struct {
	inbox        string
	dirs         map[State]string
	files        string // attachments: inbox files wrapped as jobs
	max          int
	maxAbandoned int
	backoff      func(int) time.Duration
	settle       time.Duration
	now          func() time.Time
	onReject     func(*Job)
	document     func(string) bool
	staged       func(string) (string, bool)
	entropy      io.Reader

	// held are the jobs put back in pending/ without their failure
	// recorded (the disk was full), by id: not claimed by this Queue
	// before the time given, the backoff the record would have said.
	heldMu sync.Mutex
	held   map[string]time.Time
}

// OpenQueue opens (creating them if needed) the queue whose pending folder
// is inbox and whose other folders live under root: root/processing,
// root/failed, root/dropped and root/files. In a memory repository these
// are <memory>/inbox and <memory>/.state/queue.
func OpenQueue(inbox, root string, opts QueueOptions) (*Queue, error) {
	inbox, err := filepath.Abs(inbox)
	if err != nil {
		return nil, fmt.Errorf("open queue: %w", err)
	}
	root, err = filepath.Abs(root)
	if err != nil {
		return nil, fmt.Errorf("open queue: %w", err)
	}
	q := &Queue{
		inbox: inbox,
		dirs: map[State]string{
			Pending:    inbox,
			Processing: filepath.Join(root, "processing"),
			Failed:     filepath.Join(root, "failed"),
			Dropped:    filepath.Join(root, "dropped"),
		},
		files:        filepath.Join(root, "files"),
		max:          opts.MaxAttempts,
		maxAbandoned: opts.MaxAbandoned,
		backoff:      opts.Backoff,
		settle:       opts.Settle,
		now:          opts.Now,
		onReject:     opts.OnReject,
		document:     opts.Document,
		staged:       opts.Staged,
		entropy:      &ulid.LockedMonotonicReader{MonotonicReader: ulid.Monotonic(rand.Reader, 0)},
		held:         map[string]time.Time{},
	}
	if q.max <= 0 {
		q.max = DefaultMaxAttempts
	}
	if q.maxAbandoned <= 0 {
		q.maxAbandoned = DefaultMaxAbandoned
	}
	if q.backoff == nil {
		q.backoff = defaultBackoff
	}
	if q.settle == 0 {
		q.settle = DefaultSettle
	}
	if q.now == nil {
		q.now = time.Now
	}
	// Jobs hold prompts and tool output before redaction: this user only,
	// also for an inbox an older cairn made 0755.
	if err := os.MkdirAll(inbox, 0o700); err != nil {
		return nil, fmt.Errorf("open queue: %w", err)
	}
	if err := os.Chmod(inbox, 0o700); err != nil {
		return nil, fmt.Errorf("open queue: %w", err)
	}
	for _, d := range []string{q.dirs[Processing], q.dirs[Failed], q.dirs[Dropped], q.files} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			return nil, fmt.Errorf("open queue: %w", err)
		}
	}
	// Moves between the folders are renames, which do not cross file
	// systems: say so now rather than at the first claim.
	a, errA := os.Stat(inbox)
	b, errB := os.Stat(root)
	if errA == nil && errB == nil {
		if da, _ := fileID(a); da != 0 {
			if db, _ := fileID(b); da != db {
				return nil, fmt.Errorf("open queue: %s and %s are on different file systems; the queue moves jobs between them by rename", inbox, root)
			}
		}
	}
	return q, nil
}

func defaultBackoff(attempts int) time.Duration {
	d := 5 * time.Second
	for i := 1; i < attempts && d < 5*time.Minute; i++ {
		d *= 2
	}
	return min(d, 5*time.Minute)
}

// Dir returns the folder that holds the jobs in state s.
func (q *Queue) Dir(s State) string { return q.dirs[s] }

// Enqueue adds a job to the pending folder and returns it as stored: with a
// new id, the current schema, its creation time, no attempts. The job is on
// disk when Enqueue returns: written to a temporary name, synced, renamed,
// and the folder synced.
func (q *Queue) Enqueue(ctx context.Context, j Job) (*Job, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	now := q.now().UTC()
	id, err := q.newID(now)
	if err != nil {
		return nil, fmt.Errorf("enqueue: %w", err)
	}
	j.ID, j.Schema, j.State = id, Schema, Pending
	j.Attempts, j.Abandoned, j.LastError, j.NotBefore = 0, 0, "", time.Time{}
	if j.Created.IsZero() {
		j.Created = now
	}
	j.Updated = now
	if err := j.Validate(); err != nil {
		return nil, fmt.Errorf("enqueue %s job: %w", j.Kind, err)
	}
	if j.Kind == KindInboxFile || j.Kind == KindRejected {
		return nil, fmt.Errorf("enqueue: kind %q is reserved for the queue", j.Kind)
	}
	data, err := j.encode()
	if err != nil {
		return nil, err
	}
	if err := safefile.Write(filepath.Join(q.inbox, id+".json"), data, 0o600); err != nil {
		return nil, fmt.Errorf("enqueue %s job: %w", j.Kind, err)
	}
	return &j, nil
}

// Claim takes the oldest pending job that is due by renaming its file into
// processing/, and returns it. When several claimers race for one job,
// exactly one rename succeeds. Files dropped into the inbox by others are
// taken here too (see the package documentation): a job document becomes a
// job, other text becomes a KindInboxFile job, and a file that is neither
// goes to failed/ with the reason. Claim returns ErrEmpty when nothing is
// due.
func (q *Queue) Claim(ctx context.Context) (*Job, error) {
	es, err := q.scan(q.inbox, false)
	if err != nil {
		return nil, fmt.Errorf("claim: %w", err)
	}
	now := q.now()
	for _, e := range es {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if e.id != "" {
			j, err := q.readJob(q.inbox, e.name)
			if errors.Is(err, fs.ErrNotExist) {
				continue
			}
			if err == nil && q.forged(j) {
				err = errors.New("forged")
			}
			if err == nil {
				if j.NotBefore.After(now) || q.isHeld(j.ID, now) {
					continue
				}
				j, err = q.take(e.name, now)
				if errors.Is(err, errSkip) {
					continue
				}
				return j, err
			}
			// Named like a job but holding something else: take it like
			// any other dropped file.
			fi, err := os.Lstat(filepath.Join(q.inbox, e.name))
			if err != nil {
				continue
			}
			e.mod = fi.ModTime()
		}
		if !q.settled(e, now) {
			continue
		}
		j, err := q.adopt(e.name, now)
		if errors.Is(err, errSkip) {
			continue
		}
		return j, err
	}
	return nil, ErrEmpty
}

// settled reports whether the dropped file e may be taken: it is a
// document, which adopt takes once whole (documentDue), or it has not
// changed for the settle time.
func (q *Queue) settled(e entry, now time.Time) bool {
	if q.isDocument(e.name) {
		return true
	}
	return q.settle <= 0 || now.Sub(e.mod) >= q.settle
}

func (q *Queue) isDocument(name string) bool {
	return q.document != nil && q.document(name)
}

// documentDue is when the file at path under a Document name, of
// content data (full: read whole) and modified at mod, may be taken: at
// once when it holds a whole JSON document; too large to read whole, once
// settled if it ends as a document does (a writer stalled in the middle
// of one seldom stops right after a closing bracket); else after
// minTempAge, when its writer is surely done or gone.
func (q *Queue) documentDue(path string, data []byte, full bool, mod time.Time) time.Time {
	switch {
	case full && !cutShort(data):
		return time.Time{}
	case !full && endsDocument(path):
		return mod.Add(q.settle)
	default:
		return mod.Add(minTempAge)
	}
}

// endsDocument reports whether the file at path ends with a closing
// bracket, but for JSON's white space.
func endsDocument(path string) bool {
	f, err := openNoFollow(path)
	if err != nil {
		return false
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return false
	}
	buf := make([]byte, min(fi.Size(), 64))
	if _, err := f.ReadAt(buf, fi.Size()-int64(len(buf))); err != nil {
		return false
	}
	t := jsonTrim(buf)
	return len(t) > 0 && (t[len(t)-1] == '}' || t[len(t)-1] == ']')
}

// take claims the pending job file name.
func (q *Queue) take(name string, now time.Time) (*Job, error) {
	src, dst := filepath.Join(q.inbox, name), filepath.Join(q.dirs[Processing], name)
	if err := os.Rename(src, dst); err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, errSkip // another claimer won
		}
		return nil, fmt.Errorf("claim %s: %w", name, err)
	}
	// The modification time of a file in processing/ is its claim time,
	// which Recover goes by.
	_ = os.Chtimes(dst, now, now)
	// Read again what was renamed: the file read before may have been
	// replaced by a newer version of the job in between.
	j, err := q.readJob(q.dirs[Processing], name)
	if err != nil || j.NotBefore.After(now) {
		_ = os.Rename(dst, src)
		return nil, errSkip
	}
	j.State = Processing
	return j, nil
}

// Done removes a finished job. Call it only once the job's effect is
// committed: a crash before Done makes the job run again, never vanish. It
// removes the job's attachment too (for KindInboxFile). Done returns an
// error wrapping ErrLost when the job is no longer in processing/.
func (q *Queue) Done(j *Job) error {
	if err := checkID(j.ID); err != nil {
		return fmt.Errorf("done: %w", err)
	}
	if err := os.Remove(filepath.Join(q.dirs[Processing], j.ID+".json")); err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("done %s: %w", j.ID, ErrLost)
		}
		return fmt.Errorf("done %s: %w", j.ID, err)
	}
	if att := q.Attachment(j); att != "" {
		if err := os.Remove(att); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("done %s: remove its file: %w", j.ID, err)
		}
	}
	j.State = ""
	return nil
}

// forged reports whether j claims a kind only the queue makes without
// being what the queue made: such a file is taken like any dropped file,
// and rejected.
func (q *Queue) forged(j *Job) bool {
	return j.Kind == KindRejected || j.Kind == KindInboxFile && q.Attachment(j) == ""
}

// Attachment returns the path of the file the queue keeps for an
// inbox-file job (or a rejected file's record): a file in its files folder
// named for the job. For any other pointer it returns "": a consumer of
// KindInboxFile jobs reads only what Attachment returns, and Done removes
// only that.
func (q *Queue) Attachment(j *Job) string {
	if j.Pointer == nil || filepath.Dir(j.Pointer.Path) != q.files ||
		!strings.HasPrefix(filepath.Base(j.Pointer.Path), j.ID+"--") {
		return ""
	}
	return j.Pointer.Path
}

// Fail records a failed attempt at a claimed job: one more attempt, the
// error, and either back to pending, not to be claimed before a backoff
// delay (NotBefore), or, once it has used MaxAttempts, to failed/. j is
// updated to what was stored.
func (q *Queue) Fail(j *Job, cause error) error { return q.fail(j, cause, false) }

// GiveUp records that the claimed job j failed with cause and can never
// succeed: it counts the attempt and goes to failed/ at once, without the
// retries Fail allows. j is updated to what was stored.
func (q *Queue) GiveUp(j *Job, cause error) error { return q.fail(j, cause, true) }

func (q *Queue) fail(j *Job, cause error, final bool) error {
	if err := checkID(j.ID); err != nil {
		return fmt.Errorf("fail: %w", err)
	}
	name := j.ID + ".json"
	proc := filepath.Join(q.dirs[Processing], name)
	if _, err := os.Lstat(proc); err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("fail %s: %w", j.ID, ErrLost)
		}
		return fmt.Errorf("fail %s: %w", j.ID, err)
	}
	msg := "failed"
	if cause != nil {
		msg = cause.Error()
	}
	n := *j
	n.Attempts++
	n.LastError = clip(msg)
	n.Updated = q.now().UTC()
	n.NotBefore = time.Time{}
	dest := Failed
	if n.Attempts < q.max && !final {
		dest = Pending
		n.NotBefore = n.Updated.Add(q.backoff(n.Attempts))
	}
	if err := q.move(&n, Processing, dest); err != nil {
		// The record could not be written (a full disk): put the job
		// back as it was, which a rename does without space, and do not
		// claim it here before the backoff its record would have said.
		// The attempt is not counted; the job is not left in
		// processing/ for Recover to find at the next start.
		if rerr := q.putBack(j, n.Updated.Add(q.backoff(n.Attempts))); rerr != nil {
			return fmt.Errorf("fail %s: %w", j.ID, err)
		}
		return nil
	}
	*j = n
	return nil
}

// putBack renames the claimed job j, unchanged, back into pending/, not
// to be claimed by this Queue before notBefore.
func (q *Queue) putBack(j *Job, notBefore time.Time) error {
	name := j.ID + ".json"
	if err := os.Rename(filepath.Join(q.dirs[Processing], name), filepath.Join(q.dirs[Pending], name)); err != nil {
		if _, serr := os.Lstat(filepath.Join(q.dirs[Pending], name)); !errors.Is(err, fs.ErrNotExist) || serr != nil {
			return err
		}
		// The move got as far as the rename.
	}
	_ = safefile.SyncDir(q.inbox)
	q.heldMu.Lock()
	q.held[j.ID] = notBefore
	q.heldMu.Unlock()
	j.State = Pending
	return nil
}

// isHeld reports whether the job id was put back by putBack and is not
// due yet; a job due again is forgotten.
func (q *Queue) isHeld(id string, now time.Time) bool {
	q.heldMu.Lock()
	defer q.heldMu.Unlock()
	t, ok := q.held[id]
	if ok && !t.After(now) {
		delete(q.held, id)
		return false
	}
	return ok
}

// move rewrites j in its folder from, then renames it into to: the content
// changes first, the state last, each atomically.
func (q *Queue) move(j *Job, from, to State) error {
	data, err := j.encode()
	if err != nil {
		return err
	}
	name := j.ID + ".json"
	if err := safefile.WriteSync(filepath.Join(q.dirs[from], name), data, 0o600, safefile.SyncFile); err != nil {
		return err
	}
	if err := os.Rename(filepath.Join(q.dirs[from], name), filepath.Join(q.dirs[to], name)); err != nil {
		return err
	}
	j.State = to
	if to == Pending {
		// A job put back where others claim from must survive a crash.
		return safefile.SyncDir(q.inbox)
	}
	return nil
}

// Recover puts back jobs left in processing/ for olderThan or longer (by
// their claim time) by workers that stopped. Such a job counts one more
// abandonment, not an attempt: the worker's death says little about the
// job, and the job that runs first after each start-up is the one every
// kill of a restarting worker finds in flight. It goes back to pending,
// due at once, or to failed/ once abandoned MaxAbandoned times. Recover
// also returns to the inbox the files of inbox-file jobs that a crash left
// without their job, and removes temporary files older than olderThan (and
// than a minute: a younger one may be a write in progress).
// Run it at start-up, before any worker of this queue claims: with a small
// olderThan it takes jobs that live workers still hold. It returns how many
// jobs and files it moved.
func (q *Queue) Recover(ctx context.Context, olderThan time.Duration) (int, error) {
	now := q.now()
	es, err := q.scan(q.dirs[Processing], true)
	if err != nil {
		return 0, fmt.Errorf("recover: %w", err)
	}
	n := 0
	for _, e := range es {
		if err := ctx.Err(); err != nil {
			return n, err
		}
		held := now.Sub(e.mod)
		if e.id != "" {
			held = min(held, now.Sub(e.t))
		}
		src := filepath.Join(q.dirs[Processing], e.name)
		j, err := q.readJob(q.dirs[Processing], e.name)
		if errors.Is(err, fs.ErrNotExist) {
			continue // done or put back meanwhile
		}
		if err != nil {
			// Not a job: a dropped file whose claim a crash interrupted,
			// or a job file a crash cut short. No worker holds it (a
			// claim reads the job, and a job's file is only ever
			// replaced whole), whatever its age: back to the inbox, to
			// be taken like any dropped file (a job's text that does
			// not parse goes to failed/ with the reason).
			if err := os.Rename(src, q.freeInboxName(e.name, e.name)); err != nil {
				return n, fmt.Errorf("recover %s: %w", e.name, err)
			}
			n++
			continue
		}
		if held < olderThan {
			continue
		}
		j.Abandoned++
		j.LastError = fmt.Sprintf("abandoned in processing for %s: the worker stopped before it finished", held.Round(time.Second))
		j.Updated = now.UTC()
		j.NotBefore = time.Time{}
		dest := Pending
		if j.Abandoned >= q.maxAbandoned {
			dest = Failed
			j.LastError += fmt.Sprintf(" (%d times: the job may be what stops it)", j.Abandoned)
		}
		if err := q.move(j, Processing, dest); err != nil {
			// The disk is full: back to pending as it was, uncounted.
			if rerr := q.putBack(j, now); rerr != nil {
				return n, fmt.Errorf("recover %s: %w", j.ID, err)
			}
		}
		n++
	}
	m, err := q.recoverFiles(ctx, now, olderThan)
	n += m
	if err != nil {
		return n, err
	}
	// Writers are not workers: an Enqueue of a hook or of the daemon's
	// API may be writing now, whatever olderThan says.
	q.removeTemps(now, max(olderThan, minTempAge))
	return n, nil
}

// minTempAge is the age under which Recover leaves a temporary file
// alone: a write takes milliseconds, so one older than this was cut.
const minTempAge = time.Minute

// recoverFiles returns to the inbox the attachments no job refers to: an
// adoption that a crash cut between moving the file and writing its job, or
// a Done cut between removing the job and its file (the file is then taken
// again; consumers dedupe).
func (q *Queue) recoverFiles(ctx context.Context, now time.Time, olderThan time.Duration) (int, error) {
	all, err := names(q.files)
	if err != nil {
		return 0, fmt.Errorf("recover: %w", err)
	}
	n := 0
	for _, name := range all {
		if err := ctx.Err(); err != nil {
			return n, err
		}
		id, rest, ok := strings.Cut(name, "--")
		if !ok || checkID(id) != nil || rest == "" {
			continue // not ours
		}
		u, _ := ulid.ParseStrict(id)
		if now.Sub(ulid.Time(u.Time())) < olderThan {
			continue
		}
		owned := false
		for _, d := range q.dirs {
			if _, err := os.Lstat(filepath.Join(d, id+".json")); err == nil {
				owned = true
				break
			}
		}
		if owned {
			continue
		}
		if err := os.Rename(filepath.Join(q.files, name), q.freeInboxName(rest, name)); err != nil {
			return n, fmt.Errorf("recover %s: %w", name, err)
		}
		n++
	}
	return n, nil
}

// freeInboxName returns the inbox path for a file coming back, named
// want, or fallback when want is taken.
func (q *Queue) freeInboxName(want, fallback string) string {
	p := filepath.Join(q.inbox, want)
	if _, err := os.Lstat(p); errors.Is(err, fs.ErrNotExist) {
		return p
	}
	return filepath.Join(q.inbox, fallback)
}

// removeTemps removes the temporary files of interrupted writes.
func (q *Queue) removeTemps(now time.Time, olderThan time.Duration) {
	for _, d := range append(slices.Collect(maps.Values(q.dirs)), q.files) {
		es, err := os.ReadDir(d)
		if err != nil {
			continue
		}
		for _, e := range es {
			if !isTemp(e.Name()) {
				continue
			}
			if fi, err := e.Info(); err == nil && now.Sub(fi.ModTime()) >= olderThan {
				_ = os.Remove(filepath.Join(d, e.Name()))
			}
		}
	}
}

// List returns the jobs in state s, oldest first. Files in the inbox that
// the queue has not taken yet are listed as they would be taken, with no id
// and Origin set to their name.
func (q *Queue) List(ctx context.Context, s State) ([]*Job, error) {
	dir, ok := q.dirs[s]
	if !ok {
		return nil, fmt.Errorf("list: unknown state %q", s)
	}
	es, err := q.scan(dir, false)
	if err != nil {
		return nil, fmt.Errorf("list %s: %w", s, err)
	}
	var out []*Job
	for _, e := range es {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if e.id != "" {
			if j, err := q.readJob(dir, e.name); err == nil {
				j.State = s
				out = append(out, j)
				continue
			}
		}
		j := &Job{Schema: Schema, Kind: KindInboxFile, Origin: e.name, Created: e.mod, Updated: e.mod, State: s}
		if data, full, err := readHead(filepath.Join(dir, e.name), MaxJobSize); err == nil && full {
			if dj, err := DecodeJob(data); err == nil {
				dj.ID, dj.Origin, dj.State = "", e.name, s
				j = dj
			}
		}
		out = append(out, j)
	}
	return out, nil
}

// Retry moves the failed job id back to pending with its attempts and
// abandonments reset.
// For a KindRejected record it puts the file back into the inbox under its
// original name (or its kept name, if that is taken), to be looked at again.
func (q *Queue) Retry(id string) error {
	if err := checkID(id); err != nil {
		return fmt.Errorf("retry: %w", err)
	}
	j, err := q.readJob(q.dirs[Failed], id+".json")
	if err != nil {
		return fmt.Errorf("retry %s: %w", id, err)
	}
	if j.Kind == KindRejected {
		att := q.Attachment(j)
		if att == "" {
			return fmt.Errorf("retry %s: rejected file record points outside the queue: %s", id, j.Pointer.Key())
		}
		want := j.Origin
		if want == "" || filepath.Base(want) != want || want == "." || want == ".." || isHidden(want) {
			want = filepath.Base(att)
		}
		if err := os.Rename(att, q.freeInboxName(want, filepath.Base(att))); err != nil {
			return fmt.Errorf("retry %s: %w", id, err)
		}
		if err := os.Remove(filepath.Join(q.dirs[Failed], id+".json")); err != nil {
			return fmt.Errorf("retry %s: %w", id, err)
		}
		return safefile.SyncDir(q.inbox)
	}
	j.Attempts, j.Abandoned, j.NotBefore, j.Updated = 0, 0, time.Time{}, q.now().UTC()
	if err := q.move(j, Failed, Pending); err != nil {
		return fmt.Errorf("retry %s: %w", id, err)
	}
	return nil
}

// RetryAll retries every failed job and returns how many it moved.
func (q *Queue) RetryAll(ctx context.Context) (int, error) {
	return q.eachFailed(ctx, "retry", q.Retry)
}

// DropAll drops every failed job and returns how many it moved.
func (q *Queue) DropAll(ctx context.Context) (int, error) {
	return q.eachFailed(ctx, "drop", q.Drop)
}

// eachFailed calls fn with the id of every failed job. A job that another
// process retried or dropped meanwhile is passed over.
func (q *Queue) eachFailed(ctx context.Context, what string, fn func(id string) error) (int, error) {
	es, err := q.scan(q.dirs[Failed], false)
	if err != nil {
		return 0, fmt.Errorf("%s: %w", what, err)
	}
	n := 0
	for _, e := range es {
		if err := ctx.Err(); err != nil {
			return n, err
		}
		if e.id == "" {
			continue
		}
		if err := fn(e.id); err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				continue
			}
			return n, err
		}
		n++
	}
	return n, nil
}

// Drop moves the failed job id to dropped/, where it stays, out of the way,
// until someone deletes it by hand (with its file under files/ for inbox
// files). Only failed jobs can be dropped: a person gave up on them.
func (q *Queue) Drop(id string) error {
	if err := checkID(id); err != nil {
		return fmt.Errorf("drop: %w", err)
	}
	name := id + ".json"
	if err := os.Rename(filepath.Join(q.dirs[Failed], name), filepath.Join(q.dirs[Dropped], name)); err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("drop %s: not a failed job: %w", id, fs.ErrNotExist)
		}
		return fmt.Errorf("drop %s: %w", id, err)
	}
	return nil
}

// Status is a count of jobs per state and the age of the oldest unfinished
// one.
type Status struct {
	Pending    int `json:"pending"`
	Processing int `json:"processing"`
	Failed     int `json:"failed"`
	Dropped    int `json:"dropped"`
	// Oldest is when the oldest pending or processing job was created (for
	// a dropped file, its modification time); zero when there is none.
	Oldest time.Time `json:"oldest,omitzero"`
	// OldestAge is how long ago that was.
	OldestAge time.Duration `json:"-"`
}

// Status counts the jobs in each state, without reading them.
func (q *Queue) Status(ctx context.Context) (Status, error) {
	var st Status
	for _, s := range []State{Pending, Processing, Failed, Dropped} {
		if err := ctx.Err(); err != nil {
			return st, err
		}
		es, err := q.scan(q.dirs[s], false)
		if err != nil {
			return st, fmt.Errorf("status: %w", err)
		}
		switch s {
		case Pending:
			st.Pending = len(es)
		case Processing:
			st.Processing = len(es)
		case Failed:
			st.Failed = len(es)
		case Dropped:
			st.Dropped = len(es)
		}
		if (s == Pending || s == Processing) && len(es) > 0 {
			if t := es[0].t; st.Oldest.IsZero() || t.Before(st.Oldest) {
				st.Oldest = t
			}
		}
	}
	if !st.Oldest.IsZero() {
		st.OldestAge = max(q.now().Sub(st.Oldest), 0)
	}
	return st, nil
}

// entry is a file in a state folder.
type entry struct {
	name string
	id   string    // the job id its name gives, or ""
	t    time.Time // when it was created: its id's time, or else mod
	mod  time.Time // modification time; only when asked for or no id
}

// scan lists the files of a state folder, oldest first. It stats those
// named like no job, and all of them with stat.
func (q *Queue) scan(dir string, stat bool) ([]entry, error) {
	all, err := names(dir)
	if err != nil {
		return nil, err
	}
	es := make([]entry, 0, len(all))
	for _, name := range all {
		e := entry{name: name}
		if id, ok := strings.CutSuffix(name, ".json"); ok && checkID(id) == nil {
			e.id = id
			u, _ := ulid.ParseStrict(id)
			e.t = ulid.Time(u.Time())
		}
		if stat || e.id == "" {
			fi, err := os.Lstat(filepath.Join(dir, name))
			if err != nil {
				continue // gone meanwhile
			}
			e.mod = fi.ModTime()
			if e.id == "" {
				e.t = e.mod
			}
		}
		es = append(es, e)
	}
	slices.SortFunc(es, func(a, b entry) int {
		if c := a.t.Compare(b.t); c != 0 {
			return c
		}
		return strings.Compare(a.name, b.name)
	})
	return es, nil
}

// readJob reads and decodes the job file dir/name, whose name gives its id.
func (q *Queue) readJob(dir, name string) (*Job, error) {
	data, full, err := readHead(filepath.Join(dir, name), MaxJobSize)
	if err != nil {
		return nil, err
	}
	if !full {
		return nil, fmt.Errorf("%s: larger than %d bytes: %w", filepath.Join(dir, name), MaxJobSize, ErrNotJob)
	}
	j, err := DecodeJob(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", filepath.Join(dir, name), err)
	}
	j.ID = strings.TrimSuffix(name, ".json")
	return j, nil
}

// readHead reads up to limit bytes of a regular file, without following a
// symbolic link, and says whether that was all of it.
func readHead(path string, limit int64) ([]byte, bool, error) {
	f, err := openNoFollow(path)
	if err != nil {
		return nil, false, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, false, err
	}
	if !fi.Mode().IsRegular() {
		return nil, false, fmt.Errorf("%s: not a regular file", path)
	}
	data, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, false, err
	}
	if int64(len(data)) > limit {
		return data[:limit], false, nil
	}
	return data, true, nil
}

func (q *Queue) newID(now time.Time) (string, error) {
	u, err := ulid.New(ulid.Timestamp(now), q.entropy)
	if err != nil {
		return "", err
	}
	return u.String(), nil
}

// checkID accepts only canonical ULIDs, so that an id from outside (a
// command line) cannot name a path of its choosing.
func checkID(id string) error {
	u, err := ulid.ParseStrict(id)
	if err != nil || u.String() != id {
		return fmt.Errorf("%q is not a job id (a ULID)", id)
	}
	return nil
}
