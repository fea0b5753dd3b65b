package outcome

import (
	"strings"

	"github.com/cairn-mem/cairn/internal/prose"
	"github.com/cairn-mem/cairn/internal/summarize/block"
	"github.com/cairn-mem/cairn/internal/summarize/cause"
	"github.com/cairn-mem/cairn/internal/summarize/cue"
	"github.com/cairn-mem/cairn/internal/summarize/telling"
)

// Of is what a final message says it came to, as bullets: its
// first sentences that say something (not a bare "Done." and not the
// agent announcing its next step), then the first such sentence of each
// later paragraph, since a report gives each matter a paragraph ("The
// double emails: …", "The reversal command: …").
func Of(text string) []string {
	var out []string
	paras, listed := block.Items(text)
	limit := 4
	if listed {
		limit = 6 // a list's items are short and each says one thing done
	}
	for p, para := range paras {
		if p < len(paras)-1 && leadIn(para) {
			continue // "Three fixes today." announces the paragraphs that say them
		}
		var keep, more []string
		raised := false // the paragraph opened by raising something
		explained := -1 // the last sentence of an explanation announced ("I found what happened to …:"), which is a root cause
		ss := prose.Sentences(para)
		for j, s := range ss {
			if j <= explained {
				continue
			}
			if t := cue.Courtesy.ReplaceAllString(s, ""); t != s && t != "" {
				s = prose.Capitalize(t)
			}
			s = telling.Remark(s) // "One thing worth saying about the choice itself: …" says what follows its colon
			if j == 0 && (cue.OpenLabel.MatchString(s) || telling.OpenCount.MatchString(s)) {
				break // a paragraph that opens on work left says the rest of it too: "… That's the next big thing."
			}
			if cue.OpenLabel.MatchString(s) {
				continue // "Left for another day: the German de.po, since the warehouse works in German."
			}
			if j == 0 && cue.Flagged.MatchString(s) {
				raised = true
			}
			if raised && !strings.ContainsAny(s, "0123456789`") {
				continue // "One thing from CI: … fails …. Needs a fine-grained token …" tells one problem; "Worth knowing: … Locally the emulators use Auth 9099" a fact too
			}
			if cause.Announces(s) {
				if j+1 < len(ss) {
					explained = cause.End(ss, j+1)
				}
				continue
			}
			if cue.Offer.MatchString(s) || cue.HandOver.MatchString(s) || cue.Acknowledges.MatchString(s) || cue.NoneLeft.MatchString(s) || telling.Before.MatchString(s) || telling.Weighed.MatchString(s) || telling.CountsReasons.MatchString(s) || telling.Recap.MatchString(s) || j == 0 && leadIn(s) {
				continue // "ping me when you want the linux-builder looked at", "For you: `cargo nextest run`", "Nothing from axum 0.7 is left", "Before: first row 121 ms", "I thought about child workflows"
			}
			if len(s) < 16 && len(out)+len(keep) == 0 || cue.Narrating(s) && !cue.DoneCue.MatchString(s) || strings.HasSuffix(s, ":") || strings.HasSuffix(s, "?") {
				continue
			}
			if cue.Flagged.MatchString(s) || cue.OpenSaid(s) && !cue.DoneCue.MatchString(s) || p > 0 && (cue.IsPlan(s) || cue.Hedge.MatchString(s) || cue.Aside.MatchString(s)) {
				continue // work left is an open item, which a later session may close
			}
			if len(keep) == 2 {
				// One paragraph listing what was done gives each thing
				// its own bullet: "The archive table got its index …".
				if len(paras) == 1 && cue.GotDone.MatchString(s) && len(more) < 2 {
					more = append(more, prose.UpTo(s, 300))
					continue
				}
				break
			}
			keep = append(keep, s)
			if p > 0 && len(out) > 0 && (len(keep) > 1 || len(strings.Fields(s)) > 8) {
				break // a later paragraph's first sentence, and its second after a short one ("Mappings no longer come from the CSV.")
			}
		}
		if j := strings.Join(keep, " "); len(j) > 300 && len(keep) > 1 {
			// Two long sentences are two outcomes: cut to 300, the
			// second would be lost whole.
			for _, k := range keep {
				out = append(out, prose.UpTo(k, 300))
			}
		} else if len(keep) > 0 {
			out = append(out, prose.UpTo(j, 300))
		}
		out = append(out, more...)
		if len(out) >= limit {
			break
		}
	}
	return out
}

// leadIn reports whether a paragraph only announces what follows: one
// short sentence that counts what it did ("Three fixes today.", "Two
// changes."). "The comparator works." is an outcome.
func leadIn(para string) bool {
	return len(strings.Fields(para)) <= 4 && cue.CountsWork.MatchString(para)
}
