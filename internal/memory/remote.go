package memory

import (
	"context"

	"github.com/cairn-mem/cairn/gitstore/gitsync"
)

// The git operations sync is made of, for internal/memsync. Fetch and
// Reach touch only objects and remote refs; the caller holds the write
// lock around Merge.

type (
	Pushed       = gitsync.Pushed
	MergeResult  = gitsync.MergeResult
	VerifyResult = gitsync.VerifyResult
)

// Remote returns the remote called name.
func (g Git) Remote(name string) (Remote, error) {
	m := g.m
	return gitsync.LookupRemote(m.store, name)
}

// Remotes lists the memory's remotes.
func (g Git) Remotes() ([]Remote, error) {
	m := g.m
	return gitsync.Remotes(m.store)
}

// AddRemote adds a remote to .cairn/.git/config. A relative local path
// in url is taken from base, the absolute folder the user works in.
func (g Git) AddRemote(name, url, base string) (Remote, error) {
	return gitsync.AddRemote(g.m.store, name, url, base)
}

// RemoveRemote removes a remote.
func (g Git) RemoveRemote(name string) error {
	m := g.m
	return gitsync.RemoveRemote(m.store, name)
}

// Fetch fetches a remote's branch; getenv supplies credentials. A pack
// holding an object over sync.max_blob_bytes is refused before it is read.
func (g Git) Fetch(ctx context.Context, remote string, getenv func(string) string) (*Fetched, error) {
	m := g.m
	return gitsync.FetchLimit(ctx, m.store, remote, getenv, m.Config.Sync.BlobLimit())
}

// Push pushes the branch to a remote, never forcing.
func (g Git) Push(ctx context.Context, remote string, getenv func(string) string) (*Pushed, error) {
	m := g.m
	return gitsync.Push(ctx, m.store, remote, getenv)
}

// Reach checks that a remote answers with the credentials cairn would use.
func (g Git) Reach(ctx context.Context, remote string, getenv func(string) string) error {
	m := g.m
	return gitsync.Reach(ctx, m.store, remote, getenv)
}

// Merge merges fetched history into the branch with the content rules of
// opts.Resolve; the caller holds the write lock.
func (g Git) Merge(ctx context.Context, opts MergeOptions) (*MergeResult, error) {
	m := g.m
	return gitsync.Merge(ctx, m.store, opts)
}

// CommitInfo returns the commit rev names.
func (h History) CommitInfo(ctx context.Context, rev string) (*Commit, error) {
	m := h.m
	return m.store.Commit(ctx, rev)
}

// Changes lists the paths the checkpoint rev changed against its first
// parent.
func (h History) Changes(ctx context.Context, rev string) ([]FileChange, error) {
	return h.m.store.ChangedFiles(ctx, rev)
}

// Verify checks every object of the history.
func (g Git) Verify(ctx context.Context) (*VerifyResult, error) {
	m := g.m
	return gitsync.Verify(ctx, m.store)
}

// Repair fetches the objects problems name from a remote.
func (g Git) Repair(ctx context.Context, remote string, problems []Problem, getenv func(string) string) (int, error) {
	m := g.m
	return gitsync.Repair(ctx, m.store, remote, problems, getenv)
}

// Git is the memory repository's side that faces other repositories:
// remotes, fetch, merge, push, and the check and repair of its objects.
// internal/memsync drives it; it holds no lock of its own.
type Git struct{ m *Memory }

// Git returns the memory's remote operations.
func (m *Memory) Git() Git { return Git{m} }
