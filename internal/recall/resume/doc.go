// Package resume writes a session's context for whoever carries it on
// (`cairn session resume`): what the session is, its progress and
// variables, the latest sections of its summary, its last prompts and the
// core items that came from it, within what a hook may inject. It reads
// the memory's session files and items and writes nothing.
package resume
