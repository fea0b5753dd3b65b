#!/usr/bin/env bash
# Scale benchmark (issue 15): every row of the issue's table on generated
# memories shaped like real ones, each next to its baseline from the same run.
#
#   bench/scale.sh [SIZES...]     (default: 10000 100000; 10000 alone is the quick run)
#
# 1. bench/scale (Go): daemon RSS idle after indexing and peak while indexing
#    (/proc VmRSS/VmHWM; floor: a daemon on an empty memory), `cairn list`
#    and `cairn context` without a daemon, cold and warm (floor: `cairn
#    version`), the first index build in chunks/s against SQLite FTS5 (the
#    sqlite3 CLI) indexing the same Markdown files, and the capture hook's
#    p50 against `sh -c true` with its process starts counted by strace.
# 2. bench/checkpoint.sh SIZES: `cairn checkpoint` with and without a
#    daemon against `git add -A && git commit` on an identical copy, after
#    changing 1 file and adding 1; the growth between the first two sizes.
# 3. bench/search.sh 10000: cold `cairn search` at 10k against the floor.
#
# HOOK_BASELINE=FILE times another capture script with hooks/capture.sh,
# interleaved (git show REV:hooks/capture.sh >FILE for a before/after pair).
# Needs git, sqlite3 and (for the process count) strace. RUNS sets the timed
# runs of each row (default 11; checkpoint.sh and search.sh keep their own
# defaults unless RUNS is set). A 100,000-file run is long: over 40 minutes
# on a loaded 2-core machine with a saturated disk (generation 2-4 minutes,
# two first index builds of 2-11 minutes each, then checkpoint.sh generates
# its own); `bench/scale.sh 10000` 3 to 10 minutes.
set -euo pipefail
cd "$(dirname "$0")/.."
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(10000 100000)
for tool in git sqlite3; do
	command -v "$tool" >/dev/null || { echo "scale.sh: $tool is needed (apt-get install -y $tool)" >&2; exit 1; }
done

work=$(mktemp -d "${TMPDIR:-/tmp}/cairn-scale.XXXXXX")
trap 'rm -rf "$work"' EXIT
go build -o "$work/cairn" ./cmd/cairn
go build -o "$work/scale" ./bench/scale
export GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null
export GIT_AUTHOR_NAME=bench GIT_AUTHOR_EMAIL=bench@example.com
export GIT_COMMITTER_NAME=bench GIT_COMMITTER_EMAIL=bench@example.com
unset CAIRN_DIR
start=$(date +%s)

echo "== memory, list, context, first index, capture hook (bench/scale)"
"$work/scale" -cairn "$work/cairn" -hook hooks/capture.sh ${HOOK_BASELINE:+-hook-baseline "$HOOK_BASELINE"} \
	-work "$work" -runs "${RUNS:-11}" "${sizes[@]}"

echo
echo "== checkpoints (bench/checkpoint.sh ${sizes[*]}); load average $(cut -d' ' -f1-3 /proc/loadavg)"
bench/checkpoint.sh "${sizes[@]}" | tee "$work/checkpoint.out"
# Growth: the cost at the last size against the first (the issue: 100k/10k).
awk 'NR > 1 {n[NR] = $1; a[NR] = $2; d[NR] = $3} END {
	if (NR < 3) exit
	printf "growth %s/%s files: without a daemon %.2fx, with one %.2fx (target <= 1.5x)\n", n[NR], n[2], a[NR]/a[2], d[NR]/d[2]
}' "$work/checkpoint.out"

echo
echo "== cold search at 10000 files (bench/search.sh 10000); load average $(cut -d' ' -f1-3 /proc/loadavg)"
bench/search.sh 10000

echo
echo "scale.sh: $(( $(date +%s) - start )) s in all; load average $(cut -d' ' -f1-3 /proc/loadavg)"
