// Command recall measures what a new Claude Code session learns from the
// ones before it: the pack-recall benchmark of issue 13.
//
//	go run ./bench/recall record testdata/recall/PROJECT...
//	go run ./bench/recall [-daemon] [-budget N] [-json] [-v] [-packs DIR] [PROJECT...]
//	go run ./bench/recall -rescore DIR [-json] [-v] [PROJECT...]
//	go run ./bench/recall trial [-cairn BIN] [-budget N] [-keep DIR] [-packs DIR] [-json] [-v] testdata/recall/PROJECT...
//
// A project is a folder of testdata/recall with a scenario.yaml (the
// format is testdata/recall/README.md): sessions of prompts, the model's
// scripted turns, and the facts each session establishes.
//
// record plays every session through the real Claude Code CLI against the
// scripted fake Anthropic server (../shared/tools/fake-anthropic), with a
// hook of its own on every event that saves the payload and how long the
// transcript was at that moment. It writes recorded/SESSION/transcript.jsonl
// and recorded/SESSION/hooks.jsonl, with the temporary home and project
// folders replaced by placeholders.
//
// Without record, it builds cairn, and for each project makes a scratch
// project with the fixtures, runs cairn init --claude as a user does, and
// replays the recorded hook calls in order and without sleeping through
// the commands the installed .claude/settings.json names, the transcript
// cut to its recorded length before each. The additionalContext a session
// start answers is the pack that session received; it is scored against
// the scenario's facts (pack recall, stale rate, tokens) next to two
// baselines from the same transcripts: an empty pack, and the last 6,000
// characters of the previous session's conversation. -rescore scores the
// packs an earlier -packs run wrote, without replaying: a change of the
// scoring is measured on the same packs.
//
// trial is the user's own path end to end: the sessions run as record
// runs them, through the real Claude Code CLI and the scripted model, but
// in a scratch project (and home) where cairn init --claude installed
// cairn's hooks, which start the daemon themselves; a clear session's
// two calls go to the installed hooks. A session's pack is what its
// SessionStart hook printed, as the transcript keeps it (an attachment
// line of type hook_success). After the last session the daemon is given
// time to take what is queued and is stopped, and the memory's
// repository (git fsck) and the queue are checked. The packs are scored
// as the replay's, the baseline of the previous session on the trial's
// own transcripts.
package main
