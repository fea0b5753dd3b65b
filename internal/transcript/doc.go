// Package transcript turns what coding agents record into one event model:
// session start, user prompt, assistant text, tool call, tool result (or
// error), compaction and its summary, stop, session end, each with where it
// came from (Meta).
//
// It reads Claude Code session JSONL (ParseClaude), Codex CLI rollouts
// (ParseCodex), plain chat JSONL (ParseChat), Markdown transcripts
// (ParseMarkdown, whose convention is documented there) and Claude Code hook
// payloads (ParseHook); Detect picks a format. Gemini CLI's chat files
// (FormatGemini) are read by package transcript/gemini. It checks session
// ids that come from outside before anyone makes paths of them
// (ValidateSessionID).
// It knows nothing of where transcripts live, of cairn's memory or of git:
// it takes bytes and returns events.
//
// # Ranges and resuming
//
// The transcript parsers read a byte range of a file that may still be
// growing, and return how far they got (Parsed.Consumed). They only take
// complete lines, and they stop at the last point where nothing is waiting:
// no assistant message whose lines may continue, no tool call without its
// result. Resuming from Consumed therefore gives exactly the events one pass
// over the whole file would, and parsing the same range twice gives the same
// events (Event.ID is stable, for dedupe across overlapping ranges). When
// the writer is at rest (Stop, SessionEnd, an idle file, a finished
// transcript) pass Options.Final to take everything.
//
// Bad lines do not stop a parse: each is reported in Parsed.Errors with its
// file, line and offset, and the parse goes on. Nothing a parser returns
// refers to the bytes it was given, so a tailer may reuse its buffer.
//
// Claude Code and Codex lines are read with a small JSON lexer of this
// package rather than encoding/json: it takes the few fields the parser
// needs and skips tool output at memchr speed (package jsonlex).
package transcript
