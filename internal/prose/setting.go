package prose

import (
	"regexp"
	"strings"
)

// settingRE is a named setting given a value: a key spelled as code
// (with "-", "_" or "." inside: requires-python, max_conns,
// server.port), then an operator or "to"/"is"/"at", then a number or
// version ("requires-python >=3.9", "bump max_conns to 50").
var settingRE = regexp.MustCompile(`(?i)\b([a-z][a-z0-9]*(?:[_.-][a-z0-9]+)+)` + "`?" + `\s*(?:=|:|\bto\b|\bis\b|\bat\b|\bof\b|\bfrom \S+ to\b)?(?:\s+now)?\s*["'` + "`" + `]?\s*(?:>=|<=|~=|==|~>|\^|>|<)?\s*v?(\d+(?:\.\d+)*)\b`)

// Settings are the named settings a statement gives a value, key →
// value (the last one when it names a key twice, as in "from 3.9 to
// 3.11"). Keys are lower-case.
func Settings(text string) map[string]string {
	out := map[string]string{}
	for _, m := range settingRE.FindAllStringSubmatch(text, -1) {
		k := strings.ToLower(m[1])
		if versionNum.MatchString(k) || strings.Count(k, ".") > 0 && pathRE.MatchString(" "+k) {
			continue // a version or a file name, not a key
		}
		out[k] = m[2]
	}
	return out
}
