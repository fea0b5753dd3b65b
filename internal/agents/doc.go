// Package agents is what cairn does for each coding agent it serves:
// wiring the memory into the agents a user names (Wire: cairn init
// --claude, --codex, --gemini, --cursor; the files and how they are
// edited are package hooks'), and running cairn hook for any of them
// (RunHook).
//
// Claude Code's and Codex's payloads are captured into the inbox as they
// come (Codex's tagged with its name, hooks.TagAgent), or answered with
// what internal/server makes at a session's start and at a prompt. A
// Gemini CLI or Cursor hook payload is first put into Claude Code's shape
// (hooks.Normalize), with the agent named in it, and then goes the same
// way. Gemini's SessionStart and BeforeAgent are answered in
// Gemini's shape. Cursor's hooks cannot add context, so its stop hook
// writes the context pack into the rules file .cursor/rules/cairn.mdc,
// which Cursor includes in every request: written at the end of a turn,
// it is what the next turn and the next conversation get. (Writing it
// after each of the daemon's checkpoints would be fresher by a few
// seconds, at the cost of a pack per checkpoint and a daemon that writes
// into the project; the stop hook runs with or without a daemon.)
package agents
