package edits

import (
	"slices"
	"strings"

	"github.com/cairn-mem/cairn/internal/lazyre"
	"github.com/cairn-mem/cairn/internal/prose"
)

// Values are the one-line replacements of a file's edits that give a
// value another one, each line's first value and its last.
type Values [][2]string

// Note notes the replacement of line rep[0] by rep[1] when it gives one
// value another: a setting changed, or a dependency swapped for another. A line replaced twice keeps its first
// value and its last; one put back as it was is dropped.
func (v *Values) Note(rep [2]string) {
	rep = [2]string{uncomment(rep[0]), uncomment(rep[1])}
	if !(strings.ContainsAny(rep[0], "0123456789") && OneValue(rep[0], rep[1]) || otherLiteral(rep[0], rep[1]) || swapped(rep[0], rep[1])) {
		return
	}
	for i, r := range *v {
		if r[1] == rep[0] {
			(*v)[i][1] = rep[1]
			if r[0] == rep[1] {
				*v = slices.Delete(*v, i, i+1) // put back as it was
			}
			return
		}
	}
	*v = append(*v, rep)
}

// uncomment is a line without its trailing comment: "update_rate: 1000
// # Hz, on core 3" gives "update_rate: 1000".
func uncomment(line string) string {
	if i := lineComment.FindStringIndex(line); i != nil {
		line = line[:i[0]]
	}
	return strings.TrimSpace(line)
}

var lineComment = lazyre.New(`\s(#|//|--)\s`)

// otherLiteral reports whether two lines set one key to two literals,
// the first a code value, not a word: "executor: 'ramping-vus'," and
// "executor: 'constant-arrival-rate',", "driver = overlay2" and "driver
// = zfs", a constant declared in code ("pub const default_filter:
// Filter = .lanczos3;" and "….mitchell;"). An expression ("handler =
// makeHandler(db)") is code, and a word ("name: api") may be anything.
func otherLiteral(a, b string) bool {
	ma, mb := literalSetting.FindStringSubmatch(a), literalSetting.FindStringSubmatch(b)
	return ma != nil && mb != nil && ma[1] == mb[1] && literal(ma) != literal(mb) && strings.ContainsAny(literal(ma), "-_./@+0123456789")
}

// literal is the value a literalSetting match holds, quoted or bare.
func literal(m []string) string { return m[2] + m[3] }

// literalSetting is a key set to one literal that is not only a number,
// quoted or bare (an enum's member may follow a dot: ".mitchell"), as the
// last thing on its line but for a comma. A key declared in code may open
// on its declaration ("pub const ", "export const ") and have its type
// before the value (": Filter ="); a word of a declaration may be the key
// itself ("static = assets/v1").
var literalSetting = lazyre.New(`^(?:(?:pub(?:\([\w ]+\))?|export|const|let|var|val|static|final|private|public|protected|internal|readonly|mut)\s+)*["']?([A-Za-z_][\w.-]{0,60})["']?(?:\s*:\s*[\w.]+\s*=|\s*[=:])\s*(?:["']([\w./@+-]*[A-Za-z][\w./@+-]*)["']|\.?([A-Za-z][\w./@+-]*))\s*[,;]?$`)

// OneValue reports whether two lines differ in one word alone, a number
// in the second.
func OneValue(a, b string) bool {
	w, ok := otherWord(a, b)
	return ok && strings.ContainsAny(w, "0123456789")
}

// otherWord is the one word b has in the place of another of a, when
// the two lines, of up to 8 words, differ in that word alone.
func otherWord(a, b string) (string, bool) {
	wa, wb := strings.Fields(a), strings.Fields(b)
	if len(wa) > 8 {
		return "", false
	}
	i := prose.OneDiffers(wa, wb)
	if i < 0 {
		return "", false
	}
	return wb[i], true
}
