// Package safefile owns cairn's two file-system primitives that must be
// right once and are easy to get subtly wrong: the atomic write and the
// inter-process lock. Every cairn package writes its own files and takes
// its own locks through here.
//
// # Atomic writes
//
// Write (and WriteSync, WriteFunc) puts the new content in a temporary
// file in the target's directory, named so that IsTemp recognises it
// ("."+base+".tmp-"+random), gives it the requested mode (exactly: the
// umask does not apply), fsyncs it, renames it over the target and
// fsyncs the directory. So:
//
//   - a reader never sees a part: it opens the old file or the new one;
//   - after any crash, the file has either its old content or its new
//     content, never a mixture, an empty file or a stray temporary in its
//     place (a temporary may be left beside it, which IsTemp names);
//   - once Write has returned nil, the new content survives a crash.
//
// WriteSync lets a caller give up some of that for speed, for files whose
// loss is cheap (see Sync). Missing parent directories are created with
// mode 0755 (before the umask), or 0700 for a file that only its owner may
// read or write (a perm without group or other bits): a private file's
// folder is private too. Their own names are not fsynced.
//
// Git's own lock-file protocol (ref.lock, index.lock) and git's loose
// objects are not written here: gitstore follows git's conventions for
// those so that git commands running beside cairn stay safe.
//
// # Locks
//
// Lock takes an exclusive flock(2) on a lock file (created 0600 if
// missing), polling until it is free, the timeout passes or the context
// is done. The kernel releases the lock when its holder exits, however
// it exits, so a crash never leaves a stale lock. The holder writes who
// it is ("pid 1234 (cairn) on host since 2006-01-02T15:04:05Z") into the
// lock file, and a caller that gives up gets a *LockedError that says so;
// Holder reads it for callers that want to say it themselves.
//
// flock locks belong to an open file description, not to a process: two
// Lock calls in one process exclude each other like two processes do.
package safefile
