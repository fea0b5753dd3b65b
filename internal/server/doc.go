// Package server is cairn's sidecar: the daemon that watches a memory's
// work tree (so checkpoints find hand edits without looking at every
// file), follows agent transcripts and the inbox and works the capture
// queue, holds the search index, and serves the HTTP API on loopback
// behind a bearer token (docs/http-api.md); the client the command line
// uses to reach it; and what cairn hook answers an agent at a session's
// start and at each prompt (hook.go: the context pack, the backlog worked
// when no daemon runs; internal/agents runs the hook). Start, Stop and
// client.Status are how the command line runs the daemon in the
// background. The MCP server cairn mcp runs is package mcpserve.
package server
