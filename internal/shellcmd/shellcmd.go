package shellcmd

import (
	"iter"
	"slices"
	"strings"

	"github.com/cairn-mem/cairn/internal/lazyre"
)

// Steps are the steps of command line cmd, split at &&, || and ; outside
// quotes, each with its spaces trimmed.
func Steps(cmd string) []string {
	var out []string
	start := 0
	for i := range unquoted(cmd) {
		if i < start {
			continue // the second & of &&
		}
		if c := cmd[i]; c == ';' || (c == '&' || c == '|') && i+1 < len(cmd) && cmd[i+1] == c {
			out = append(out, strings.TrimSpace(cmd[start:i]))
			start = i + 1
			if c != ';' {
				start++
			}
		}
	}
	return append(out, strings.TrimSpace(cmd[start:]))
}

// unquoted yields the offsets of s's bytes outside quotes that no
// backslash escapes, in order.
func unquoted(s string) iter.Seq[int] {
	return func(yield func(int) bool) {
		var quote byte
		for i := 0; i < len(s); i++ {
			switch c := s[i]; {
			case quote != 0:
				if c == quote {
					quote = 0
				} else if c == '\\' && quote == '"' {
					i++
				}
			case c == '\'' || c == '"':
				quote = c
			case c == '\\':
				i++
			default:
				if !yield(i) {
					return
				}
			}
		}
	}
}

// Edits reports whether step changes files in place or moves or deletes
// them: sed -i (also -Ei, -ri, -E -i, --in-place), perl -pi, mv, rm, git
// mv, git rm.
func Edits(step string) bool {
	f := strings.Fields(step)
	if len(f) > 1 && f[0] == "git" {
		f = f[1:]
	}
	if len(f) < 2 {
		return false
	}
	switch f[0] {
	case "mv", "rm":
		return true
	case "sed", "perl":
		for _, a := range f[1:] {
			if a == "--in-place" || strings.HasPrefix(a, "--in-place=") {
				return true
			}
			if o, ok := strings.CutPrefix(a, "-"); ok && !strings.HasPrefix(o, "-") && (o != "" && strings.Trim(strings.ToLower(o), "abcdefghijklmnopqrstuvwxyz") == "" && strings.Contains(o, "i") || strings.HasPrefix(o, "i")) {
				return true // -i, -Ei, -ri, -pi; also after the script (sed -e '…' -i)
			}
		}
	}
	return false
}

// Shows reports whether step only shows a file or folder: after an
// edit, what the edit left ("sed -i '/Esc drops/d' TODO.md && cat
// TODO.md").
func Shows(step string) bool { return showStep.MatchString(strings.TrimSpace(step)) }

var showStep = lazyre.New(`^(?:cat|ls|grep|head|tail|wc|stat|diff|git diff|git status)(?:\s|$)`)

// Elide shortens command line cmd toward n bytes (a bound in runes, as
// a caller may give, is at least as long) by putting "…" for the
// steps after the first that edit nothing, while an edit ends after
// byte n: "rm -f netlify.toml && … && sed -i 's/a/b/' k8s/pod.yaml". It
// returns cmd unchanged when it is short enough, when no edit would be
// cut, or when eliding saves nothing. The steps kept are joined by "&&"
// whatever joined them: the line says what ran, not how it chained.
func Elide(cmd string, n int) string {
	if len(cmd) <= n {
		return cmd
	}
	steps := Steps(cmd)
	late := false
	for i, off := 0, 0; i < len(steps); i++ {
		if off+len(steps[i]) > n-len("…") && Edits(steps[i]) {
			late = true
		}
		off += len(steps[i]) + len(" && ")
	}
	if !late {
		return cmd
	}
	var kept []string
	for i, s := range steps {
		switch {
		case i == 0 || Edits(s):
			kept = append(kept, s)
		case len(kept) == 0 || kept[len(kept)-1] != "…":
			kept = append(kept, "…")
		}
	}
	if out := strings.Join(kept, " && "); len(out) < len(cmd) {
		return out
	}
	return cmd
}

// Elided reports whether cmd is a command line Elide shortened: one of
// its steps is "…".
func Elided(cmd string) bool {
	return strings.Contains(cmd, "…") && slices.Contains(Steps(cmd), "…")
}
