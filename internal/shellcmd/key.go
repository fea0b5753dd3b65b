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
func Key(cmd string) string {
	k := strings.TrimSpace(cmd)
	if i := strings.IndexByte(k, '\n'); i >= 0 {
		k = k[:i]
	}
	k = leadingCd.ReplaceAllString(k, "")
	k = trailingPipe.ReplaceAllString(k, "")
	k = redirect.ReplaceAllString(k, "")
	k = spaces.ReplaceAllString(k, " ")
	return strings.TrimSpace(k)
}

// Family is a command's program and subcommand: "go test", "npm run",
// "cargo build", used to match a failure with a broader rerun.
func Family(key string) string {
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
