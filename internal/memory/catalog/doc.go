// Package catalog describes a memory's files by what listing them needs
// (an item's id, kind, title, tags, times, importance, pin, session and
// what it supersedes; a session's title, status and dates; any file's
// blob id, size and modification time) and keeps those descriptions in
// a small text file per item folder, so that cairn list, the context
// pack and the file-system view read one file rather than parse every
// item.
//
// A Part is the description of one folder (core, sessions or archive) as
// of a commit and the tree the folder had there. A Keeper keeps the
// parts: on each read it brings a part up to HEAD from the diff (or
// rebuilds it from the files when its commit is gone or its file is
// damaged) and up to the work tree by comparing sizes and times (a
// folder is listed again only when its own time moved), and
// after each checkpoint up to the new commit from the files it changed.
// It reaches git only through a Source, which internal/memory provides.
package catalog
