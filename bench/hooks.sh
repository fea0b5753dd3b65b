#!/usr/bin/env bash
# Whole-process benchmark of the Claude Code hooks, each against baselines
# measured in the same run.
#
#   bench/hooks.sh [FILES...]     (default: 10000)
#
# Capture: the installed capture hook as Claude Code runs it (sh -c
# COMMAND, a PostToolUse payload on stdin, CLAUDE_PROJECT_DIR set), against
# `sh -c true` (the floor of any hook command) and `sh -c 'cat >/dev/null'`
# (one that reads its stdin).
#
# Session start: `cairn hook session-start` as a new process (a new
# session each run, no daemon: it looks at the queue, packs the context
# and records the session with a commit) on a generated memory of FILES
# files (memory/search_test.go: 5% core items, the rest session files),
# against `cairn version` (process start) and `cairn context` (the pack
# alone).
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
export GOMODCACHE="$(go env GOMODCACHE)" GOCACHE="$(go env GOCACHE)" GOPATH="$(go env GOPATH)"
export HOME="$work/home"
mkdir -p "$HOME"
unset CAIRN_DIR

now() { date +%s%N; }
pct() { sort -n | awk -v p="$1" '{a[NR]=$1} END {i=int(NR*p/100+0.5); if (i<1) i=1; printf "%.2f", a[i]/1000}'; }

# time_runs OUT STDIN CMD...: runs CMD runs times with STDIN (a file; in
# CMD and STDIN, N is replaced by the run's number), appending wall times
# in microseconds to OUT.
time_runs() {
	local out=$1 in=$2 i t0 t1
	shift 2
	: >"$out"
	for i in $(seq 1 "$runs"); do
		local args=()
		for a in "$@"; do args+=("${a//@N@/$i}"); done
		t0=$(now)
		"${args[@]}" <"${in//@N@/$i}" >/dev/null
		t1=$(now)
		echo $(((t1 - t0) / 1000)) >>"$out"
	done
}

row() { printf '%-34s %9s %9s\n' "$1" "$(pct 50 <"$2")" "$(pct 90 <"$2")"; }

# Capture.
p="$work/capture"
mkdir -p "$p"
(cd "$p" && git init -q && "$work/cairn" init --claude >/dev/null)
cp testdata/hooks/post-tool-use-bash.json "$work/payload.json"
capture=$(sed -n 's/.*"command": "\(sh \\"${CLAUDE_PROJECT_DIR:-.}\/.cairn\/hooks\/capture.sh\\"\)".*/\1/p' "$p/.claude/settings.json" | head -1 | sed 's/\\"/"/g')
[ -n "$capture" ] || { echo "no capture command in settings.json" >&2; exit 1; }
export CLAUDE_PROJECT_DIR="$p"
time_runs "$work/t-true" "$work/payload.json" sh -c true
time_runs "$work/t-cat" "$work/payload.json" sh -c 'cat >/dev/null'
time_runs "$work/t-capture" "$work/payload.json" sh -c "$capture"
unset CLAUDE_PROJECT_DIR
captured=$(find "$p/.cairn/inbox" -name 'hook-*.json' | wc -l)
printf '%-34s %9s %9s\n' "hook (ms)" p50 p90
row "sh -c true" "$work/t-true"
row "sh -c 'cat >/dev/null'" "$work/t-cat"
row "capture.sh ($captured files written)" "$work/t-capture"

# Session start.
for n in "${sizes[@]}"; do
	p="$work/p-$n"
	CAIRN_BENCH_CORPUS="$p" CAIRN_BENCH_FILES="$n" go test -count=1 -run '^TestWriteBenchCorpus$' ./memory >/dev/null
	"$work/cairn" -C "$p" init --claude >/dev/null
	for i in $(seq 1 "$runs"); do
		printf '{"session_id":"bench-%d","transcript_path":"%s/none.jsonl","cwd":"%s","hook_event_name":"SessionStart","source":"startup","model":"claude-sonnet-4-5"}\n' \
			"$i" "$HOME" "$p" >"$work/start-$i.json"
	done
	export CLAUDE_PROJECT_DIR="$p"
	"$work/cairn" hook session-start <"$work/start-1.json" >/dev/null # page cache
	time_runs "$work/t-version" /dev/null "$work/cairn" version
	time_runs "$work/t-context" /dev/null "$work/cairn" -C "$p" context
	time_runs "$work/t-start" "$work/start-@N@.json" "$work/cairn" hook session-start
	unset CLAUDE_PROJECT_DIR
	chars=$("$work/cairn" hook -C "$p" session-start <"$work/start-1.json" | sed -n 's/.*"additionalContext":"\(.*\)"}.*/\1/p' | wc -c)
	echo
	printf '%-34s %9s %9s   (%d files, %d characters of context)\n' "session start (ms)" p50 p90 "$n" "$chars"
	row "cairn version" "$work/t-version"
	row "cairn context" "$work/t-context"
	row "cairn hook session-start" "$work/t-start"
	rm -rf "$p"
done
