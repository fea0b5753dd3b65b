// Package backlog is a session's turns captured and not yet summarised:
// what one holds, the context turn kept at its head once a segment was
// summarised, and how new turns join it. Package memory keeps the list in
// the state folder; package capture fills and drains it. No I/O.
package backlog
