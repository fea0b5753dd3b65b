package memory

import (
	"context"

	"github.com/cairn-mem/cairn/gitstore"
)

// The git operations sync is made of, for internal/memsync. They hold no
// lock of their own: Fetch and Reach touch only objects and remote refs,
// and the caller holds the write lock around Merge.

type (
	Pushed       = gitstore.Pushed
	MergeResult  = gitstore.MergeResult
	VerifyResult = gitstore.VerifyResult
)

// Remote returns the remote called name.
func (m *Memory) Remote(name string) (Remote, error) { return m.store.Remote(name) }

// Remotes lists the memory's remotes.
func (m *Memory) Remotes() ([]Remote, error) { return m.store.Remotes() }

// AddRemote adds a remote to .cairn/.git/config.
func (m *Memory) AddRemote(name, url string) (Remote, error) { return m.store.AddRemote(name, url) }

// RemoveRemote removes a remote.
func (m *Memory) RemoveRemote(name string) error { return m.store.RemoveRemote(name) }

// Fetch fetches a remote's branch; getenv supplies credentials.
func (m *Memory) Fetch(ctx context.Context, remote string, getenv func(string) string) (*Fetched, error) {
	return m.store.Fetch(ctx, remote, getenv)
}

// Push pushes the branch to a remote, never forcing.
func (m *Memory) Push(ctx context.Context, remote string, getenv func(string) string) (*Pushed, error) {
	return m.store.Push(ctx, remote, getenv)
}

// Reach checks that a remote answers with the credentials cairn would use.
func (m *Memory) Reach(ctx context.Context, remote string, getenv func(string) string) error {
	return m.store.Reach(ctx, remote, getenv)
}

// Merge merges fetched history into the branch with the content rules of
// opts.Resolve; the caller holds the write lock.
func (m *Memory) Merge(ctx context.Context, opts MergeOptions) (*MergeResult, error) {
	return m.store.Merge(ctx, opts)
}

// CommitInfo returns the commit rev names.
func (m *Memory) CommitInfo(ctx context.Context, rev string) (*Commit, error) {
	return m.store.Commit(ctx, rev)
}

// VerifyObjects checks every object of the history.
func (m *Memory) VerifyObjects(ctx context.Context) (*VerifyResult, error) {
	return m.store.Verify(ctx)
}

// Repair fetches the objects problems name from a remote.
func (m *Memory) Repair(ctx context.Context, remote string, problems []Problem, getenv func(string) string) (int, error) {
	return m.store.Repair(ctx, remote, problems, getenv)
}
