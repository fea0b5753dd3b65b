// Package watcher owns cairn's capture plumbing: the durable file queue of
// jobs, the cursors that say how far each transcript was processed, and the
// fsnotify watcher that turns transcript growth and inbox drops into work.
// It deals in files, byte ranges and jobs; it knows nothing of transcript
// formats, memory items, git or the command line, and imports no other
// cairn package.
//
// # The queue
//
// A job is a JSON file; its state is the folder that holds it, and every
// change of state is a rename(2), which is atomic:
//
//	<memory>/inbox/                    pending: waiting to be claimed; also the public drop folder
//	<memory>/.state/queue/processing/  claimed by a worker (mtime = claim time)
//	<memory>/.state/queue/failed/      out of attempts, or an inbox file the queue could not take
//	<memory>/.state/queue/dropped/     failed jobs a person dropped; never run, never deleted by cairn
//	<memory>/.state/queue/files/       inbox files wrapped as jobs: <id>--<safe name>
//
// A job's file is named <id>.json, where id is a ULID (time-sortable); the
// name is authoritative over the "id" inside. Fields:
//
//	{
//	  "schema": 1,                          format version; absent means 1; newer is refused
//	  "id": "01JDXK3V9M2Q7Y8Z4T6R5W1HBC",
//	  "kind": "transcript-delta",           [A-Za-z0-9._:-]{1,64}; the consumer's to interpret
//	  "agent_session": "7f3c2a10-…",        the agent's session id (optional)
//	  "memory_session": "…",                cairn's session id, to resume the summariser (optional)
//	  "payload": {…},                       any JSON, or
//	  "pointer": {"path": "/abs/clean/path", "from": 0, "to": 4096,
//	              "device": 2049, "inode": 1234,          identity of the file, when known
//	              "first_uuid": "…", "last_uuid": "…"},    uuids of the first and last line, when known
//	  "origin": "hook-123.json",            the inbox name of a job that came from outside
//	  "attempts": 0, "last_error": "…",     failed attempts, and the last error
//	  "abandoned": 0,                       times its worker stopped holding it; absent means 0
//	  "not_before": "2026-…Z",              backoff: not claimed before then
//	  "created": "2026-…Z", "updated": "2026-…Z"
//	}
//
// A job has a payload or a pointer, not both. A pointer range [from, to)
// always ends at a line boundary. Job.Key is the job's identity for
// deduplication: its pointer (path, file identity, range), or a hash of its
// kind, agent session and payload.
//
// Transitions:
//
//   - Enqueue writes a hidden temporary file in the inbox, fsyncs it,
//     renames it to <id>.json and fsyncs the folder.
//   - Claim renames the oldest due job from the inbox into processing/; of
//     several claimers (goroutines or processes) exactly one rename wins.
//   - Done deletes the job (and its attachment) once its effect is
//     committed. A crash before Done runs the job again: consumers must make
//     a job's effect idempotent (dedupe by Key and by line uuid).
//   - Fail counts an attempt and records the error; the job goes back to the
//     inbox with not_before set (5 s doubling up to 5 min by default), or,
//     at MaxAttempts (5), to failed/. The content is rewritten in
//     processing/ first (temporary file and rename), then moved.
//   - GiveUp is Fail for a job that can never succeed: to failed/ at once.
//   - Recover, at start-up, puts jobs held in processing/ for olderThan
//     (RecoverAfter, 5 min, when other workers may be at work; cairn's
//     daemon holds a lock that excludes them and passes 0) back with one more
//     abandonment, due at once, or, at MaxAbandoned (20), into failed/;
//     it returns orphaned attachments to the inbox, and removes stale
//     temporary files.
//   - Retry moves a failed job back to pending with its attempts and
//     abandonments reset;
//     Drop moves it to dropped/ (RetryAll and DropAll do so for every one). Dropping keeps the job: no job and no
//     dropped file is deleted except by Done.
//
// A worker that stops while it holds a job (killed, crashed, the machine
// turned off) is no evidence against the job, so Recover counts an
// abandonment, not an attempt, and each has its own limit. A worker killed
// again and again for reasons of its own finds, after each start-up, the
// job the last death left behind first in line, oldest and due at once, so
// the next death is likely to land on that same job. A few restarts in a
// row must not send it to failed/, as MaxAttempts (5) would. But a job that
// itself stops its worker (a crash, an out-of-memory kill, a hang that a
// supervisor ends) would come back at every start for ever, so there is a
// limit, only a higher one: MaxAbandoned (20) abandonments send a job to
// failed/, whatever its attempts.
//
// # The inbox as a drop folder
//
// Anyone may drop a file into the inbox: a hook, a script, a person. Files
// whose names start with "." are ignored, so a writer should write a
// hidden temporary name and rename it; a file named <ULID>.json holding a
// valid job is taken at once, and so is a file under a name writers give
// one JSON document (QueueOptions.Document: the capture hook's
// hook-<time>-<pid>.json) once it holds the whole document: a prefix of a
// JSON object or array is never one, so the capture hook writes its
// payload in place and spares a rename, a program started at every tool
// call. Such a file cut short waits a minute for its writer, and is then
// taken as any other (an empty one is removed). Any other file is taken
// once it has been unchanged for QueueOptions.Settle (2 s), so that a
// slow writer can finish. A writer killed between its write and its
// rename leaves its temporary file: Sweep renames it when it holds a
// whole document and removes it when it is empty or cut short
// (QueueOptions.Staged). Claim then looks at a file's bytes:
//
//   - one JSON object with a "kind": a job. It gets a new id, its "origin"
//     is its inbox name, its attempts start at 0. An invalid one (bad field,
//     relative pointer path, newer schema, a kind reserved for the queue) is
//     rejected with the reason.
//   - other UTF-8 text (Markdown, JSON, JSON Lines with at least one valid
//     line): the file moves to files/<id>--<safe name> and a job of kind
//     "inbox-file" points at it (Queue.Attachment); Done removes the file
//     with the job.
//   - anything else (empty, binary, not UTF-8, JSON with no valid line, not
//     a regular file such as a symbolic link or a folder, unreadable): the
//     file moves to files/ and a record of kind "inbox-rejected" in failed/
//     says why. Retry puts the file back into the inbox.
//
// A file from the inbox is never deleted before it was processed, never
// followed through a symbolic link, and never named by its own name in
// the queue's folders (safe names are [A-Za-z0-9._-], at most 100 bytes,
// after the job id). Anyone who can write to the inbox can write any job:
// the queue checks that a pointer path is absolute and clean, and the
// consumer must check that it names a file it may read (a watched
// transcript, an attachment under files/) before reading it. The inbox
// and .state/queue must be on one file system.
//
// # Cursors and the watcher
//
// Cursors keeps one small JSON file per transcript in .state/cursors/,
// named by the SHA-1 of its path: offset, size, device, inode, mtime, last
// line uuid, and a fingerprint of the bytes before the offset. A cursor is
// saved by Cursors.Commit, only after the consumer says the lines up to an
// offset are processed. Cursor.Check tells a file that grew from one that
// was truncated (or rewritten in place) or replaced (another inode); both
// start over at 0.
//
// Watcher follows transcript globs and the inbox with fsnotify. It watches
// folders, not files: the literal leading folder of each glob (or its
// deepest existing ancestor, until the rest appears, or again after it was
// removed) and every folder below that may hold matches, picking up new
// folders and files as they appear.
// Events are debounced per file (200 ms, at most 2 s for a file that never
// rests); an overflow or a watch error rescans everything; Serve starts
// with a rescan against the cursors. For each transcript it hands OnDelta
// the range from where it stopped to the end of the last complete line: a
// half-written line waits for its newline. It ignores its own state
// folders. After a restart it resumes at the committed cursors, so ranges
// handed out but not committed come again: consumers dedupe by line uuid.
//
// Wiring, in short (see the package example): OnDelta enqueues Delta.Job;
// OnInbox wakes a worker; the worker claims a job, processes its range,
// commits the cursor (Cursors.Commit) and calls Done, or Fail.
package watcher
