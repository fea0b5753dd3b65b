package block

import (
	"strings"

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
			out = append(out, p)
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
	flat := func(s string) string { return strings.Join(strings.Fields(s), " ") }
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
