// Package follow says which agent transcripts are the project's, and so
// which cairn reads: the ones its configuration's globs name (by default
// the project's Claude Code folder, Codex's rollouts of sessions run in
// the project, the project's Gemini CLI chats), a Claude Code session
// started in a subfolder, never another project's and never through a
// symbolic link. A hook payload or a job names a transcript by path, and
// anyone who can write to the inbox can forge one: Open is the one way
// capture opens a transcript. It also names the folders the agents keep
// a project's transcripts in (ClaudeProjectName, GeminiProjectName).
package follow
