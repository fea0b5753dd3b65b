#!/bin/sh
# cairn capture hook for Claude Code (installed by `cairn init --claude`).
#
# It copies the hook's JSON from stdin into the memory's inbox and exits 0:
# no cairn binary, daemon or network is needed, and nothing is printed on
# stdout. The cairn daemon (or, without one, the next SessionStart) ingests
# the file. The memory is CAIRN_DIR, else the nearest .cairn at or above
# CLAUDE_PROJECT_DIR (or the current folder). Without one it does nothing.
#
# The payload is written in place as hook-<n>-<pid>.json, where n is a
# 19-digit sequence number kept in .state/hook-seq and seeded from the
# clock (the queue orders payloads by modification time; the name is
# unique and breaks ties). The queue takes such a file once it holds a
# whole JSON document, which no part of one is; one still cut short after
# a minute goes to its failed jobs with the reason.
#
# Every program counts (hooks run at each tool call): on the common path
# this script starts one, cat; the rest are shell builtins. date runs only
# when the sequence is missing or unreadable. A temporary name and mv, as
# before, cost a second program: 4-5 ms of every hook.

# Payloads hold prompts and tool output before redaction: only this user
# may read them.
umask 077

find_memory() {
	if [ -n "${CAIRN_DIR:-}" ]; then
		if [ -d "$CAIRN_DIR/.git" ]; then
			mem=$CAIRN_DIR
			return 0
		fi
		if [ -d "$CAIRN_DIR/.cairn/.git" ]; then
			mem=$CAIRN_DIR/.cairn
			return 0
		fi
		return 1
	fi
	d=${CLAUDE_PROJECT_DIR:-$PWD}
	while :; do
		if [ -d "$d/.cairn/.git" ]; then
			mem=$d/.cairn
			return 0
		fi
		case $d in
		/ | '') return 1 ;;
		*/*)
			d=${d%/*}
			[ -n "$d" ] || d=/
			;;
		*) return 1 ;;
		esac
	done
}

if ! find_memory; then
	cat >/dev/null 2>&1
	exit 0
fi

inbox=$mem/inbox
if [ ! -d "$inbox" ] && ! mkdir -p "$inbox" 2>/dev/null; then
	cat >/dev/null 2>&1
	echo "cairn: cannot create $inbox; this hook's event is not captured" >&2
	exit 0
fi

# n: the last one plus one, read and written with builtins. Two hooks at
# once may take the same n; their pids tell their names apart. One that
# starts with a 9 could pass 2^63-1 and wrap negative: the clock again.
seq=$mem/.state/hook-seq
n=
read -r n 2>/dev/null <"$seq"
case $n in
[1-8][0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9]) n=$((n + 1)) ;;
*)
	n=$(date +%s%N 2>/dev/null)
	case $n in
	*[!0-9]* | '') n=$(date +%s)000000000 ;; # no %N (BSD, busybox)
	esac
	;;
esac
# <> writes over the 20 bytes in place. Truncating and rewriting the file
# made the hook slower than with date on a busy disk (ext4's auto_da_alloc
# starts writing back a file replaced by truncation when it is closed).
[ ! -d "$mem/.state" ] || printf '%s\n' "$n" 2>/dev/null 1<>"$seq"
f=$inbox/hook-$n-$$.json

# Not exec: a failed write must still end in exit 0 and a line on stderr
# (an exit status of 2 would block the agent), and the file it cut short
# goes.
if cat >"$f" 2>/dev/null; then
	[ -s "$f" ] || rm -f "$f" # nothing on stdin: nothing to capture
	exit 0
fi
rm -f "$f" 2>/dev/null
echo "cairn: could not write this hook's event to $inbox (disk full or read-only?); it is not captured. Run cairn doctor." >&2
exit 0
