package digest

import (
	"github.com/cairn-mem/cairn/internal/quote"
	"strings"

	"github.com/cairn-mem/cairn/internal/digest/change"
	"github.com/cairn-mem/cairn/internal/digest/lex"
	"github.com/cairn-mem/cairn/internal/lazyre"
	"github.com/cairn-mem/cairn/internal/mdtext"
)

// The parts of a session's summary the pack knows, by the bold headings
// of summary.md (docs/formats.md): each segment has "**Request**",
// "**Outcome**", "**Root causes**" and so on, followed by "- " bullets.
// Older summaries ("**Done**", "**Notes**", free prose) are read too.
const (
	Request = iota
	Outcome
	Root
	Decisions
	Rejected
	Preferences
	Environment
	Open
	Files
	Errors
	Commands
	Notes
	Read
	Approach
	Details
	NumParts
)

// Labels label a part's bullets in the pack.
var Labels = [NumParts]string{
	"Request", "Outcome", "Root cause", "Decision", "Rejected", "Preference", "Environment",
	"Open", "Files changed", "Error", "Command", "Note", "Files read", "Approach", "Detail",
}

// Unlabelled reports whether a pack gives part p's bullets without their
// label. What a session found, did and set up reads as such under its
// heading, and "Outcome: " was three tokens of every such line, a
// twelfth of what older sessions' lines say. A request, a decision, a
// choice rejected, a root cause or a rule keeps its label: it says how
// to read the line.
func Unlabelled(p int) bool { return p == Outcome || p == Environment || p == Details }

// partOf names the part a summary heading starts, by its first words.
func partOf(heading string) int {
	h := strings.ToLower(strings.Trim(heading, " *:"))
	switch {
	case strings.HasPrefix(h, "no longer true"):
		return untrue
	case strings.HasPrefix(h, "request"), strings.HasPrefix(h, "asked"):
		return Request
	case strings.HasPrefix(h, "outcome"), strings.HasPrefix(h, "done"), strings.HasPrefix(h, "result"):
		return Outcome
	case strings.HasPrefix(h, "approach"):
		return Approach
	case strings.HasPrefix(h, "root cause"), strings.HasPrefix(h, "cause"):
		return Root
	case strings.HasPrefix(h, "decision"):
		return Decisions
	case strings.HasPrefix(h, "rejected"):
		return Rejected
	case strings.HasPrefix(h, "preference"), strings.HasPrefix(h, "instruction"):
		return Preferences
	case strings.HasPrefix(h, "environment"):
		return Environment
	case strings.HasPrefix(h, "open"), strings.HasPrefix(h, "not yet answered"):
		return Open
	case strings.HasPrefix(h, "files changed"):
		return Files
	case strings.HasPrefix(h, "files read"):
		return Read
	case strings.HasPrefix(h, "errors"):
		return Errors
	case strings.HasPrefix(h, "commands"):
		return Commands
	case strings.HasPrefix(h, "details"):
		return Details
	}
	return Notes
}

// Summary is what a session's summary says, over all its segments.
type Summary struct {
	Parts [NumParts][]string // bullets, whole, in order, without repeats
	// Open is the last segment's Open: what is still open at the end.
	Open []string
	// Seg is the segment each bullet was first said in, counted from 0:
	// a session's later segment may change what an earlier one said, and
	// one that says a bullet again (a recap) changes nothing.
	Seg map[string]int
	// Untrue quotes, word for word, statements of older sessions or core
	// items that this session made untrue ("**No longer true**"): a model
	// summarizer names them, or a user editing summary.md by hand. They
	// are never shown; the pack retires what they quote.
	Untrue []string
	// NewerUntrue holds the quotes of newer sessions that have nothing
	// else to show (an `outdated` call right after /clear, in a session
	// that ended without a summary): recent.Latest lists no such session
	// and moves its quotes here, where they count as said by the session
	// just newer than this one.
	NewerUntrue []string
}

// untrue is partOf's answer for "**No longer true**", which is no part:
// its bullets go to Summary.Untrue.
const untrue = -1

// Substantial reports whether the summary says what was asked or done.
func (d *Summary) Substantial() bool {
	return len(d.Parts[Request])+len(d.Parts[Outcome])+len(d.Parts[Notes]) > 0
}

// boldHeading matches a line that is a bold heading, with an optional
// count and inline text: "**Files read** (3): a.go, b.go".
var boldHeading = lazyre.New(`^\*\*([^*]+)\*\*\s*(\([^)]*\))?:?\s*(.*)$`)

