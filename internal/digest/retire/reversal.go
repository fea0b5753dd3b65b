package retire

import (
	"slices"
	"strings"

	"github.com/cairn-mem/cairn/internal/digest/change"
	"github.com/cairn-mem/cairn/internal/digest/lex"
	"github.com/cairn-mem/cairn/internal/digest/retire/turn"
	"github.com/cairn-mem/cairn/internal/lazyre"
	"github.com/cairn-mem/cairn/internal/prose"
	"github.com/cairn-mem/cairn/internal/summarize"
)

// stayContext is what x stays with, the thing it names first when it
// says "it" ("I've been using Fusion 360 personal for years so I'd like
// to stick with it"), and x with the other statements that stay with
// that thing: the alternative one of them names ("…; FreeCAD's adaptive
// in 0.21 being unreliable") is the one x passed over too.
func (r *Retirer) stayContext(x, w string) (string, string) {
	if !stayPronoun.MatchString(w) {
		return w, x
	}
	m := firstName.FindString(x)
	if m == "" {
		return w, x
	}
	ctx := x
	for i := range r.stmts {
		if t := r.stmts[i].Text; t != x && strings.Contains(turn.StayedWith(t), m) {
			ctx += " " + t
		}
	}
	return m, ctx
}

var (
	stayPronoun = lazyre.New(`^(?:it|them|that|this)\b`)
	// firstName is a product's name a sentence gives, capitalised, with
	// a version or a word after it: "Fusion 360".
	firstName = lazyre.New(`\b(?:[A-Z][a-z]+[A-Za-z]*|[A-Z]{2,})(?: \d+)?\b`)
)

// stayReversed reports whether x decides to stay with something and a
// statement newer than rank took the alternative x named: the reason
// clause that named it goes with the decision.
func (r *Retirer) stayReversed(x string, rank int) bool {
	w := turn.StayedWith(x)
	if w == "" {
		return false
	}
	w, ctx := r.stayContext(x, w)
	for i := range r.stmts {
		if n := &r.stmts[i]; !n.own && n.Rank < rank && turn.TookOther(ctx, w, n.Text) {
			return true
		}
	}
	return false
}

// takenAfterAll reports whether a statement newer than rank went back
// on something x said no to and took it, or did what x forbade: "we
// keep the whole board as a superloop, no RTOS" goes whole once "we're
// going to move to FreeRTOS after all".
func (r *Retirer) takenAfterAll(x string, rank int) bool {
	no := turn.SaidNo(x)
	for i := range r.stmts {
		n := &r.stmts[i]
		if n.own || n.Rank >= rank || !change.GoesBack(n.Text) {
			continue
		}
		if len(no) > 0 && turn.TookAfterAll(n.Text, no) {
			return true
		}
		n.read()
		if slices.ContainsFunc(n.removed, func(k string) bool { return change.Permits(k, x) }) {
			return true // "show fines after all" once "please don't show fines on the screen"
		}
	}
	return false
}

// passedOverFor returns the choices over an alternative that took what
// x names, word for word, before its reason ("Failed deliveries in spool
// files on disk — why"): a Rejected line "In a table on the Postgres at
// db-02 — passed over for: failed deliveries in spool files on disk."
// When a newer statement goes back to what that passed over, the pick
// goes with its Rejected line.
func (r *Retirer) passedOverFor(x string) []*turn.Choice {
	o, _, _ := strings.Cut(x, " — ")
	if o = strings.TrimRight(strings.TrimSpace(o), "."); len(strings.Fields(o)) < 2 {
		return nil
	}
	if r.passed == nil {
		r.passed = map[string][]*turn.Choice{}
		for i := range r.stmts {
			t := r.stmts[i].Text
			j := strings.Index(t, summarize.PassedOver)
			if j < 0 {
				continue
			}
			if c := turn.Over(t); c != nil {
				took := strings.ToLower(strings.TrimRight(strings.TrimSpace(t[j+len(summarize.PassedOver):]), "."))
				r.passed[took] = append(r.passed[took], c)
			}
		}
	}
	if cs := r.passed[strings.ToLower(o)]; cs != nil {
		return cs
	}
	// "My recommendation is the spool, mainly for that reason: …" took
	// what the Rejected line says it was passed over for, in fewer words.
	ws := prose.ContentWords(prose.Chose(x))
	if len(ws) == 0 {
		return nil
	}
	var out []*turn.Choice
	for took, cs := range r.passed {
		if !slices.ContainsFunc(ws, func(w string) bool { return !lex.HasWord(took, strings.ToLower(w)) }) {
			out = append(out, cs...)
		}
	}
	return out
}
