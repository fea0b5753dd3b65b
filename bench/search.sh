#!/usr/bin/env bash
# Whole-process search benchmark: cold `cairn search` and `cairn context`
# processes (open the memory and the index, query, print, exit) on a
# generated memory, after indexing it with `cairn reindex`.
#
#   bench/search.sh [FILES...]     (default: 10000)
#
# Prints, for each size: the indexing time and speed, the index's size
# against the text's, and the median wall time of RUNS (default 21)
# processes of each kind, each with another query: `cairn version` (the
# floor: process start), `cairn search` (hybrid), `cairn search --mode
# keyword`, `cairn context` (no query: the index is not opened) and
# `cairn context --query`; then `cairn search` through a daemon holding the
# index (new binary only), and the same search through bench/thin (a client
# linking nothing but the standard library: the floor a small client binary
# would have). The memory is the one
# the Go benchmarks use (internal/recall/search_test.go: benchCorpus): 5% core
# items, the rest session files, about 1 KB each of Zipf-distributed words.
# The index's size is measured at rest (du, after the reindex process has
# exited), against the Markdown files' size.
#
# With CAIRN_BASELINE=/path/to/another/cairn, that binary indexes a copy
# of the same memory and its rows (marked "base") are timed in blocks
# alternating with this tree's, for before/after pairs in one run.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${RUNS:-21}
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(10000)

work=$(mktemp -d "${TMPDIR:-/tmp}/cairn-search-bench.XXXXXX")
trap 'rm -rf "$work"' EXIT
go build -o "$work/cairn" ./cmd/cairn
go build -o "$work/thin" ./bench/thin
export GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null
export GIT_AUTHOR_NAME=bench GIT_AUTHOR_EMAIL=bench@example.com
export GIT_COMMITTER_NAME=bench GIT_COMMITTER_EMAIL=bench@example.com
unset CAIRN_DIR

# shellcheck source=bench/lib.sh
. bench/lib.sh
words=(queue worker job database schema migration index search query vector session summary
	decision commit branch merge test benchmark latency cache timeout retry error deploy release
	build module config postgres redis bleve daemon watcher transcript parser secret)

# time_runs OUT CMD...: runs CMD runs times with a query of two words
# (QUERY in CMD is replaced), appending wall times in microseconds to OUT.
time_runs() {
	local out=$1 q t0 t1
	shift
	: >"$out"
	for _ in $(seq 1 "$runs"); do
		q="${words[$((RANDOM % ${#words[@]}))]} ${words[$((RANDOM % ${#words[@]}))]}"
		local args=()
		for a in "$@"; do args+=("${a//QUERY/$q}"); done
		t0=$(now); "${args[@]}" >/dev/null; t1=$(now)
		echo $(( (t1 - t0) / 1000 )) >>"$out"
	done
}

bins=(new)
if [ -n "${CAIRN_BASELINE:-}" ]; then
	cp "$CAIRN_BASELINE" "$work/cairn-base"
	bins=(base new)
fi
bin() { if [ "$1" = base ]; then echo "$work/cairn-base"; else echo "$work/cairn"; fi; }

echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-5s %-8s %8s %9s %9s %11s %11s %11s %11s %11s %11s\n' bin files chunks "index s" chunks/s "index/text" "version ms" "search ms" "keyword ms" "context ms" "context -q ms"
for n in "${sizes[@]}"; do
	p="$work/p-$n"
	CAIRN_BENCH_CORPUS="$p" CAIRN_BENCH_FILES="$n" go test -count=1 -run '^TestWriteBenchCorpus$' ./internal/recall >/dev/null
	text=$(cd "$p/.cairn" && find core sessions archive -type f -name '*.md' -printf '%s\n' | awk '{s+=$1} END {print s}')
	for b in "${bins[@]}"; do
		[ "$b" = new ] || cp -a "$p" "$p-$b"
	done
	declare -A chunks secs bytes
	for b in "${bins[@]}"; do
		d=$p
		[ "$b" = new ] || d=$p-$b
		t0=$(now)
		stats=$("$(bin "$b")" -C "$d" reindex --json)
		t1=$(now)
		chunks[$b]=$(echo "$stats" | sed -n 's/.*"chunks": \([0-9]*\).*/\1/p')
		secs[$b]=$(awk -v a="$t0" -v b="$t1" 'BEGIN {printf "%.1f", (b-a)/1e9}')
		bytes[$b]=$(du -sb --exclude=lock "$d/.cairn/.state/index" | cut -f1)
		"$(bin "$b")" -C "$d" search warm up >/dev/null # page cache, as a second search finds it
	done
	# Blocks of runs, each binary in turn, so that load changes hit both.
	for what in ts tk tc tq tv; do
		for b in "${bins[@]}"; do
			d=$p
			[ "$b" = new ] || d=$p-$b
			x=$(bin "$b")
			case $what in
			ts) time_runs "$work/$what-$b" "$x" -C "$d" search QUERY ;;
			tk) time_runs "$work/$what-$b" "$x" -C "$d" search --mode keyword QUERY ;;
			tc) time_runs "$work/$what-$b" "$x" -C "$d" context ;;
			tq) time_runs "$work/$what-$b" "$x" -C "$d" context --query QUERY ;;
			tv) time_runs "$work/$what-$b" "$x" version ;;
			esac
		done
	done
	# The same search through a daemon that holds the index warm.
	"$work/cairn" -C "$p" daemon start >/dev/null
	"$work/cairn" -C "$p" search warm up >/dev/null
	time_runs "$work/td" "$work/cairn" -C "$p" search QUERY
	# And through bench/thin, a client linking nothing but the standard
	# library: the floor a small client binary would have.
	time_runs "$work/tt" "$work/thin" search "$p/.cairn" QUERY
	"$work/cairn" -C "$p" daemon stop >/dev/null
	for b in "${bins[@]}"; do
		awk -v bin="$b" -v n="$n" -v c="${chunks[$b]}" -v s="${secs[$b]}" -v b="${bytes[$b]}" -v t="$text" -v mv="$(median <"$work/tv-$b")" \
			-v ms="$(median <"$work/ts-$b")" -v mk="$(median <"$work/tk-$b")" -v mc="$(median <"$work/tc-$b")" -v mq="$(median <"$work/tq-$b")" \
			'BEGIN {printf "%-5s %-8s %8d %9.1f %9.0f %11.2f %11.1f %11.1f %11.1f %11.1f %11.1f\n", bin, n, c, s, c/s, b/t, mv/1000, ms/1000, mk/1000, mc/1000, mq/1000}'
	done
	echo "new   $n: cairn search through a running daemon: $(median <"$work/td" | awk '{printf "%.1f", $1/1000}') ms (cairn version above is the floor); bench/thin through it: $(median <"$work/tt" | awk '{printf "%.1f", $1/1000}') ms"
	rm -rf "$p" "$p"-*
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
