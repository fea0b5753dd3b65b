// Package journal is the crash journal of internal/memory's write model:
// the batch of changes a writer collects (Writes: appends, rewrites,
// removals and folder moves), the journal that records a batch before
// any of its files change (Journal, at .state/capture/journal.json), and
// the two ways of settling one a killed process left: Redo makes the
// work tree what the batch wants, Undo puts back what it changed. It
// reaches the memory's files only through a Tree, which internal/memory
// provides; deciding between undo and redo (from HEAD), redaction and the
// commit stay in internal/memory.
package journal
