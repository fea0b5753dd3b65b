package summarize

import (
	"fmt"
	"strings"

	"github.com/cairn-mem/cairn/internal/prose"
	"github.com/cairn-mem/cairn/internal/shellcmd"
	"github.com/cairn-mem/cairn/internal/summarize/runout"
)

// Limits of the Markdown section, so that a busy segment stays readable.
// What is over a limit is counted, never cut inside a bullet.
const (
	maxPrompts   = 6
	maxOutcomes  = 8
	maxApproach  = 6
	maxStatement = 8 // root causes, decisions, rejected, preferences, environment each
	maxFiles     = 15
	maxRead      = 10
	maxCommands  = 12
	maxErrors    = 8
	maxOpen      = 8
)

// markdown renders the segment's section with the headings of the
// summary format, in its order (see doc.go).
func (a *analysis) markdown(head string) string {
	var b strings.Builder
	b.WriteString(head)
	b.WriteString("\n")
	section := func(name string, lines []string, limit int) {
		if len(lines) == 0 {
			return
		}
		b.WriteString("\n" + name + "\n")
		for i, l := range lines {
			if i == limit {
				fmt.Fprintf(&b, "- (%d more)\n", len(lines)-limit)
				break
			}
			b.WriteString("- " + l + "\n")
		}
	}
	section("**Request**", a.requests, maxPrompts)
	section("**Outcome**", a.outcome(), maxOutcomes)
	section("**Approach**", a.approachLines(), maxApproach)
	section("**Root causes**", a.rootCauses, maxStatement)
	section("**Decisions**", a.decisions, maxStatement)
	section("**Rejected**", a.rejected, maxStatement)
	section("**Preferences**", a.prefs, maxStatement)
	section("**Environment**", a.env, maxStatement)
	section("**Open**", a.openPoints(), maxOpen)
	section("**Details**", a.details, maxDetails)

	var changed []string
	for _, f := range a.files {
		if f.edits+f.writes > 0 {
			l := f.path + " (" + f.how() + ")"
			if f.what != "" {
				l += ": " + f.what
			}
			changed = append(changed, l)
		}
	}
	if len(changed) > 0 {
		section(fmt.Sprintf("**Files changed** (%d)", len(changed)), changed, maxFiles)
	}
	var read []string
	for _, f := range a.files {
		if f.reads > 0 && f.edits+f.writes == 0 {
			read = append(read, f.path)
		}
	}
	if len(read) > 0 {
		line := strings.Join(read[:min(len(read), maxRead)], ", ")
		if len(read) > maxRead {
			line += fmt.Sprintf(" and %d more", len(read)-maxRead)
		}
		fmt.Fprintf(&b, "\n**Files read** (%d): %s\n", len(read), line)
	}
	if cmds, nFailed := a.commands(); len(cmds) > 0 {
		section(fmt.Sprintf("**Commands** (%d run, %d failed)", len(a.runs), nFailed), cmds, maxCommands)
	}
	section("**Errors & fixes**", a.errors(), maxErrors)
	return b.String()
}

// outcome is what the segment achieved: fixes, the checks that pass at its
// end, commits, and what the agent's last message to each prompt said.
func (a *analysis) outcome() []string {
	var out []string
	for _, f := range a.fixes {
		out = append(out, f.line())
	}
	// Each check's last state, if it passes now.
	last := map[string]run{}
	var order []string
	for _, r := range a.runs {
		if r.purpose != shellcmd.PurposeTest && r.purpose != shellcmd.PurposeBuild && r.purpose != shellcmd.PurposeLint {
			continue
		}
		if _, ok := last[r.key]; !ok {
			order = append(order, r.key)
		}
		last[r.key] = r
	}
	fixed := map[string]bool{}
	for _, f := range a.fixes {
		fixed[f.key] = true
	}
	for _, k := range order {
		r := last[k]
		if r.failed || fixed[k] {
			continue
		}
		verb := map[shellcmd.Purpose]string{shellcmd.PurposeTest: "passes", shellcmd.PurposeBuild: "builds", shellcmd.PurposeLint: "is clean"}[r.purpose]
		line := code(k) + " " + verb
		if r.purpose == shellcmd.PurposeTest {
			if o := runout.TestOutcome(r.output); o != "" {
				line += " (" + o + ")"
			}
		}
		out = append(out, line)
	}
	for _, c := range a.commits {
		out = append(out, "Committed “"+c+"”")
	}
	// The latest answers matter most: keep the last ones.
	outs := a.outcomes
	if n := maxOutcomes - min(len(out), maxOutcomes/2); len(outs) > n {
		outs = outs[len(outs)-n:]
	}
	return append(out, outs...)
}

// approachLines are the approach bullets without the sentences another
// section already holds: a root cause or a decision said in the
// message before the change is kept there, with its reason.
func (a *analysis) approachLines() []string {
	var held []map[string]bool
	for _, part := range [][]string{a.rootCauses, a.decisions, a.rejected, a.prefs, a.env, a.outcomes} {
		for _, l := range part {
			held = append(held, wordSet(l))
		}
	}
	var out []string
	for _, b := range a.approach {
		var keep []string
		for _, s := range prose.Sentences(b) {
			w := wordSet(s)
			if !heldBy(w, held) {
				keep = append(keep, s)
			}
		}
		if len(keep) > 0 {
			out = append(out, strings.Join(keep, " "))
		}
	}
	return out
}

// wordSet is the set of s's content words, stemmed.
func wordSet(s string) map[string]bool {
	out := map[string]bool{}
	for _, w := range prose.ContentWords(s) {
		out[prose.Stem(w)] = true
	}
	return out
}

// heldBy reports whether three quarters of words w are in one of held.
func heldBy(w map[string]bool, held []map[string]bool) bool {
	for _, h := range held {
		if len(w) > 0 && float64(shared(w, h)) >= 0.75*float64(len(w)) {
			return true
		}
	}
	return false
}

// shared counts the words of w that h holds.
func shared(w, h map[string]bool) int {
	n := 0
	for k := range w {
		if h[k] {
			n++
		}
	}
	return n
}
