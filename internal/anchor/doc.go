// Package anchor ties memories to the project's code and tells which may
// have gone stale.
//
// An anchor is a place in the project's code that an item or a session
// summary names: a path in backticks, a file:line, a bare path that
// exists, or a function or type name declared in the code. Extract finds
// the candidates in a text (no I/O); they become anchors only when they
// resolve in the project's tree at the code commit the memory was
// written at (the Cairn-Code-Commit trailer of the checkpoint that last
// changed the file). Paths outside the project (../, absolute paths
// elsewhere, symbolic links that lead out) are rejected.
//
// An item is possibly stale when the code changed at one of its anchors
// between that commit and the project's HEAD: the path was edited, a
// file:line's line was, a symbol's declaration changed or moved to
// another file. Anchors that no longer exist (a deleted or renamed path,
// a vanished symbol) are reported apart. cairn stale --confirm records a
// check as an empty checkpoint with a Cairn-Stale-Checked trailer; an
// edit, being a checkpoint, records a newer code commit by itself.
//
// Nothing new is written into the memory's files: anchors are derived
// from history and kept in a cache, .state/anchors.json, that the memory's
// history rebuilds (see Check). They are a function of a file's text and
// of the code commit its checkpoint recorded, both in history already;
// kept in front matter, every writer (capture, consolidation, a sync's
// merge, a person's editor) would have to compute them, and two clones
// anchoring one item at different commits would conflict. The project's
// repository is read with go-git only.
package anchor
