#!/usr/bin/env bash
# Whole-process benchmark of the Claude Code hooks, each against baselines
# measured in the same run, interleaved (run i of every command before run
# i+1 of any), so that load from elsewhere weighs on all of them alike.
#
#   bench/hooks.sh [FILES...]     (default: 10000)
#
# Capture: the installed capture hook as Claude Code runs it (sh -c
# COMMAND, a PostToolUse payload on stdin, CLAUDE_PROJECT_DIR set), against
# `sh -c true` (the floor of any hook command) and `sh -c 'cat >/dev/null'`
# (one that reads its stdin).
#
# Session start: `cairn hook session-start` as a new process (a new
# session each run, no daemon: it works the queue, packs the context and
# queues the session's record) on a generated memory of FILES files
# (internal/recall/search_test.go: 5% core items, the rest session files), against
# `cairn version` (process start) and `cairn context` (the pack alone).
# Twice: with the queue emptied between runs (what the hook itself costs),
# and with the previous run's session start left queued (each run first
# records one session, a commit, as a start after a session without a
# daemon does).
#
# Prints the median (p50) and p90 wall times of RUNS runs (default 101).
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${RUNS:-101}
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(10000)

work=$(mktemp -d "${TMPDIR:-/tmp}/cairn-hooks-bench.XXXXXX")
trap 'rm -rf "$work"' EXIT
go build -o "$work/cairn" ./cmd/cairn
export GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null
export GIT_AUTHOR_NAME=bench GIT_AUTHOR_EMAIL=bench@example.com
export GIT_COMMITTER_NAME=bench GIT_COMMITTER_EMAIL=bench@example.com
# cairn runs with a home of its own; go keeps the usual caches.
# Assigned apart from export so that set -e sees a failing go env.
GOMODCACHE=$(go env GOMODCACHE)
GOCACHE=$(go env GOCACHE)
GOPATH=$(go env GOPATH)
export GOMODCACHE GOCACHE GOPATH
export HOME="$work/home"
mkdir -p "$HOME"
unset CAIRN_DIR

# shellcheck source=bench/lib.sh
. bench/lib.sh
pct() { sort -n | awk -v p="$1" '{a[NR]=$1} END {i=int(NR*p/100+0.5); if (i<1) i=1; printf "%.2f", a[i]/1000}'; }

# timed NAME CMD... <STDIN: runs CMD once, appending its wall time in
# microseconds to $work/t-NAME.
timed() {
	local name=$1 t0 t1
	shift
	t0=$(now)
	"$@" >/dev/null
	t1=$(now)
	echo $(((t1 - t0) / 1000)) >>"$work/t-$name"
}

row() { printf '%-34s %9s %9s\n' "$1" "$(pct 50 <"$work/t-$2")" "$(pct 90 <"$work/t-$2")"; }

# Capture.
p="$work/capture"
mkdir -p "$p"
(cd "$p" && git init -q && "$work/cairn" init --claude >/dev/null)
payload=testdata/hooks/post-tool-use-bash.json
# ${CLAUDE_PROJECT_DIR:-.} is literal text in settings.json, not for this shell.
# shellcheck disable=SC2016
capture=$(sed -n 's/.*"command": "\(sh \\"${CLAUDE_PROJECT_DIR:-.}\/.cairn\/hooks\/capture.sh\\"\)".*/\1/p' "$p/.claude/settings.json" | head -1 | sed 's/\\"/"/g')
[ -n "$capture" ] || { echo "no capture command in settings.json" >&2; exit 1; }
export CLAUDE_PROJECT_DIR="$p"
for i in $(seq 1 "$runs"); do
	timed true sh -c true <"$payload"
	timed cat sh -c 'cat >/dev/null' <"$payload"
	timed capture sh -c "$capture" <"$payload"
done
unset CLAUDE_PROJECT_DIR
captured=$(find "$p/.cairn/inbox" -name 'hook-*.json' | wc -l)
printf '%-34s %9s %9s\n' "hook (ms)" p50 p90
row "sh -c true" true
row "sh -c 'cat >/dev/null'" cat
row "capture.sh ($captured files written)" capture

# Session start.
for n in "${sizes[@]}"; do
	p="$work/p-$n"
	rm -f "$work"/t-version "$work"/t-version2 "$work"/t-context "$work"/t-start "$work"/t-startq
	CAIRN_BENCH_CORPUS="$p" CAIRN_BENCH_FILES="$n" go test -count=1 -run '^TestWriteBenchCorpus$' ./internal/recall >/dev/null
	"$work/cairn" -C "$p" init --claude >/dev/null
	# Measured without a daemon: session starts must not run one.
	printf 'daemon:\n  autostart: false\n' >>"$p/.cairn/cairn.yaml"
	export CLAUDE_PROJECT_DIR="$p"
	start() {
		printf '{"session_id":"bench-%s","transcript_path":"%s/none.jsonl","cwd":"%s","hook_event_name":"SessionStart","source":"startup","model":"claude-sonnet-4-5"}\n' "$1" "$HOME" "$p" |
			timed "$2" "$work/cairn" hook session-start
	}
	start 0 warm
	rm -f "$p"/.cairn/inbox/*.json
	for i in $(seq 1 "$runs"); do
		timed version "$work/cairn" version </dev/null
		timed context "$work/cairn" -C "$p" context </dev/null
		start "a$i" start
		rm -f "$p"/.cairn/inbox/*.json
	done
	# Each run records the session the run before queued.
	for i in $(seq 1 "$runs"); do
		timed version2 "$work/cairn" version </dev/null
		start "b$i" startq
	done
	unset CLAUDE_PROJECT_DIR
	bytes=$(printf '{"session_id":"x","hook_event_name":"SessionStart","source":"startup"}' | "$work/cairn" hook -C "$p" session-start | wc -c)
	echo
	printf '%-34s %9s %9s   (%d files, output %d bytes)\n' "session start (ms)" p50 p90 "$n" "$bytes"
	row "cairn version" version
	row "cairn context" context
	row "cairn hook session-start" start
	row "cairn version (second loop)" version2
	row "  ... a start queued before" startq
	rm -rf "$p"
done
