// Package server is cairn's sidecar: the daemon that watches a memory's
// work tree (so checkpoints find hand edits without looking at every
// file), follows agent transcripts and the inbox and works the capture
// queue, holds the search index, and serves the HTTP API on loopback
// behind a bearer token (docs/http-api.md); the client the command line
// uses to reach it; and the MCP server that cairn mcp runs on stdio for
// an agent (docs/mcp.md).
package server
