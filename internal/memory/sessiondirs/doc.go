// Package sessiondirs finds session folders on disk as filepath.Glob
// would, without listing what it need not: a session under archive/ by
// its id (Archived), the folders of sessions/ that hold a session.yaml
// given the catalogue's rows (Files), and a folder's names (Names).
// internal/memory asks it at each session start, where a glob read
// 19,000 names at 100,000 files.
package sessiondirs
