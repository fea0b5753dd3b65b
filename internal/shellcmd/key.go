package shellcmd

import (
	"strings"

	"github.com/cairn-mem/cairn/internal/lazyre"
)

var (
	// commandNoise is what changes a command's text but not what it runs:
	// output plumbing and a leading cd.
	leadingCd    = lazyre.New(`^cd\s+\S+\s*(&&|;)\s*`)
	trailingPipe = lazyre.New(`\s*(2>&1|\|\s*(tail|head|grep|less|cat|tee)\b[^|]*)+\s*$`)
	redirect     = lazyre.New(`\s2>&1\b`)
	spaces       = lazyre.New(`\s+`)
)

// Key is a command without what does not change what it does, so
// that a run and its rerun match: "cd app && go test ./... 2>&1 | tail -20"
// and "go test ./..." have the same key.
//
// Of a command of several lines the key is the first, and the steps of
// the others that change files in place, after "… &&": what a
// script's later lines changed ("cat > worker/heartbeat.py <<'PY' && … &&
// sed -i 's/VISIBILITY_TIMEOUT = 900/VISIBILITY_TIMEOUT = 1800/'
// worker/config.py") is what its summary must keep.
func Key(cmd string) string {
	k, rest, _ := strings.Cut(strings.TrimSpace(cmd), "\n")
	k = leadingCd.ReplaceAllString(k, "")
	k = trailingPipe.ReplaceAllString(k, "")
	k = redirect.ReplaceAllString(k, "")
	k = strings.TrimSpace(spaces.ReplaceAllString(k, " "))
	return withEdits(k, rest)
}

// OneLine is a command of several lines that change files after its
// first said in one: its first line, and those lines' steps that change
// files in place after "… &&", as Key says them. Any other command is
// itself.
func OneLine(cmd string) string {
	first, rest, multi := strings.Cut(strings.TrimSpace(cmd), "\n")
	if !multi {
		return cmd
	}
	if one := withEdits(strings.TrimSpace(first), rest); one != strings.TrimSpace(first) {
		return one
	}
	return cmd
}

// withEdits is first, and after "… &&" the steps of rest's lines that
// change files in place.
func withEdits(first, rest string) string {
	if edits := laterEdits(first, rest); len(edits) > 0 {
		return first + " && … && " + strings.Join(edits, " && ")
	}
	return first
}

// laterEdits are the steps of lines (a command's after its first) that
// change files in place (Edits), the bodies of here-documents skipped:
// the first line may open one.
func laterEdits(first, lines string) []string {
	var out []string
	delim := ""
	if m := hereDoc.FindStringSubmatch(first); m != nil {
		delim = m[1]
	}
	for _, l := range strings.Split(lines, "\n") {
		l = strings.TrimSpace(l)
		if delim != "" {
			if l == delim {
				delim = ""
			}
			continue
		}
		if m := hereDoc.FindStringSubmatch(l); m != nil {
			delim = m[1]
		}
		for _, st := range Steps(l) {
			if Edits(st) {
				st = redirect.ReplaceAllString(trailingPipe.ReplaceAllString(st, ""), "")
				out = append(out, strings.TrimSpace(spaces.ReplaceAllString(st, " ")))
			}
		}
	}
	return out
}

// hereDoc is where a line opens a here-document, and its delimiter:
// "<<'PY'", "<<-EOF", "<< END"; not a here-string ("<<< bar").
var hereDoc = lazyre.New(`(?:^|[^<])<<-?\s*['"]?([A-Za-z_]\w*)['"]?`)

// Family is a command's program and subcommand: "go test", "npm run",
// "cargo build", used to match a failure with a broader rerun. A line of
// several steps is of the first that does more than look around.
func Family(key string) string {
	steps := Steps(key)
	for _, st := range steps {
		if !lookCmd.MatchString(st) || Edits(st) || writes.MatchString(st) {
			return family(st) // "cat README.md && npm test" runs npm test
		}
	}
	return family(steps[0])
}

// writes is a step that writes a file through a redirection: "cat >
// w.py <<'PY'" is no looking around.
var writes = lazyre.New(`^\S+\s+>`)

func family(key string) string {
	f := strings.Fields(key)
	for len(f) > 0 && strings.Contains(f[0], "=") {
		f = f[1:] // VAR=value before the program
	}
	if len(f) == 0 {
		return ""
	}
	if len(f) >= 2 && !strings.HasPrefix(f[1], "-") && !strings.ContainsAny(f[1], "./") {
		if f[0] == "npm" || f[0] == "pnpm" || f[0] == "yarn" {
			if f[1] == "run" && len(f) >= 3 {
				return f[0] + " run " + f[2]
			}
		}
		return f[0] + " " + f[1]
	}
	return f[0]
}
