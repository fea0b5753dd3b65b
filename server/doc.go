// Package server is cairn's sidecar: the daemon that watches a memory's
// work tree (so checkpoints find hand edits without looking at every
// file), follows agent transcripts and the inbox and works the capture
// queue, holds the search index, and serves the HTTP API on loopback
// behind a bearer token; and the client the command line uses to reach
// it.
package server
