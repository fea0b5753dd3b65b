package memory

import (
	"context"

	"github.com/cairn-mem/cairn/gitstore/gitsync"
)

// The git operations sync is made of, for internal/memsync. They hold no
// lock of their own: Fetch and Reach touch only objects and remote refs,
// and the caller holds the write lock around Merge.

type (
	Pushed       = gitsync.Pushed
	MergeResult  = gitsync.MergeResult
	VerifyResult = gitsync.VerifyResult
)

// Remote returns the remote called name.
func (m *Memory) Remote(name string) (Remote, error) { return gitsync.LookupRemote(m.store, name) }

// Remotes lists the memory's remotes.
func (m *Memory) Remotes() ([]Remote, error) { return gitsync.Remotes(m.store) }

// AddRemote adds a remote to .cairn/.git/config. A relative local path
// in url is taken from base, the absolute folder the user works in.
func (m *Memory) AddRemote(name, url, base string) (Remote, error) {
	return gitsync.AddRemote(m.store, name, url, base)
}

// RemoveRemote removes a remote.
func (m *Memory) RemoveRemote(name string) error { return gitsync.RemoveRemote(m.store, name) }

// Fetch fetches a remote's branch; getenv supplies credentials.
func (m *Memory) Fetch(ctx context.Context, remote string, getenv func(string) string) (*Fetched, error) {
	return gitsync.Fetch(ctx, m.store, remote, getenv)
}

// Push pushes the branch to a remote, never forcing.
func (m *Memory) Push(ctx context.Context, remote string, getenv func(string) string) (*Pushed, error) {
	return gitsync.Push(ctx, m.store, remote, getenv)
}

// Reach checks that a remote answers with the credentials cairn would use.
func (m *Memory) Reach(ctx context.Context, remote string, getenv func(string) string) error {
	return gitsync.Reach(ctx, m.store, remote, getenv)
}

// Merge merges fetched history into the branch with the content rules of
// opts.Resolve; the caller holds the write lock.
func (m *Memory) Merge(ctx context.Context, opts MergeOptions) (*MergeResult, error) {
	return gitsync.Merge(ctx, m.store, opts)
}

// CommitInfo returns the commit rev names.
func (m *Memory) CommitInfo(ctx context.Context, rev string) (*Commit, error) {
	return m.store.Commit(ctx, rev)
}

// VerifyObjects checks every object of the history.
func (m *Memory) VerifyObjects(ctx context.Context) (*VerifyResult, error) {
	return gitsync.Verify(ctx, m.store)
}

// Repair fetches the objects problems name from a remote.
func (m *Memory) Repair(ctx context.Context, remote string, problems []Problem, getenv func(string) string) (int, error) {
	return gitsync.Repair(ctx, m.store, remote, problems, getenv)
}
