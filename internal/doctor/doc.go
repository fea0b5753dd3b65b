// Package doctor owns what cairn doctor checks, and why: the memory
// (found and opened), the Claude Code wiring (hooks.Check: hooks
// installed, pointing at scripts and a cairn binary that exist), the MCP
// server, the daemon, the capture queue (failed jobs, a backlog nobody
// works), the search index against HEAD, FUSE for cairn mount, the git
// remotes (reachable), the conflict copies syncs left, symbolic
// links in the memory (never followed nor committed), and the memories
// the project's code changed under (package anchor). Each finding says
// what is wrong and the command that fixes it.
//
// Run returns a Report: the findings, in the order above; internal/ui
// renders it as text or JSON (the JSON shape is Report's). doctor reads
// the environment and finds folders only through its Options, never the
// process's.
package doctor
