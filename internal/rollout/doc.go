// Package rollout finds the Codex CLI's rollouts, the JSONL files in
// which Codex records each session (${CODEX_HOME:-~/.codex}/sessions/
// YYYY/MM/DD/rollout-<time>-<id>.jsonl), and tells which belong to a
// project: those whose first line, session_meta, names a working folder
// at or inside it. Codex keeps the sessions of every project in one
// tree, so the daemon's watcher follows the whole tree and hands on only
// the project's rollouts, with or without Codex's hooks installed.
package rollout
