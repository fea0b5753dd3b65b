#!/usr/bin/env bash
# Pack recall (issue 13): replays the recorded Claude Code sessions of
# testdata/recall/ through the hooks cairn init --claude installs, without
# and then with cairn daemon, and prints per project the share of the facts
# each new session's context pack carries, the stale rate and the tokens
# used, next to an empty pack and the last 6,000 characters of the previous
# session (bench/recall, testdata/recall/README.md).
#
#   bench/recall.sh [-budget N] [-v] [PROJECT...]
#
# Today's capture depends on timing (inbox settle, session-start's drain
# deadline), so figures vary from run to run; RUNS=N repeats each mode.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${RUNS:-1}

work=$(mktemp -d "${TMPDIR:-/tmp}/cairn-recall-bench.XXXXXX")
trap 'rm -rf "$work"' EXIT
go build -o "$work/cairn" ./cmd/cairn
go build -o "$work/recall" ./bench/recall

for mode in "" -daemon; do
	for _ in $(seq 1 "$runs"); do
		# An empty $mode is no argument at all.
		# shellcheck disable=SC2086
		"$work/recall" -cairn "$work/cairn" $mode "$@"
		echo
	done
done
