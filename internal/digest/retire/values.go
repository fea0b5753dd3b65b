package retire

import (
	"github.com/cairn-mem/cairn/internal/digest/lex"
	"github.com/cairn-mem/cairn/internal/lazyre"
)

// otherBare reports whether newer statement n sets a quantity noun of
// x's that names no setting on its own ("the pool", prose.BareSettings)
// to another value: "set the pool to 20" once "drop the pool to 15". A
// project has many timeouts and ports but one pool: the noun must be
// rare in the memory, and n must say it sets the value.
func (r *Retirer) otherBare(xBare map[string]string, n *Statement) bool {
	if n.change == nil && !n.saysNow() && !setTo.MatchString(n.Text) {
		return false
	}
	for noun, v := range n.bare {
		if w, ok := xBare[noun]; ok && w != v {
			if k := lex.Key(noun); r.df[k] > 0 && r.df[k] <= r.asideLimit() {
				return true
			}
		}
	}
	return false
}

// setTo is a quantity set by a verb: "drop the pool to 15", "raise the
// limit to 100".
var setTo = lazyre.New(`(?i)\b(?:set|drop|raise|lower|cut|bump|increase|decrease|reduce|change|make|take|go)\b[^.;]{0,40}\bto\s+\d`)
