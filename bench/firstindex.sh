#!/usr/bin/env bash
# First index build (issue 15's row), binaries against each other and
# against SQLite FTS5 on the same files, in alternation:
#
#   bench/firstindex.sh PROJECT CAIRN [CAIRN...]     (ROUNDS=5 by default)
#
# PROJECT holds a memory made by `go run ./bench/scale -generate N PROJECT`.
# Before the rounds the first binary runs `cairn list` in it once, so that
# its git stat cache exists (as in bench/scale.sh, whose reindex comes after
# list and context; without it every copy's first command repairs it). Each
# round, for each binary (their order turned by one every round), PROJECT
# is copied afresh and `cairn reindex --json` run in the copy under
# /usr/bin/time; then sqlite3 indexes the copy's Markdown into fts5(path,
# body) as bench/scale does. One line per build (wall and CPU seconds,
# peak RSS, chunks/s, CPU microseconds a chunk, FTS5's wall in the same
# round and the ratio of rates, the load average), then the medians.
# OUT=FILE keeps the lines (tab-separated) in FILE as well.
set -euo pipefail
[ $# -ge 2 ] || { echo "usage: bench/firstindex.sh PROJECT CAIRN [CAIRN...]" >&2; exit 2; }
project=$(cd "$1" && pwd)
shift
bins=() names=()
for b in "$@"; do bins+=("$(cd "$(dirname "$b")" && pwd)/$(basename "$b")"); done
# Each binary's name in the lines: its file name, or with its folder's
# when two share one (before/cairn, after/cairn).
for b in "${bins[@]}"; do names+=("$(basename "$b")"); done
if [ "$(printf '%s\n' "${names[@]}" | sort -u | wc -l)" -lt ${#names[@]} ]; then
	names=()
	for b in "${bins[@]}"; do names+=("$(basename "$(dirname "$b")")/$(basename "$b")"); done
fi
rounds=${ROUNDS:-5}
for tool in sqlite3 /usr/bin/time; do
	command -v "$tool" >/dev/null || { echo "firstindex.sh: $tool is needed" >&2; exit 1; }
done
work=$(mktemp -d "${TMPDIR:-/tmp}/cairn-firstindex.XXXXXX")
trap 'rm -rf "$work"' EXIT
unset CAIRN_DIR
(cd "$project" && "${bins[0]}" list >/dev/null)

# fts5 DIR: the wall and CPU seconds of SQLite FTS5 indexing DIR's
# Markdown (core, sessions, archive), as bench/scale's fts5 does.
fts5() {
	local sql="CREATE VIRTUAL TABLE t USING fts5(path, body);"
	for d in core sessions archive; do
		[ -d "$1/$d" ] && sql+=" INSERT INTO t SELECT name, CAST(readfile(name) AS TEXT) FROM fsdir('$d') WHERE name LIKE '%.md';"
	done
	rm -f "$work/fts5.db"
	(cd "$1" && echo "$sql" | /usr/bin/time -f "%e %U %S" -o "$work/fts5.time" sqlite3 "$work/fts5.db")
	awk '{printf "%s %.2f", $1, $2 + $3}' "$work/fts5.time"
}

out=$work/rows
printf "round\tbinary\twall_s\tcpu_s\tpeak_mib\tchunks\tchunks_per_s\tcpu_us_per_chunk\tfts5_wall_s\tfts5_cpu_s\tvs_fts5\tload1\n" | tee "$out"
n=${#bins[@]}
for r in $(seq 1 "$rounds"); do
	rows=()
	for k in $(seq 0 $((n - 1))); do
		i=$(((k + r - 1) % n))
		rm -rf "$work/copy"
		cp -a "$project" "$work/copy"
		load=$(cut -d' ' -f1 /proc/loadavg)
		(cd "$work/copy" && /usr/bin/time -f "%e %U %S %M" -o "$work/time" "${bins[$i]}" reindex --json >"$work/json")
		chunks=$(sed -n 's/.*"chunks": *\([0-9]*\).*/\1/p' "$work/json")
		rows+=("$r $i $(cat "$work/time") $chunks $load")
	done
	f=$(fts5 "$work/copy/.cairn")
	for row in "${rows[@]}"; do
		read -r -a fields <<<"$row $f" # the row's fields are words: split on purpose
		set -- "${fields[@]}"
		# round, binary, wall, user, sys, rss KB, chunks, load, fts wall, fts cpu
		awk -v r="$1" -v b="${names[$2]}" -v w="$3" -v u="$4" -v s="$5" -v m="$6" -v c="$7" -v l="$8" -v fw="$9" -v fc="${10}" 'BEGIN {
			printf "%d\t%s\t%.2f\t%.2f\t%.0f\t%d\t%.0f\t%.0f\t%.2f\t%.2f\t%.2f\t%s\n", r, b, w, u + s, m / 1024, c, c / w, (u + s) / c * 1e6, fw, fc, (c / w) / (c / fw), l
		}'
	done | tee -a "$out"
done

[ -z "${OUT:-}" ] || cp "$out" "$OUT"
echo
echo "medians over $rounds rounds (vs_fts5: the median of each round's ratio)"
for name in "${names[@]}"; do
	printf "%s" "$name"
	for col in 3 4 5 7 8 11 12; do
		awk -F'\t' -v b="$name" -v c=$col 'NR > 1 && $2 == b {print $c}' "$out" | sort -g |
			awk -v c=$col 'BEGIN {split("x x wall_s cpu_s peak_mib x chunks/s cpu_us/chunk x x vs_fts5 load1", h, " ")}
				{v[NR] = $1} END {m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2; printf "  %s %g", h[c], m}'
	done
	echo
done
printf "sqlite3 FTS5"
for col in 9 10; do
	awk -F'\t' -v c=$col -v b="${names[0]}" 'NR > 1 && $2 == b {print $c}' "$out" | sort -g |
		awk -v c=$col '{v[NR] = $1} END {m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2; printf "  %s %g", (c == 9 ? "wall_s" : "cpu_s"), m}'
done
echo
