#!/usr/bin/env bash
# Whole-process benchmark of the context pack without a daemon (issue 15):
# `cairn context` and `cairn hook session-start` (a startup payload on
# stdin, as the end-to-end tests send it), warm and cold, against the
# process floor `cairn version`, on a memory made once and reused:
#
#   go run ./bench/scale -generate 100000 DIR     (once; 2-4 minutes)
#   bench/context.sh DIR
#
# Cold: the first run after a checkpoint that appended a line to a
# session's log and added a core item (what bench/scale's cold row does):
# the pack's inputs changed, so its cache (.state/packcache.bin) is made
# again. Warm: the same command again. The memory's cairn.yaml gets
# daemon.autostart: false, so that no daemon starts. With
# CAIRN_BASELINE=/path/to/cairn another binary is timed in alternation
# (rows "base"), each binary with its own pack caches (.state/readings.bin
# packcache*.bin and titles.bin are keyed by the binary: taking turns on one set, each
# would find only the other's and read every core title again, as neither
# does alone). Prints medians of RUNS (default 7) wall times in ms, with
# the CPU time (user+sys) of the same runs, and the load average.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${RUNS:-7}
p=${1:?usage: bench/context.sh DIR (made by go run ./bench/scale -generate N DIR)}
p=$(cd "$p" && pwd)
d=$p/.cairn
[ -d "$d" ] || { echo "context.sh: no memory in $p" >&2; exit 1; }

work=$(mktemp -d "${TMPDIR:-/tmp}/cairn-context-bench.XXXXXX")
trap 'rm -rf "$work"' EXIT
go build -o "$work/cairn" ./cmd/cairn
export GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null
export CAIRN_AUTHOR_NAME=bench CAIRN_AUTHOR_EMAIL=bench@example.com
unset CAIRN_DIR CLAUDE_PROJECT_DIR
bins=(new)
if [ -n "${CAIRN_BASELINE:-}" ]; then
	cp "$CAIRN_BASELINE" "$work/cairn-base"
	bins=(base new)
fi
bin() { if [ "$1" = base ]; then echo "$work/cairn-base"; else echo "$work/cairn"; fi; }
if ! grep -q '^daemon:' "$d/cairn.yaml"; then
	printf 'daemon:\n  autostart: false\n' >>"$d/cairn.yaml"
	"$work/cairn" -C "$p" checkpoint -m "bench: no daemon" >/dev/null
fi
payload='{"session_id":"5e1d2c3b-0000-4000-a000-00000000bec0","hook_event_name":"SessionStart","source":"startup"}'

# run OUT CMD...: one timed run, "wall_ms cpu_ms" appended to OUT.
run() {
	local out=$1
	shift
	/usr/bin/time -f '%e %U %S' -o "$work/t" "$@" <"$work/payload" >/dev/null 2>"$work/err" || { cat "$work/err" >&2; return 1; }
	awk '{printf "%d %d\n", $1*1000, ($2+$3)*1000}' "$work/t" >>"$out"
}
printf '%s\n' "$payload" >"$work/payload"
# shellcheck source=bench/lib.sh
. bench/lib.sh
report() { # report NAME BIN FILE
	printf '%-40s %-5s %8s %8s\n' "$1" "$2" "$(cut -d' ' -f1 "$3" | median)" "$(cut -d' ' -f2 "$3" | median)"
}
# change I: a line in a session's log and a new core item, checkpointed.
change() {
	local f
	f=$(find "$d/sessions" -name observations.md | sort | sed -n "$(($1 % 200 + 1))p")
	echo "- observation $1: ran go test ./... (exit 0)" >>"$f"
	printf -- '---\nkind: decision\ntitle: bench %d\n---\nbody\n' "$1" >"$d/core/decisions/bench-$1--01JDXK3V9M2Q7Y8Z4T6R5W$(printf %04d "$(($1 % 10000))").md"
	"$work/cairn" -C "$p" checkpoint -m bench >/dev/null
}

# caches B: the binary's own pack caches put in place of the last one's.
caches() {
	local f
	if [ -n "${last:-}" ]; then
		mkdir -p "$work/state-$last"
		for f in readings.bin packcache.bin packcache-todo.bin packcache-trace.bin titles.bin; do
			if [ -e "$d/.state/$f" ]; then mv "$d/.state/$f" "$work/state-$last/"; fi
		done
	fi
	if [ -d "$work/state-$1" ]; then
		for f in "$work/state-$1"/*; do
			if [ -e "$f" ]; then mv "$f" "$d/.state/"; fi
		done
	fi
	last=$1
}
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
for b in "${bins[@]}"; do caches "$b" && (cd "$p" && "$(bin "$b")" context >/dev/null); done
printf '%-40s %-5s %8s %8s\n' row bin "wall ms" "cpu ms"
k=$(date +%s) # each change its own item and session line, whatever the binary
for b in "${bins[@]}"; do
	for r in version ctx-warm ctx-cold start-warm start-cold; do : >"$work/$b-$r"; done
done
# The binaries take turns run by run, so that a change in the machine's
# load falls on both.
for _ in $(seq "$runs"); do
	for b in "${bins[@]}"; do
		c=$(bin "$b")
		caches "$b"
		cd "$p"
		run "$work/$b-version" "$c" version
		k=$((k + 1))
		change "$k"
		run "$work/$b-ctx-cold" "$c" context
		run "$work/$b-ctx-warm" "$c" context
		k=$((k + 1))
		change "$k"
		run "$work/$b-start-cold" "$c" hook session-start
		run "$work/$b-start-warm" "$c" hook session-start
		cd - >/dev/null
	done
done
for b in "${bins[@]}"; do
	report "cairn version (the floor)" "$b" "$work/$b-version"
	report "cairn context, cold" "$b" "$work/$b-ctx-cold"
	report "cairn context, warm" "$b" "$work/$b-ctx-warm"
	report "cairn hook session-start, cold" "$b" "$work/$b-start-cold"
	report "cairn hook session-start, warm" "$b" "$work/$b-start-warm"
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
