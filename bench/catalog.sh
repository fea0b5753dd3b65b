#!/usr/bin/env bash
# Whole-process benchmark of the metadata catalogue (.state/catalog-*.tsv):
# `cairn list`, `cairn list --kind decision` and `cairn context` (no
# daemon, no query) on a generated memory (bench/gen), each against the
# process floor `cairn version`, with this tree's binary and, with
# CAIRN_BASELINE=/path/to/cairn, another one (rows "base"), timed in
# alternation on the same memory.
#
#   bench/catalog.sh [FILES]     (default: 100000)
#
# Rows: warm (the catalogue up to date); after a checkpoint of a hand
# edit to a core item and a new session file (the checkpoint brings the
# catalogue up to date); the first list with no catalogue (it is
# rebuilt from the files: once per clone); and the checkpoint itself,
# whose cost the catalogue adds to. Prints medians of RUNS (default 7)
# wall times in ms, with the CPU time (user+sys) of the same runs.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${RUNS:-7}
n=${1:-100000}

work=$(mktemp -d "${TMPDIR:-/tmp}/cairn-catalog-bench.XXXXXX")
trap 'rm -rf "$work"' EXIT
go build -o "$work/cairn" ./cmd/cairn
export GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null
export GIT_AUTHOR_NAME=bench GIT_AUTHOR_EMAIL=bench@example.com
export GIT_COMMITTER_NAME=bench GIT_COMMITTER_EMAIL=bench@example.com
export CAIRN_AUTHOR_NAME=bench CAIRN_AUTHOR_EMAIL=bench@example.com
unset CAIRN_DIR
bins=(new)
if [ -n "${CAIRN_BASELINE:-}" ]; then
	cp "$CAIRN_BASELINE" "$work/cairn-base"
	bins=(base new)
fi
bin() { if [ "$1" = base ]; then echo "$work/cairn-base"; else echo "$work/cairn"; fi; }

p=$work/p
go run ./bench/gen -files "$n" "$p" >/dev/null
d=$p/.cairn

# run OUT CMD...: one timed run, "wall_ms cpu_ms" appended to OUT.
run() {
	local out=$1
	shift
	/usr/bin/time -f '%e %U %S' -o "$work/t" "$@" >/dev/null 2>"$work/err" || { cat "$work/err" >&2; return 1; }
	awk '{printf "%d %d\n", $1*1000, ($2+$3)*1000}' "$work/t" >>"$out"
}
# shellcheck source=bench/lib.sh
. bench/lib.sh
report() { # report NAME BIN FILE
	printf '%-34s %-5s %8s %8s\n' "$1" "$2" "$(cut -d' ' -f1 "$3" | median)" "$(cut -d' ' -f2 "$3" | median)"
}
# edit I: a hand edit to a core item and a line in a session's log.
edit() {
	local f
	f=$(find "$d/core" -name '*.md' | sort | sed -n "$(( $1 % 500 + 1 ))p")
	echo "edit $1" >>"$f"
	f=$(find "$d/sessions" -name observations.md | sort | sed -n "$(( $1 % 200 + 1 ))p")
	echo "- observation $1" >>"$f"
}

echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg); $n files"
for b in "${bins[@]}"; do "$(bin "$b")" -C "$d" list >/dev/null; done # first build of the caches
printf '%-34s %-5s %8s %8s\n' row bin "wall ms" "cpu ms"
for b in "${bins[@]}"; do
	c=$(bin "$b")
	for r in version list kind context; do : >"$work/$b-$r"; done
	for _ in $(seq "$runs"); do
		run "$work/$b-version" "$c" -C "$d" version
		run "$work/$b-list" "$c" -C "$d" list
		run "$work/$b-kind" "$c" -C "$d" list --kind decision
		run "$work/$b-context" "$c" -C "$d" context
	done
	report "cairn version" "$b" "$work/$b-version"
	report "cairn list, warm" "$b" "$work/$b-list"
	report "cairn list --kind decision, warm" "$b" "$work/$b-kind"
	report "cairn context, warm" "$b" "$work/$b-context"
done
for b in "${bins[@]}"; do
	c=$(bin "$b")
	for r in ckpt list context; do : >"$work/$b-after-$r"; done
	for i in $(seq "$runs"); do
		edit "$i"
		run "$work/$b-after-ckpt" "$c" -C "$d" checkpoint
		run "$work/$b-after-list" "$c" -C "$d" list
		edit "$((i + 1000))"
		"$c" -C "$d" checkpoint >/dev/null
		run "$work/$b-after-context" "$c" -C "$d" context
	done
	report "cairn checkpoint (2 files)" "$b" "$work/$b-after-ckpt"
	report "cairn list, after a checkpoint" "$b" "$work/$b-after-list"
	report "cairn context, after a checkpoint" "$b" "$work/$b-after-context"
done
: >"$work/new-rebuild"
for _ in $(seq 3); do
	rm -f "$d"/.state/catalog-*.tsv
	run "$work/new-rebuild" "$work/cairn" -C "$d" list
done
report "cairn list, no catalogue (3 runs)" new "$work/new-rebuild"
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
