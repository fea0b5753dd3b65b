#!/usr/bin/env bash
# FUSE view benchmark: warm `grep -r` and `find` on a mounted memory
# against the same on the native checkout, in the same run; `ls -l` of a
# checkpoint folder with 1,000 entries; the time `cairn mount` takes.
#
#   bench/fuse.sh [FILES]     (default: 100000)
#
# Needs FUSE (root, or fusermount3 from Debian's fuse3). Prints medians of
# RUNS timed runs (default 7) after one untimed warm-up run each.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${RUNS:-7}
n=${1:-100000}

work=$(mktemp -d "${TMPDIR:-/tmp}/cairn-fuse.XXXXXX")
mnt="$work/mnt"
cleanup() {
	"$work/cairn" umount "$mnt" >/dev/null 2>&1 || true
	rm -rf "$work"
}
trap cleanup EXIT
go build -o "$work/cairn" ./cmd/cairn
export GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null
export GIT_AUTHOR_NAME=bench GIT_AUTHOR_EMAIL=bench@example.com
export GIT_COMMITTER_NAME=bench GIT_COMMITTER_EMAIL=bench@example.com
unset CAIRN_DIR

# shellcheck source=bench/lib.sh
. bench/lib.sh

# pair_ms DIR_A DIR_B CMD...: runs CMD in DIR_A and in DIR_B by turns, RUNS
# times each after a warm-up of each, and prints both medians in ms. By
# turns, because the machine is shared and its load drifts.
pair_ms() {
	local a=$1 b=$2 i t0 t1
	shift 2
	(cd "$a" && "$@" >/dev/null 2>&1) || true
	(cd "$b" && "$@" >/dev/null 2>&1) || true
	: >"$work/pa"
	: >"$work/pb"
	for i in $(seq 1 "$runs"); do
		t0=$(now); (cd "$a" && "$@" >/dev/null 2>&1) || true; t1=$(now)
		echo $(((t1 - t0) / 1000)) >>"$work/pa"
		t0=$(now); (cd "$b" && "$@" >/dev/null 2>&1) || true; t1=$(now)
		echo $(((t1 - t0) / 1000)) >>"$work/pb"
	done
	echo "$(median <"$work/pa" | awk '{printf "%.1f", $1/1000}') $(median <"$work/pb" | awk '{printf "%.1f", $1/1000}')"
}

# time_ms CMD...: median wall time in ms of RUNS runs after a warm-up.
time_ms() {
	"$@" >/dev/null 2>&1 || true
	local i t0 t1
	for i in $(seq 1 "$runs"); do
		t0=$(now)
		"$@" >/dev/null 2>&1 || true
		t1=$(now)
		echo $(((t1 - t0) / 1000))
	done | median | awk '{printf "%.1f", $1/1000}'
}

go run ./bench/gen -files "$n" "$work/p" >/dev/null
mem="$work/p/.cairn"
mkdir "$mnt"

# Mount time: from starting cairn mount --background to a usable view.
: >"$work/tm"
for i in $(seq 1 "$runs"); do
	t0=$(now)
	"$work/cairn" -C "$work/p" mount --background "$mnt" 2>/dev/null
	ls "$mnt/core" >/dev/null
	t1=$(now)
	echo $(((t1 - t0) / 1000)) >>"$work/tm"
	[ "$i" = "$runs" ] || "$work/cairn" umount "$mnt"
done
mount_ms=$(median <"$work/tm" | awk '{printf "%.1f", $1/1000}')

# The first ls -l of a 1,000-entry folder of a checkpoint, against the same
# folder on disk (the time to start ls is in both), then warm.
# The glob sorts as ls did and does not read the folder itself, which stays cold.
cores=("$mnt"/checkpoints/latest/core/*)
big=${cores[0]}
native_big="$mem/core/$(basename "$big")"
ls -l "$native_big" >/dev/null
t0=$(now); ls -l "$native_big" >/dev/null; t1=$(now)
ls_native=$(awk -v t=$(((t1 - t0) / 1000)) 'BEGIN {printf "%.1f", t/1000}')
t0=$(now); ls -l "$big" >/dev/null; t1=$(now)
ls_cold=$(awk -v t=$(((t1 - t0) / 1000)) 'BEGIN {printf "%.1f", t/1000}')
# Entries ls would list: all but dotfiles.
entries=$(find "$big" -mindepth 1 -maxdepth 1 ! -name '.*' | wc -l)
read -r ls_native_warm ls_warm < <(pair_ms "$native_big" "$big" ls -l .)

dirs=(core sessions archive)
hist="$mnt/checkpoints/$(readlink "$mnt/checkpoints/latest")"
read -r grep_native grep_fuse < <(pair_ms "$mem" "$mnt" grep -r -c postgres "${dirs[@]}")
read -r grep_native2 grep_hist < <(pair_ms "$mem" "$hist" grep -r -c postgres "${dirs[@]}")
read -r find_native find_fuse < <(pair_ms "$mem" "$mnt" find "${dirs[@]}")
read -r findl_native findl_fuse < <(pair_ms "$mem" "$mnt" find "${dirs[@]}" -ls)

[ "$(cd "$mem" && grep -r -c postgres "${dirs[@]}" | sort | md5sum)" = "$(cd "$mnt" && grep -r -c postgres "${dirs[@]}" | sort | md5sum)" ] ||
	{ echo "fuse.sh: grep -r differs between the mount and the checkout" >&2; exit 1; }

files=$(cd "$mem" && find "${dirs[@]}" -type f | wc -l)
echo "memory: $files files; checkpoint folder of $entries entries; medians of $runs warm runs"
printf '%-34s %10s %10s %8s\n' "" "native ms" "fuse ms" "ratio"
row() { awk -v l="$1" -v a="$2" -v b="$3" 'BEGIN {printf "%-34s %10.1f %10.1f %8.2f\n", l, a, b, b/a}'; }
row "grep -r (live tree)" "$grep_native" "$grep_fuse"
row "grep -r (a checkpoint folder)" "$grep_native2" "$grep_hist"
row "find" "$find_native" "$find_fuse"
row "find -ls (stat of every file)" "$findl_native" "$findl_fuse"
row "ls -l of $entries entries, first" "$ls_native" "$ls_cold"
row "ls -l of $entries entries, warm" "$ls_native_warm" "$ls_warm"
printf '%-34s %10s %10s\n' "cairn mount --background" "" "$mount_ms"
