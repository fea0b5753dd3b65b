package change

import (
	"strings"

	"github.com/cairn-mem/cairn/internal/lazyre"
)

// levelFlag is a short option that gives a level or a count: -O3, -Oz,
// -j8. Its family is the dash and the letter; a lower-case letter counts
// only with a digit after it (-rf, -it are switches, not levels).
var levelFlag = lazyre.New(`(?:^|[\s"'` + "`" + `\[(=,])-([A-Z][A-Za-z0-9]{1,2}|[a-z][0-9]{1,2})(?:$|[\s"'` + "`" + `\]),;.])`)

// Flags are the level flags s gives, by family ("-O" → "-O3"); a family
// s gives two of ("-O0 for debug, -O2 for release") is none.
func Flags(s string) map[string]string {
	if !strings.Contains(s, "-") {
		return nil
	}
	var out map[string]string
	twice := map[string]bool{}
	for _, m := range levelFlag.FindAllStringSubmatch(s, -1) {
		fam, f := "-"+m[1][:1], "-"+m[1]
		if prev, ok := out[fam]; ok && prev != f {
			twice[fam] = true
		}
		if out == nil {
			out = map[string]string{}
		}
		out[fam] = f
	}
	for fam := range twice {
		delete(out, fam)
	}
	return out
}

// OtherFlag reports whether flags n give a family of flags x another
// level: -O3 where x has -Oz.
func OtherFlag(x, n map[string]string) bool {
	for fam, f := range x {
		if g, ok := n[fam]; ok && g != f {
			return true
		}
	}
	return false
}
