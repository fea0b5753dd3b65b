#!/usr/bin/env bash
# Sync benchmark: `cairn sync` against `git pull --no-rebase && git push`
# on identical clones of a generated memory, through a git daemon on
# loopback, in the same run.
#
#   bench/sync.sh [FILES] [NEW]     (default: 10000 1000)
#
# Each round adds NEW items on machine A and NEW other items on machine B
# (committed beforehand, not timed), then times: A syncs (pushes its
# items), B syncs (fetches A's, merges, pushes the merge), A syncs again
# (fetches B's, fast-forwards). The git pair does the same with
# `git pull --no-rebase && git push`. Prints the median of RUNS rounds
# (default 3) per step and in total, and the ratio. PROFILE=PREFIX writes a
# CPU profile of each cairn sync to PREFIX.ROUND.STEP.
set -euo pipefail
cd "$(dirname "$0")/.."
files=${1:-10000}
new=${2:-1000}
runs=${RUNS:-3}

work=$(mktemp -d "${TMPDIR:-/tmp}/cairn-sync-bench.XXXXXX")
cleanup() {
	if [ -f "$work/daemon.pid" ]; then
		kill "$(cat "$work/daemon.pid")" 2>/dev/null || true
	fi
	rm -rf "$work"
}
trap cleanup EXIT
go build -o "$work/cairn" ./cmd/cairn
export GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null
export GIT_CONFIG_COUNT=2 GIT_CONFIG_KEY_0=gc.auto GIT_CONFIG_VALUE_0=0 GIT_CONFIG_KEY_1=maintenance.auto GIT_CONFIG_VALUE_1=false
export GIT_AUTHOR_NAME=bench GIT_AUTHOR_EMAIL=bench@example.com
export GIT_COMMITTER_NAME=bench GIT_COMMITTER_EMAIL=bench@example.com
export CAIRN_AUTHOR_NAME=bench CAIRN_AUTHOR_EMAIL=bench@example.com
unset CAIRN_DIR

# shellcheck source=bench/lib.sh
. bench/lib.sh

go run ./bench/gen -files "$files" "$work/base" >/dev/null
mkdir -p "$work/srv"
git clone -q --bare "$work/base/.cairn" "$work/srv/cairn.git"
git clone -q --bare "$work/base/.cairn" "$work/srv/git.git"
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
git daemon --export-all --enable=receive-pack --reuseaddr --listen=127.0.0.1 --port="$port" \
	--base-path="$work/srv" --detach --pid-file="$work/daemon.pid" "$work/srv"
for _ in $(seq 50); do git ls-remote "git://127.0.0.1:$port/cairn.git" >/dev/null 2>&1 && break; sleep 0.1; done
for m in a b; do
	mkdir -p "$work/c$m" "$work/g$m"
	git clone -q "git://127.0.0.1:$port/cairn.git" "$work/c$m/.cairn"
	git clone -q "git://127.0.0.1:$port/git.git" "$work/g$m/.cairn"
	"$work/cairn" -C "$work/c$m" status >/dev/null # builds the stat cache, as the first command after a clone does
done

# items DIR MACHINE ROUND: NEW item files, the same for cairn's and git's
# copy (one awk, not a process per file).
items() {
	local d=$1/.cairn/core/facts
	mkdir -p "$d"
	awk -v d="$d" -v m="$2" -v r="$3" -v n="$new" 'BEGIN {
		M = (m == "a") ? "A" : "B"
		for (i = 1; i <= n; i++) {
			id = sprintf("01K%s%s%05d", M, r, i); while (length(id) < 26) id = id "0"
			f = sprintf("%s/%s-round-%s-fact-%05d--%s.md", d, m, r, i, id)
			printf "---\nid: %s\nkind: fact\ntitle: %s round %s fact %d\n---\nFact %d of round %s, written on machine %s.\n", id, m, r, i, i, r, m > f
			close(f)
		}
	}'
}

: >"$work/t"
for r in $(seq 1 "$runs"); do
	for m in a b; do
		items "$work/c$m" "$m" "$r"; items "$work/g$m" "$m" "$r"
		"$work/cairn" -C "$work/c$m" checkpoint -m "round $r on $m" >/dev/null
		git -C "$work/g$m/.cairn" add -A; git -C "$work/g$m/.cairn" commit -qm "round $r on $m"
	done
	sync
	row=""
	for step in a b a; do
		[ -z "${PROFILE:-}" ] || export CAIRN_CPUPROFILE="$PROFILE.$r.$step$((${#row} / 8))"
		t0=$(now); "$work/cairn" -C "$work/c$step" sync >/dev/null; t1=$(now)
		unset CAIRN_CPUPROFILE
		ct=$(( (t1 - t0) / 1000 ))
		t0=$(now); git -C "$work/g$step/.cairn" pull -q --no-rebase --no-edit && git -C "$work/g$step/.cairn" push -q; t1=$(now)
		gt=$(( (t1 - t0) / 1000 ))
		row="$row $ct $gt"
	done
	echo "$row" >>"$work/t"
done

for m in a b; do
	[ -z "$(git -C "$work/c$m/.cairn" status --porcelain)" ] || { echo "sync.sh: git status not clean in c$m" >&2; exit 1; }
	git -C "$work/c$m/.cairn" fsck --no-dangling >/dev/null 2>&1 || { echo "sync.sh: git fsck failed in c$m" >&2; exit 1; }
done
[ "$(git -C "$work/ca/.cairn" rev-parse 'HEAD^{tree}')" = "$(git -C "$work/cb/.cairn" rev-parse 'HEAD^{tree}')" ] ||
	{ echo "sync.sh: cairn clones differ" >&2; exit 1; }
[ "$(git -C "$work/ca/.cairn" rev-parse 'HEAD^{tree}')" = "$(git -C "$work/ga/.cairn" rev-parse 'HEAD^{tree}')" ] ||
	{ echo "sync.sh: cairn and git ended with different trees" >&2; exit 1; }

col() { awk -v c="$1" '{print $c}' "$work/t" | median; }
printf '%d files, %d new items each way, median of %d rounds (ms)\n' "$files" "$new" "$runs"
printf '%-30s %10s %10s %8s\n' step cairn git ratio
names=("A pushes its items" "B fetches, merges, pushes" "A fetches, fast-forwards")
tc=0 tg=0
for s in 0 1 2; do
	c=$(col $((2 * s + 1))) g=$(col $((2 * s + 2)))
	tc=$(awk -v a="$tc" -v b="$c" 'BEGIN{print a+b}') tg=$(awk -v a="$tg" -v b="$g" 'BEGIN{print a+b}')
	awk -v n="${names[$s]}" -v c="$c" -v g="$g" 'BEGIN {printf "%-30s %10.0f %10.0f %8.2f\n", n, c/1000, g/1000, c/g}'
done
awk -v c="$tc" -v g="$tg" 'BEGIN {printf "%-30s %10.0f %10.0f %8.2f\n", "total", c/1000, g/1000, c/g}'
