package metrics

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"time"

	"github.com/cairn-mem/cairn/internal/safefile"
	"golang.org/x/sys/unix"
)

// Dir is the log's folder inside the state folder (.cairn/.state/).
const Dir = "metrics"

// The log's files in Dir: the one appended to, and the rotated ones,
// named by the time they were rotated so that names sort by age.
const (
	current    = "events.jsonl"
	rotPrefix  = "events-"
	rotSuffix  = ".jsonl"
	rotateLock = "rotate.lock"
)

// Defaults bound the log at (DefaultMaxFiles+1) × DefaultMaxBytes, 8 MiB:
// an event is about 150 bytes, so some 50,000 events, months of a busy
// project's summaries, packs and searches plus a gauge every few minutes.
const (
	DefaultMaxBytes = 1 << 20
	DefaultMaxFiles = 7
)

// maxField is the longest string an event keeps; see clean.
const maxField = 64

// Kind says what an event measures.
type Kind string

// The kinds of event.
const (
	KindSummary Kind = "summary" // one segment summarised
	KindPack    Kind = "pack"    // one context pack made
	KindSearch  Kind = "search"  // one search run
	KindCapture Kind = "capture" // one capture job done
	KindGauge   Kind = "gauge"   // the daemon's sample of sizes
)

// Event is one line of the log. It holds numbers, kinds and names only
// (provider, model, the event that asked for a pack, a search mode, a
// job kind), never text of the memory: Record replaces any string that
// is not a short name (see clean). Zero fields are left out of the line.
type Event struct {
	Time time.Time `json:"t"`
	Kind Kind      `json:"kind"`
	// Name is what asked: for a pack session-start, prompt, cli or mcp;
	// for a capture the job's kind.
	Name     string `json:"event,omitempty"`
	Provider string `json:"provider,omitempty"` // summary
	Model    string `json:"model,omitempty"`    // summary
	Mode     string `json:"mode,omitempty"`     // search: keyword, vector, hybrid
	// MS is how long it took, in milliseconds; for a capture, from the
	// job's creation (the hook) to its commit.
	MS        float64 `json:"ms,omitempty"`
	TokensIn  int64   `json:"tokens_in,omitempty"`  // summary
	TokensOut int64   `json:"tokens_out,omitempty"` // summary
	Fallback  bool    `json:"fallback,omitempty"`   // summary: the configured provider failed
	Tokens    int64   `json:"tokens,omitempty"`     // pack: tokens used
	Budget    int64   `json:"budget,omitempty"`     // pack: of this budget
	Items     int     `json:"items,omitempty"`      // pack: memories included
	LeftOut   int     `json:"left_out,omitempty"`   // pack: candidates that did not fit
	Hits      int     `json:"hits,omitempty"`       // search
	Events    int     `json:"events,omitempty"`     // capture: events captured
	Bytes     int64   `json:"bytes,omitempty"`      // capture: bytes of the job
	// Gauges.
	Queue      int   `json:"queue,omitempty"`       // jobs pending or in progress
	IndexBytes int64 `json:"index_bytes,omitempty"` // the search index's folder
	RepoBytes  int64 `json:"repo_bytes,omitempty"`  // the memory's .git folder
	Commits    int   `json:"commits,omitempty"`     // checkpoints on HEAD's first-parent line
}

// Millis is d in milliseconds, to the microsecond.
func Millis(d time.Duration) float64 {
	return float64(d.Microseconds()) / 1000
}

// clean makes the event safe to keep: every string a name of at most
// maxField bytes of letters, digits and ._:/@+- (anything else becomes
// "other", so that no sentence of a memory can pass through a field),
// and no negative counts.
func (e *Event) clean() {
	for _, s := range []*string{(*string)(&e.Kind), &e.Name, &e.Provider, &e.Model, &e.Mode} {
		*s = name(*s)
	}
	for _, n := range []*int64{&e.TokensIn, &e.TokensOut, &e.Tokens, &e.Budget, &e.Bytes, &e.IndexBytes, &e.RepoBytes} {
		*n = max(*n, 0)
	}
	for _, n := range []*int{&e.Items, &e.LeftOut, &e.Hits, &e.Events, &e.Queue, &e.Commits} {
		*n = max(*n, 0)
	}
	if math.IsNaN(e.MS) || math.IsInf(e.MS, 0) || e.MS < 0 {
		e.MS = 0
	}
}

func name(s string) string {
	if len(s) > maxField {
		return "other"
	}
	for _, r := range s {
		if !('a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9' || strings.ContainsRune("._:/@+-", r)) {
			return "other"
		}
	}
	return s
}

