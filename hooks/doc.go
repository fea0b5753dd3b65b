// Package hooks owns what cairn installs into coding agents: the POSIX sh
// capture hook (embedded, written into a memory's hooks/ folder), and the
// merge of cairn's hook commands into Claude Code's settings.json and of
// its MCP server into .mcp.json.
//
// The capture hook copies a hook's JSON from stdin into the memory's
// inbox (a hidden temporary name, then a rename) and exits 0. It needs
// neither the cairn binary nor a daemon, so a tool call pays for a few
// process starts and nothing more; the memory package ingests the files
// later.
//
// Settings files belong to the user. Merge and Remove change only cairn's
// own entries (recognised by their commands, see IsCairn), keep every
// other key, hook and matcher and the order of keys, and refuse a file
// that is not valid JSON with the line and column where it breaks
// (*SyntaxError). Doing either twice has the effect of once.
//
// Claude.Install and Claude.Remove are cairn init --claude: they install
// the script, edit both files through EditJSON (a FILE.cairn-backup copy
// before the first change, kept out of the project's git status through
// .git/info/exclude; a file cairn made and emptied is removed, and so is
// the project's .claude/ when that leaves it empty). Output, WriteOutput,
// Deadline and DropPayload are what cairn hook answers Claude Code and
// within which limits.
//
// Codex.Install and Codex.Remove are cairn init --codex: the same groups
// of hooks in Codex's hooks.json (MergeGroups), each running cairn hook
// --agent codex, and cairn's MCP server as a [mcp_servers.cairn] table of
// config.toml, edited as text (MergeTOML, RemoveTOML) so that the user's
// comments and order stay, and read back with a TOML parser before it is
// written (EditTOML). Remove gives the backup's bytes back when cairn's
// entries were the only change. TagAgent marks the payloads cairn hook
// captures for an agent other than Claude Code.
//
// Gemini and Cursor are cairn init --gemini and --cursor: the same care for
// Gemini CLI's settings.json (hooks with timeouts in milliseconds, and
// mcpServers) and for Cursor's hooks.json and mcp.json, and the rules file
// that carries the context to Cursor (WriteCursorRules). Normalize puts
// their hook payloads into Claude Code's shape, which the rest of cairn
// reads, the agent named in it as TagAgent names it.
//
// Check and CheckMCP read the same files back and say what is wrong with
// the wiring (cairn doctor renders their findings): an event without
// cairn's hook, a command whose script or binary is gone, a capture
// script older than the binary, a settings file Claude Code cannot parse.
// Knowing how commands are written is what lets them find what a command
// needs, so this lives beside Merge rather than in the doctor.
package hooks
