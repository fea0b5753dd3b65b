#!/usr/bin/env bash
# Whole-process checkpoint benchmark: `cairn checkpoint` against
# `git add -A && git commit` on identical generated memory repositories,
# each run after modifying 1 file and adding 1, in the same run.
#
#   bench/checkpoint.sh [FILES...]     (default: 10000 100000)
#
# cairn runs twice: without a daemon (the checkpoint stats every file, as
# git does) and with one (its monitor knows what changed and its stat
# cache is warm); with the daemon, bench/thin (a client linking nothing
# but the standard library) asks it to checkpoint too, taking turns with
# cairn: the floor a small client binary would have. Prints the median
# wall time of each, against git in the
# same run, then how each grows from the smallest size to the largest
# (the daemon's target: at most 1.5x), and the load average. Set RUNS to
# change the number of timed runs (default 15).
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${RUNS:-15}
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(10000 100000)

work=$(mktemp -d "${TMPDIR:-/tmp}/cairn-bench.XXXXXX")
trap 'rm -rf "$work"' EXIT
go build -o "$work/cairn" ./cmd/cairn
go build -o "$work/thin" ./bench/thin
export GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null
# No background gc in the git baseline: it would steal CPU from the next run.
export GIT_CONFIG_COUNT=2 GIT_CONFIG_KEY_0=gc.auto GIT_CONFIG_VALUE_0=0 GIT_CONFIG_KEY_1=maintenance.auto GIT_CONFIG_VALUE_1=false
export GIT_AUTHOR_NAME=bench GIT_AUTHOR_EMAIL=bench@example.com
export GIT_COMMITTER_NAME=bench GIT_COMMITTER_EMAIL=bench@example.com
export CAIRN_AUTHOR_NAME=bench CAIRN_AUTHOR_EMAIL=bench@example.com
unset CAIRN_DIR

# shellcheck source=bench/lib.sh
. bench/lib.sh

# mutate DIR I: append to one session file, add one core item.
mutate() {
	local d=$1 i=$2 f sessions
	# The glob sorts as ls did; an array keeps odd names whole.
	sessions=("$d"/sessions/*/)
	f=${sessions[i % 200]:-}
	echo "- observation $i: ran go test ./... (exit 0)" >>"$f/observations.md"
	printf -- '---\nkind: decision\ntitle: bench %s\n---\nbody\n' "$i" >"$d/core/decisions/bench-$i--01JDXK3V9M2Q7Y8Z4T6R5W$(printf %04d "$i").md"
}


printf '%-8s %12s %12s %12s %12s %10s %10s %10s\n' files "cairn (ms)" "daemon (ms)" "thin (ms)" "git (ms)" "cairn/git" "daemon/git" "thin/git"
for n in "${sizes[@]}"; do
	go run ./bench/gen -files "$n" "$work/a-$n" >/dev/null
	cp -a "$work/a-$n" "$work/b-$n"
	a="$work/a-$n/.cairn" b="$work/b-$n/.cairn"
	# Warm-up: cairn fills its stat cache from a repository made by git;
	# git refreshes its index. Neither is timed.
	mutate "$a" 9999; "$work/cairn" -C "$a" checkpoint >/dev/null
	mutate "$b" 9999; git -C "$b" add -A; git -C "$b" commit -qm warm
	: >"$work/ta"; : >"$work/td"; : >"$work/tt"; : >"$work/tb"
	for i in $(seq 1 "$runs"); do
		mutate "$a" "$i"; sync
		t0=$(now); "$work/cairn" -C "$a" checkpoint -m "bench $i" >/dev/null; t1=$(now)
		echo $(( (t1 - t0) / 1000 )) >>"$work/ta"
		[ -z "$(git -C "$a" status --porcelain)" ] || { echo "checkpoint.sh: git status not clean in $a" >&2; exit 1; }
		mutate "$b" "$i"; sync
		t0=$(now); git -C "$b" add -A && git -C "$b" commit -qm "bench $i"; t1=$(now)
		echo $(( (t1 - t0) / 1000 )) >>"$work/tb"
	done
	"$work/cairn" -C "$a" daemon start >/dev/null
	# The monitor's first answer after a start means a full scan.
	sleep 2; "$work/cairn" -C "$a" checkpoint >/dev/null; "$work/cairn" -C "$a" checkpoint >/dev/null
	for i in $(seq 1 "$runs"); do
		mutate "$a" $((i + 1000)); sync
		t0=$(now); "$work/cairn" -C "$a" checkpoint -m "bench d$i" >/dev/null; t1=$(now)
		echo $(( (t1 - t0) / 1000 )) >>"$work/td"
		[ -z "$(git -C "$a" status --porcelain)" ] || { echo "checkpoint.sh: git status not clean in $a" >&2; exit 1; }
		# The same through bench/thin: what a client binary linking
		# nothing but the standard library would cost.
		mutate "$a" $((i + 2000)); sync
		t0=$(now); "$work/thin" checkpoint "$a" "bench t$i" >/dev/null; t1=$(now)
		echo $(( (t1 - t0) / 1000 )) >>"$work/tt"
		[ -z "$(git -C "$a" status --porcelain)" ] || { echo "checkpoint.sh: git status not clean in $a" >&2; exit 1; }
	done
	"$work/cairn" -C "$a" daemon stop >/dev/null
	ca=$(median <"$work/ta") cd=$(median <"$work/td") ct=$(median <"$work/tt") gb=$(median <"$work/tb")
	awk -v n="$n" -v a="$ca" -v d="$cd" -v t="$ct" -v b="$gb" 'BEGIN {printf "%-8s %12.1f %12.1f %12.1f %12.1f %10.3f %10.3f %10.3f\n", n, a/1000, d/1000, t/1000, b/1000, a/b, d/b, t/b}'
	first=${first:-"$ca $cd $gb $ct"} last="$ca $cd $gb $ct"
	git -C "$a" fsck --full --no-dangling >/dev/null 2>&1 || { echo "checkpoint.sh: git fsck failed in $a" >&2; exit 1; }
	rm -rf "$work/a-$n" "$work/b-$n"
done
# Growth: each column's median at the largest size over the smallest.
if [ ${#sizes[@]} -gt 1 ]; then
	echo "$first $last" | awk -v f="${sizes[0]}" -v l="${sizes[${#sizes[@]}-1]}" \
		'{printf "%-8s %12.2f %12.2f %12.2f %12.2f\n", l "/" f, $5/$1, $6/$2, $8/$4, $7/$3}'
fi
printf 'load average: %s\n' "$(cut -d' ' -f1-3 /proc/loadavg)"
