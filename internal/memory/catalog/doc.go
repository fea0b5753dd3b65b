// Package catalog describes a memory's files by what listing them needs
// (an item's id, kind, title, tags, times, importance, pin, session and
// what it supersedes; a session's title, status and dates; any file's
// blob id, size and modification time) and keeps those descriptions in
// a small text file per item folder, so that cairn list, the context
// pack and the file-system view read one file rather than parse every
// item.
//
// A Part is the description of one folder (core, sessions or archive) as
// of a commit and the root tree it had then. The package knows nothing of
// git: internal/memory brings a Part up to HEAD from the diff, and up to
// the work tree by comparing sizes and times, and writes it back.
package catalog
