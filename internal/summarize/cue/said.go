package cue

import "github.com/cairn-mem/cairn/internal/lazyre"

// What a sentence says of work left, read with the patterns of this
// package.

// notWork blanks what reads like work left and is not: code
// ("`remaining`" is a field, "pending.jsonl" a file), a state "while the action is pending" or
// one a condition names ("when a link has no views yet", "keeping
// only what still fails"), a
// need denied ("the staff view never needs more"), the agent's own
// reading ("ListSlots, which I haven't read yet"), a need given as a
// reason ("because a cold pack needs more margin"), a date called off
// ("we can't do tomorrow"), a day's things ("tomorrow's lines", "what
// they'll get tomorrow"), a time in a story ("and a little later
// everything"), a check that nothing is left ("Checking nothing else
// still says 8080"), a moment ("existing databases get the index the
// next time the service starts").
func notWork(s string) string {
	return WhilePending.ReplaceAllString(fileName.ReplaceAllString(CodeSpan.ReplaceAllString(s, "x"), "x"), " ")
}

// fileName is a file named in prose: "pending.jsonl" and "TODO.md" are
// no work left.
var fileName = lazyre.New(`\b[\w-]+(?:\.[\w-]+)*\.[a-z][a-z0-9]{0,4}\b`)

// IsPlan reports whether s states work still to do: "0.4.0 still has to
// be published", "tomorrow I'll add …", "my plan for next session is …".
func IsPlan(s string) bool {
	return OpenCue.MatchString(WeakOpen.ReplaceAllString(notWork(s), " "))
}

// OpenSaid reports whether s states work left, a state that lasts only
// "while the action is pending" aside.
func OpenSaid(s string) bool {
	return OpenCue.MatchString(notWork(s))
}