// Log appends events to the files of one memory's metrics folder. Open
// does no I/O; the folder is made (0700) at the first event. Several
// processes may append at once: each event is one write(2) of one line
// (well under PIPE_BUF, 4096 bytes) to a file opened O_APPEND, which
// Linux applies whole at the end of the file, under the inode's lock, so
// lines never interleave (TestTwoProcesses checks it); only rotation
// takes a lock.
type Log struct {
	dir string
	// MaxBytes is the size at which the current file is rotated, and
	// MaxFiles how many rotated files are kept (the oldest are removed).
	MaxBytes int64
	MaxFiles int
	// Logger gets one debug line for the first event this Log could not
	// record; nil means slog.Default().
	Logger *slog.Logger

	failed atomic.Bool
}

// Open returns the log of the state folder stateDir (.cairn/.state).
func Open(stateDir string) *Log {
	return &Log{dir: filepath.Join(stateDir, Dir), MaxBytes: DefaultMaxBytes, MaxFiles: DefaultMaxFiles}
}

// Record appends ev, stamped now unless it has a time. It never fails
// what it measures: an event that cannot be written is dropped, with one
// debug line for the first such event of this Log. A nil Log records
// nothing.
func (l *Log) Record(ctx context.Context, ev Event) {
	if l == nil {
		return
	}
	if err := l.append(ev); err != nil {
		l.debug(ctx, "metrics: event not recorded", err)
	}
}

// debug writes one debug line, the first time only: a log that cannot
// be written says so once, not at every event.
func (l *Log) debug(ctx context.Context, msg string, err error) {
	if l == nil || l.failed.Swap(true) {
		return
	}
	lg := l.Logger
	if lg == nil {
		lg = slog.Default()
	}
	lg.DebugContext(ctx, msg, "err", err)
}

func (l *Log) append(ev Event) error {
	if ev.Time.IsZero() {
		ev.Time = time.Now()
	}
	ev.Time = ev.Time.UTC()
	ev.clean()
	line, err := json.Marshal(ev)
	if err != nil {
		return fmt.Errorf("metrics: encode: %w", err)
	}
	line = append(line, '\n')
	path := filepath.Join(l.dir, current)
	const flags = os.O_WRONLY | os.O_APPEND | os.O_CREATE | unix.O_NOFOLLOW | unix.O_CLOEXEC
	f, err := os.OpenFile(path, flags, 0o600)
	if errors.Is(err, fs.ErrNotExist) {
		if err := os.MkdirAll(l.dir, 0o700); err != nil {
			return fmt.Errorf("metrics: %w", err)
		}
		f, err = os.OpenFile(path, flags, 0o600)
	}
	if err != nil {
		return fmt.Errorf("metrics: %w", err)
	}
	_, err = f.Write(line)
	// With O_APPEND the offset after the write is the end of the file
	// then: the size, without a stat.
	end, serr := f.Seek(0, io.SeekCurrent)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("metrics: append to %s: %w", path, err)
	}
	if serr == nil && end > l.MaxBytes {
		return l.rotate()
	}
	return nil
}

// rotate renames the current file aside and removes the oldest rotated
// ones beyond MaxFiles. One process rotates at a time; one that finds
// the lock held leaves it to the holder. A process that opened the file
// before the rename appends its line to the rotated file: nothing is
// lost, and the cap is passed by a line.
func (l *Log) rotate() error {
	unlock, err := safefile.TryLock(filepath.Join(l.dir, rotateLock))
	if errors.Is(err, safefile.ErrLocked) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("metrics: rotate: %w", err)
	}
	defer unlock()
	path := filepath.Join(l.dir, current)
	fi, err := os.Lstat(path)
	if err != nil || fi.Size() <= l.MaxBytes {
		return nil // rotated by another process meanwhile
	}
	to := filepath.Join(l.dir, rotPrefix+time.Now().UTC().Format("20060102T150405.000000000")+rotSuffix)
	if err := os.Rename(path, to); err != nil {
		return fmt.Errorf("metrics: rotate: %w", err)
	}
	old, err := rotated(l.dir)
	if err != nil {
		return err
	}
	for len(old) > max(l.MaxFiles, 0) {
		if err := os.Remove(filepath.Join(l.dir, old[0])); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("metrics: rotate: %w", err)
		}
		old = old[1:]
	}
	return nil
}

// rotated lists the rotated files' names, oldest first.
func rotated(dir string) ([]string, error) {
	des, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("metrics: %w", err)
	}
	var out []string
	for _, de := range des {
		n := de.Name()
		if strings.HasPrefix(n, rotPrefix) && strings.HasSuffix(n, rotSuffix) && de.Type().IsRegular() {
			out = append(out, n)
		}
	}
	slices.Sort(out)
	return out, nil
}
