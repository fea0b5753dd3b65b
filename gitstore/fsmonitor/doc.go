// Package fsmonitor is the server side of cairn's fsmonitor protocol: a
// Monitor watches a gitstore.Store's work tree with inotify and tells
// checkpoints in any process which paths may have changed since a token,
// so that finding hand edits costs what changed.
//
// It listens on .state/fsmonitor.sock (gitstore.MonitorSocket) and
// watches .state/fsmonitor/ (gitstore.MonitorCookies) for the cookie files
// that clients create before they ask; it writes no other file. The
// client, which every checkpoint runs, is in gitstore.
package fsmonitor
