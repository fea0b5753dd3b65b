package reason

import (
	"strings"

	"github.com/cairn-mem/cairn/internal/lazyre"
	"github.com/cairn-mem/cairn/internal/prose"
	"github.com/cairn-mem/cairn/internal/summarize/choice"
	"github.com/cairn-mem/cairn/internal/summarize/cue"
	"github.com/cairn-mem/cairn/internal/summarize/telling"
)

// Split splits a statement into what it says and why: at the first
// reason cue in it, or else into itself and the next sentence when that
// one gives the reason.
func Split(s, next string) (what, why string) {
	// "Since every migration has a down file, you can go ahead and run
	// …": the reason comes first, what holds after it.
	if m := cue.ReasonFirst.FindStringSubmatchIndex(s); m != nil && prose.IsClause(s[m[1]:]) {
		return prose.Capitalize(strings.TrimRight(s[m[1]:], ".")), prose.Capitalize(strings.TrimSpace(s[m[2]:m[3]]))
	}
	// "The stops were one transfer overrunning the buffer, so printReceipt
	// now sends 64-byte chunks": what was done follows "so", after its
	// reason.
	if i := cue.SoThen.FindStringIndex(s); i != nil && i[0] > 8 && (choice.NowState(s[i[1]:]) && !choice.NowState(s[:i[0]]) && telling.ToldPast.MatchString(s[:i[0]]) || cue.WeDecide.MatchString(s[i[1]:]) && !cue.WeDecide.MatchString(s)) {
		// "Ops doesn't want to be paged, so we're going with Temporal
		// Cloud": the choice follows "so" too.
		return prose.Capitalize(strings.TrimRight(s[i[1]:], ".")), prose.Capitalize(strings.TrimSpace(s[:i[0]]))
	}
	if i := telling.ReasonAt(s); i >= 0 {
		i = subjectStart(s, i)
		return strings.TrimRight(strings.TrimSpace(s[:i]), ",;:—- "), strings.TrimSpace(s[i:])
	}
	// A next sentence that raises a problem or states values of its own
	// ("Both targets run with 4 threads; …, so the change goes live
	// with the next deploy"), or gives a reason for what it says itself
	// ("Because the record is noupdate, I'll also change …"), gives its
	// own reason, not this one's.
	if next != "" && len(next) < 300 && !strings.HasSuffix(next, "?") && !cue.Flagged.MatchString(next) && !cue.ReasonFirst.MatchString(next) &&
		(cue.ReasonStart.MatchString(next) || prose.ReasonAt(next) != nil && !cue.DecisionCue.MatchString(next) && !prose.HasValue(next) || aboutAlternative(s, next)) {
		if m := cue.ReasonIs.FindStringIndex(next); m != nil && m[1] < len(next) {
			next = prose.Capitalize(next[m[1]:]) // "— The reason is that …" says "reason" twice
		}
		return strings.TrimRight(s, "."), next
	}
	return strings.TrimRight(s, "."), ""
}

// subjectStart is where the reason that starts at i in s starts with
// its subject: a reason said of something ("…, a fixed window: the
// database is already there") opens on that something, not on "is",
// when a clause boundary comes a few words before the cue.
func subjectStart(s string, i int) int {
	if !predicate.MatchString(s[i:]) {
		return i
	}
	b := max(strings.LastIndex(s[:i], ": "), strings.LastIndex(s[:i], "; "), strings.LastIndex(s[:i], ", "), strings.LastIndex(s[:i], " — "))
	if b < 8 || len(strings.Fields(s[b:i])) > 6 {
		return i
	}
	return b + strings.Index(s[b:], " ") + 1
}

// predicate opens a reason said as what something is: "is already
// there", "'s simpler".
var predicate = lazyre.New(`^(?:is|are|was|were|'s)\b`)

// ShortFirst splits a long sentence in two at a clause boundary (", so
// ", "; ", " — "), so that a short view of a body, which shows whole
// sentences, can show its first part.
func ShortFirst(s string) string {
	const lo, hi = 60, 220
	if len(s) <= hi {
		return s
	}
	best, n := -1, 0
	for _, sep := range []string{"; ", ", so ", " — ", ", which ", ", and "} {
		if i := strings.Index(s[lo:], sep); i >= 0 && lo+i <= hi && (best < 0 || lo+i < best) {
			best, n = lo+i, len(sep)
		}
	}
	if best < 0 || strings.Count(s[:best], "`")%2 != 0 {
		return s
	}
	rest := strings.TrimSpace(s[best+n:])
	if strings.HasPrefix(s[best:], ", so ") {
		rest = "So " + rest
	} else if strings.HasPrefix(s[best:], ", which ") {
		rest = "This " + rest
	} else if strings.HasPrefix(s[best:], ", and ") {
		rest = "And " + rest
	}
	return s[:best] + ". " + prose.Capitalize(rest)
}

// aboutAlternative reports whether next speaks of the alternative s
// turned down, which is why it was: "… by hand rather than using the
// `sacn` package from PyPI." then "That package runs its own output
// thread …".
func aboutAlternative(s, next string) bool {
	alt, _ := prose.Alternative(s)
	if alt == "" || cue.DecisionCue.MatchString(next) || cue.IsPlan(next) {
		return false
	}
	m := thatOne.FindStringSubmatch(next)
	if m == nil {
		return false
	}
	return strings.Contains(strings.ToLower(alt), strings.ToLower(m[1]))
}

// thatOne opens a sentence on a thing just named: "That package runs …".
var thatOne = lazyre.New(`^(?:That|This|The other|Such an?) ([a-z][\w-]+) (?:\w+ ){0,2}?(?:runs|has|needs|does|would|is|pulls|brings|adds|wants|keeps|means|takes|ships|uses|depends|can't|cannot|doesn't|won't)\b`)

// AfterTitle is what statement s says after title t, when t is s cut at
// its colon or dash ("One thing that had to change with the model") and
// the rest says more than its reason why: the body a decision needs, or
// "" when the title holds what s says.
func AfterTitle(t, s, why string) string {
	r, ok := strings.CutPrefix(prose.TrimLead(s), t)
	if !ok || !strings.HasPrefix(r, ": ") && !strings.HasPrefix(r, " — ") {
		return ""
	}
	r = strings.TrimLeft(r, ":— ")
	said := map[string]bool{}
	for _, w := range prose.ContentWords(why) {
		said[w] = true
	}
	n := 0
	for _, w := range prose.ContentWords(r) {
		if !said[w] {
			n++
		}
	}
	if n < 3 {
		return ""
	}
	return prose.Capitalize(r)
}
