#!/bin/sh
# cairn's Claude Code plugin runs cairn through this script: the plugin
# brings the wiring (hooks, MCP server), the cairn binary does the work.
#
# cairn is looked for on PATH, then where go install and the release
# archives put it (an agent started from a desktop may have a shorter
# PATH than a terminal). Without it, one line on stderr says how to
# install it, and the script exits 0: a hook must never get in the
# agent's way. A session start also says it to the user (systemMessage).
# Capture only copies the hook's payload into the memory's inbox: the
# memory's own capture script (written there from the cairn binary at
# each session start, as for cairn init --claude) does it in a few
# process starts, and needs no cairn binary; cairn hook capture does the
# same in one Go process where there is no such script.
# A project without a memory (the plugin is on in every project) has
# nothing to capture: no process is started for it.
if [ "${1:-}" = hook ] && [ "${2:-}" = capture ] && [ -z "${CAIRN_DIR:-}" ]; then
	mem=${CLAUDE_PROJECT_DIR:-.}/.cairn
	[ -f "$mem/hooks/capture.sh" ] && exec sh "$mem/hooks/capture.sh"
	if [ ! -d "$mem" ]; then
		cat >/dev/null 2>&1
		exit 0
	fi
fi

for c in "$(command -v cairn 2>/dev/null)" "${GOBIN:-}/cairn" "${GOPATH:-$HOME/go}/bin/cairn" \
	"$HOME/go/bin/cairn" "$HOME/.local/bin/cairn" /usr/local/bin/cairn /opt/homebrew/bin/cairn; do
	case $c in
	/*) [ -x "$c" ] && [ ! -d "$c" ] && exec "$c" "$@" ;;
	esac
done

msg='cairn: the cairn binary is not installed, so the cairn plugin does nothing; install it with: go install github.com/cairn-mem/cairn/cmd/cairn@latest (or a release binary from https://github.com/cairn-mem/cairn/releases, on PATH)'
echo "$msg" >&2
if [ "${1:-}" = hook ]; then
	# Claude Code writes the payload on stdin: take it all.
	cat >/dev/null 2>&1
	[ "${2:-}" = session-start ] && printf '{"systemMessage":"%s"}\n' "$msg"
fi
exit 0