// Parse reads summary.md's body (front matter removed).
func Parse(text string) *Summary {
	d := &Summary{Seg: make(map[string]int)}
	seen := make(map[string]bool)
	var segs [NumParts][]int // the segment each bullet was first said in
	part := Notes
	var segOpen []string
	inSegment := false
	seg := -1       // the segment being read; text before the first is of 0
	var cur *string // the bullet a continuation line extends
	add := func(p int, s string) {
		s = mdtext.OneLine(s)
		if s == "" || strings.HasPrefix(s, "…") || strings.HasPrefix(s, "...") || s == "(no summary)" {
			return // "… and 3 more": a count, not a statement
		}
		if p == untrue {
			cur = nil
			if key := "!" + s; !seen[key] {
				seen[key] = true
				d.Untrue = append(d.Untrue, s)
				cur = &d.Untrue[len(d.Untrue)-1]
			}
			return
		}
		if p == Notes {
			// "(fact) Reports are cached": the kind says nothing here.
			if rest, ok := strings.CutPrefix(s, "("); ok {
				if kind, after, ok := strings.Cut(rest, ") "); ok && !strings.Contains(kind, " ") {
					s = after
				}
			}
		}
		if p == Open {
			segOpen = append(segOpen, s)
			cur = &segOpen[len(segOpen)-1]
			return
		}
		key := string(rune('a'+p)) + strings.ToLower(s)
		if seen[key] {
			cur = nil // said again: a recap, no newer statement
			return
		}
		seen[key] = true
		d.Parts[p] = append(d.Parts[p], s)
		segs[p] = append(segs[p], max(seg, 0))
		cur = &d.Parts[p][len(d.Parts[p])-1]
	}
	for line := range strings.Lines(text) {
		line = strings.TrimRight(line, "\r\n")
		trim := strings.TrimSpace(line)
		switch {
		case strings.HasPrefix(trim, "#"):
			// A segment starts: its Open replaces the last one's.
			if strings.Contains(strings.ToLower(trim), "segment") || !inSegment {
				segOpen, inSegment = nil, true
				seg++
			}
			part, cur = Notes, nil
		case trim == "":
			cur = nil
		case boldHeading.MatchString(trim):
			mm := boldHeading.FindStringSubmatch(trim)
			part, cur = partOf(mm[1]), nil
			if mm[3] != "" {
				add(part, mm[3])
			}
		case strings.HasPrefix(trim, "- ") || strings.HasPrefix(trim, "* "):
			add(part, trim[2:])
		case cur != nil && strings.HasPrefix(line, " "):
			*cur += " " + trim
		case part == untrue:
			add(untrue, trim) // a quote written without its dash
		default:
			// Prose: each sentence a note of its own, so that the pack
			// can drop the last ones.
			for _, s := range Sentences(trim) {
				add(Notes, s)
			}
			cur = nil
		}
	}
	d.Open = segOpen
	for p := range d.Parts {
		for i, b := range d.Parts[p] {
			if seg, ok := d.Seg[b]; !ok || segs[p][i] < seg {
				d.Seg[b] = segs[p][i]
			}
		}
	}
	return d
}

// DropWaste leaves out what says nothing about the work: requests that
// are only thanks or "anything else?", and the "No response requested."
// Claude Code records after a slash command.
func (d *Summary) DropWaste() {
	for p, bullets := range d.Parts {
		out := bullets[:0]
		for _, b := range bullets {
			if noResponse(b) || (p == Request && IsChitChat(b)) {
				continue
			}
			out = append(out, b)
		}
		d.Parts[p] = out
	}
	out := d.Open[:0]
	for _, o := range d.Open {
		if !noResponse(o) {
			out = append(out, o)
		}
	}
	d.Open = out
}

// chitChat are words that make no request: greetings, thanks, asking
// what is left; and, in a report, that say no more than that it is done
// ("Found and fixed.", "Notarization works now.").
var chitChat = change.KeySet(`thanks thank nice great cool ok okay good awesome perfect sure yes yeah yep hi hello
	hey morning evening anything else left list go going call day bye wrap wrapping much that's what's
	lgtm excellent fine alright right looks works job done before welcome see tomorrow tonight night later
	found fixed green ready usable`)

// IsChitChat reports whether a request says nothing to do, or a report
// nothing done: fewer than two words besides greetings, thanks,
// "anything else?" and "works now".
func IsChitChat(s string) bool {
	n := 0
	for w := range lex.ContentWords(s) {
		if !chitChat[lex.Key(w)] {
			n++
		}
	}
	return n < 2
}

// noResponse is what Claude Code records as the answer to a slash
// command: it says nothing about the work.
func noResponse(s string) bool {
	return strings.EqualFold(strings.TrimRight(strings.TrimSpace(s), "."), "no response requested")
}

// Untrue returns the quotes of sums, newest first, each with the index
// of the newest summary that quotes it; a summary's NewerUntrue count as
// the one's before it (-1 for the first's).
func Untrue(sums []*Summary) quote.Set { return quotes(sums, true) }

// UntrueOwn is Untrue without NewerUntrue: what the summaries quote
// themselves. A core item is ranked by its session or its time, among
// the sessions listed; a session not listed, whose quotes NewerUntrue
// holds, has no place among them to be newer than the item, which may
// be its own or one written after it. (Consolidation retired the core
// items such quotes title when they were written.)
func UntrueOwn(sums []*Summary) quote.Set { return quotes(sums, false) }

func quotes(sums []*Summary, newer bool) quote.Set {
	var q quote.Set
	for k := len(sums) - 1; k >= 0; k-- {
		for _, u := range sums[k].Untrue {
			q.Add(u, k)
		}
		if newer {
			for _, u := range sums[k].NewerUntrue {
				q.Add(u, k-1)
			}
		}
	}
	return q
}
