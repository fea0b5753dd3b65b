package block

import (
	"strings"

	"github.com/cairn-mem/cairn/internal/prose"
	"github.com/cairn-mem/cairn/internal/summarize/pick"
)

// Paragraphs are text's paragraphs of prose: blocks between blank
// lines, without code blocks or lists of code.
func Paragraphs(text string) []string {
	var out []string
	fence := false
	var cur []string
	flush := func() {
		if p := strings.TrimSpace(strings.Join(cur, "\n")); p != "" {
			if joined, ok := prose.GoOn(out, p, "\n"); ok {
				out = joined
			} else {
				out = append(out, p)
			}
		}
		cur = nil
	}
	for _, l := range strings.Split(text, "\n") {
		t := strings.TrimSpace(l)
		switch {
		case strings.HasPrefix(t, "```"):
			fence = !fence
			flush()
		case fence:
		case t == "":
			flush()
		default:
			cur = append(cur, l)
		}
	}
	flush()
	return out
}

// Items are the paragraphs of text with each item of a list a
// paragraph of its own: "Done on all three:\n- CSS: …\n- Variant picker:
// …\n- CLI: …" says three things, each as much an outcome as a
// paragraph would. Whether any was a list item is reported too.
func Items(text string) (out []string, listed bool) {
	for _, para := range Paragraphs(text) {
		var cur []string
		flush := func() {
			if p := strings.TrimSpace(strings.Join(cur, " ")); p != "" {
				out = append(out, p)
			}
			cur = nil
		}
		for _, l := range strings.Split(para, "\n") {
			if item, ok := pick.ListItem(l); ok {
				flush()
				listed = true
				l = item
			}
			cur = append(cur, strings.TrimSpace(l))
		}
		flush()
	}
	return out, listed
}

// Same is other when text has it in the paragraph of s, else "": the
// sentence after a choice is its reason only there.
func Same(text, s, other string) string {
	if other == "" {
		return ""
	}
	s, other = flat(s), flat(other)
	for _, para := range Paragraphs(text) {
		if para = flat(para); strings.Contains(para, s) {
			if strings.Contains(para, other) {
				return other
			}
			return ""
		}
	}
	return ""
}

// ListAfter is the list that follows the line of text ending in s, a
// lead-in ("My recommendation is a hybrid, weighted heavily to one
// side:"): each item's first sentence, at most n of them; nil when no
// list follows.
func ListAfter(text, s string, n int) []string {
	lead := flat(s)
	if !strings.HasSuffix(lead, ":") {
		return nil
	}
	lines := strings.Split(text, "\n")
	at := -1
	for i := range lines {
		// The lead-in may wrap: it ends on this line, begins on one before.
		if strings.HasSuffix(flat(strings.Join(lines[max(i-3, 0):i+1], " ")), lead) {
			at = i
			break
		}
	}
	if at < 0 {
		return nil
	}
	var out, cur []string
	flush := func() {
		if len(cur) > 0 {
			if ss := prose.Sentences(strings.Join(cur, " ")); len(ss) > 0 {
				out = append(out, ss[0])
			}
			cur = nil
		}
	}
	for _, l := range lines[at+1:] {
		t := strings.TrimSpace(l)
		if item, ok := pick.ListItem(l); ok {
			flush()
			if len(out) == n {
				break
			}
			cur = []string{strings.TrimSpace(item)}
			continue
		}
		if t == "" && len(cur) == 0 && len(out) == 0 {
			continue // a blank line before the list
		}
		if t == "" || len(cur) == 0 {
			break // the list ended
		}
		cur = append(cur, t)
	}
	if len(out) < n {
		flush()
	}
	return out
}

// flat is s with its runs of white space one space: a sentence as the
// lines of its paragraph wrap it.
func flat(s string) string { return strings.Join(strings.Fields(s), " ") }
