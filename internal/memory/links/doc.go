// Package links keeps symbolic links out of what cairn reads of a
// memory's work tree: a walk that skips them (Walk), an fs.FS that never
// follows one (FS), a warning wrapper that names each link once
// (WarnOnce), and the lists verify and doctor show (InWorktree, InHead).
// internal/memory holds the memory's root and its warnings and calls
// these; the rule itself is described there (links.go).
package links
