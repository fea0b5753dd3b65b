// Package client talks to a running cairn daemon over its HTTP API on
// 127.0.0.1: it finds the daemon from the address and bearer token the
// daemon leaves in the memory's state folder (addr, token), and holds the
// shapes of the requests and answers of the session, memory and checkpoint
// endpoints. The daemon (internal/server) answers with the same types, so
// the wire format has one home; see docs/http-api.md. Autostart starts the
// daemon in the background when none runs, one per memory.
package client
