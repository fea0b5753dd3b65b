package memory

import (
	"context"
	"io"

	"github.com/cairn-mem/cairn/gitstore"
	"github.com/cairn-mem/cairn/gitstore/fsmonitor"
	"github.com/cairn-mem/cairn/gitstore/gitdiff"
	"github.com/cairn-mem/cairn/gitstore/gitsync"
)

// The history vocabulary of a memory. memory is the one package that talks
// to gitstore; the packages above it name commits, changes, diffs, remotes
// and merges with these names. They are aliases, not copies, so values pass
// between the layers as they are and gitstore's documentation applies.
type (
	Checkpoint    = gitstore.Checkpoint
	FileChange    = gitstore.FileChange
	FileDiff      = gitstore.FileDiff
	DiffOptions   = gitstore.DiffOptions
	Action        = gitstore.Action
	Identity      = gitstore.Identity
	Trailer       = gitstore.Trailer
	Tag           = gitstore.Tag
	TreeEntry     = gitstore.TreeEntry
	Commit        = gitstore.Commit
	GitLogOptions = gitstore.LogOptions
	Remote        = gitsync.Remote
	Problem       = gitsync.Problem
	Fetched       = gitsync.Fetched
	MergeFile     = gitsync.MergeFile
	MergeOptions  = gitsync.MergeOptions
	Resolution    = gitsync.Resolution
	ExtraFile     = gitsync.ExtraFile
)

// What a change did to a file.
const (
	Added    = gitstore.Added
	Modified = gitstore.Modified
	Deleted  = gitstore.Deleted
)

// The merge outcomes sync reports.
const MergeUpToDate = gitsync.MergeUpToDate

// Errors of the history that callers tell apart.
var (
	ErrNothingToDo = gitstore.ErrNothingToDo // a checkpoint with nothing to commit
	ErrNoFile      = gitstore.ErrNotFound    // no such file in the work tree or at a commit
	ErrBadName     = gitstore.ErrBadName     // a name no memory file may have (a control character, ..)
	ErrUnknownRev  = gitstore.ErrUnknownRev
	ErrLocked      = gitstore.ErrLocked // another writer holds the lock past lock_timeout
	ErrUnrelated   = gitsync.ErrUnrelated
	ErrRemoteMoved = gitsync.ErrRemoteMoved
	ErrDirty       = gitstore.ErrDirty
)

// Paths and names of the memory repository.
const (
	StateDir = gitstore.StateDir // .state: derived and transient, never committed
	HooksDir = gitsync.HooksDir  // hooks/: never taken from a remote
	TokenEnv = gitsync.TokenEnv  // the variable that holds a token for https remotes
)

// ValidTagName checks a checkpoint name as git would.
func ValidTagName(name string) error { return gitstore.ValidTagName(name) }

// RedactURL hides the password of a remote's URL, for printing.
func RedactURL(raw string) string { return gitsync.Redact(raw) }

// WritePatch writes diffs as a unified patch, colored when asked.
func WritePatch(w io.Writer, diffs []FileDiff, color bool) error {
	return gitdiff.WritePatch(w, diffs, color)
}

// WriteStat writes diffs as git diff --stat does.
func WriteStat(w io.Writer, diffs []FileDiff) error { return gitdiff.WriteStat(w, diffs) }

// StatePath returns the path of name inside the state folder (.state/).
func (m *Memory) StatePath(name string) string { return m.store.StatePath(name) }

// ReadFile reads a file of the work tree by its repository path; a
// missing file's error matches ErrNoFile.
func (m *Memory) ReadFile(p string) ([]byte, error) { return m.store.ReadFile(p) }

// ReadFileHead reads at most n bytes of a file of the work tree, never
// through a link; size is the whole file's.
func (m *Memory) ReadFileHead(p string, n int64) (data []byte, size int64, err error) {
	return m.store.ReadFileHead(p, n)
}

// ReadFileAt reads a file as it was at rev.
func (h History) ReadFileAt(ctx context.Context, rev, p string) ([]byte, error) {
	m := h.m
	return m.store.ReadFileAt(ctx, rev, p)
}

// FileSizeAt returns the size of a file as it was at rev, without
// reading it.
func (h History) FileSizeAt(ctx context.Context, rev, p string) (int64, error) {
	return h.m.store.FileSizeAt(ctx, rev, p)
}

// Resolve turns a revision (a commit id or prefix, a tag, HEAD, HEAD~N)
// into a commit id.
func (h History) Resolve(rev string) (string, error) {
	m := h.m
	return m.store.Resolve(rev)
}

// Tags lists the named checkpoints.
func (h History) Tags(ctx context.Context) ([]Tag, error) {
	m := h.m
	return m.store.Tags(ctx)
}

// Monitor watches the work tree with inotify and answers, over
// .state/fsmonitor.sock, what changed since a token, so that a checkpoint
// in any process scans only those paths (git's fsmonitor protocol). The
// daemon serves it.
type Monitor = fsmonitor.Monitor

// NewMonitor returns a monitor of the memory's work tree; Serve runs it.
func (m *Memory) NewMonitor() *Monitor { return fsmonitor.New(m.store) }
