// Package memory opens a project's memory (Find, Open, Init), reads its
// configuration (cairn.yaml, one parser), and owns the way it changes:
// items are remembered, updated and forgotten, sessions found and changed,
// and every batch of changes is written through the crash journal
// (.state/capture/journal.json) under the write lock (.state/lock) and
// committed as one checkpoint: a Tx (Begin, Commit, End), or LockSettled,
// Writes and CommitWrites for a batch planned before the lock. Secrets are
// redacted inside it, whoever writes. It is the one package that talks to
// gitstore; the packages above it (capture, recall, memsync) use its
// Memory, Tx and Writes, and learn of checkpoints through OnCheckpoint.
//
// The formats it reads and writes are internal/model's.
package memory
