package llm

import (
	"github.com/cairn-mem/cairn/internal/quote"
	"slices"
	"strconv"
	"strings"

	"github.com/cairn-mem/cairn/internal/lazyre"
)

// untrueLabel starts the section that names, by number, the statements
// of the prompt's <earlier> list the segment made untrue.
// It is what digest.Parse reads as one: a bold label starting with those
// words.
// A Markdown heading of those words ("### No longer true") is one too:
// digest.Parse would read its bullets as notes, shown.
var untrueLabel = lazyre.New(`(?i)^(?:\*\*[\s:]*no longer true[^*]*\*\*|#+\s*no longer true\b[^\n]*?)\s*:?\s*(.*)$`)

// refList is a reference to statements of <earlier>: "[3]", "[1, 4]",
// "[2-5]".
var refList = lazyre.New(`\[(\d{1,5}(?:\s*(?:,|-|–)\s*\d{1,5})*)\]`)

// numbers are the statement numbers of a reference list, those of
// earlier's n only; a range counts at most n.
func numbers(list string, n int) []int {
	var out []int
	for _, part := range strings.Split(list, ",") {
		lo, hi, ok := strings.Cut(strings.ReplaceAll(part, "–", "-"), "-")
		a, err := strconv.Atoi(strings.TrimSpace(lo))
		if err != nil {
			continue
		}
		b := a
		if ok {
			if b, err = strconv.Atoi(strings.TrimSpace(hi)); err != nil {
				continue
			}
		}
		for i := max(a, 1); i <= min(b, n); i++ {
			out = append(out, i)
		}
	}
	return out
}

// boldLabel starts another section.
var boldLabel = lazyre.New(`^\*\*[^*]+\*\*`)

// quoteUntrue writes the "**No longer true**" section of a model's
// summary as quotes, and returns them too: each "[n]" it names becomes a bullet of earlier's
// n-th statement word for word, which is how the pack finds what it
// retires (digest.UntrueKey); a bullet that quotes a statement instead
// of numbering it is kept as that statement. What names none of earlier
// goes, and so does the section when nothing is left of it, or when
// there was no list to name from: a model's guess at older statements
// it was not shown retires nothing.
func quoteUntrue(summary string, earlier []string) (string, []string) {
	lines := strings.Split(summary, "\n")
	out := make([]string, 0, len(lines))
	byKey := make(map[string]string, len(earlier))
	for _, e := range earlier {
		byKey[quote.Key(e)] = e
	}
	var quoted, all []string
	in := false
	flush := func() {
		if len(quoted) > 0 {
			out = append(out, "**No longer true**")
			for _, q := range quoted {
				out = append(out, "- "+q)
			}
			all = append(all, quoted...)
		}
		quoted, in = nil, false
	}
	keep := func(e string) {
		if !slices.Contains(quoted, e) {
			quoted = append(quoted, e)
		}
	}
	take := func(text string) {
		refs := refList.FindAllStringSubmatch(text, -1)
		for _, m := range refs {
			for _, n := range numbers(m[1], len(earlier)) {
				keep(earlier[n-1])
			}
		}
		if len(refs) == 0 {
			if e, ok := byKey[quote.Key(text)]; ok {
				keep(e)
			}
		}
	}
	for _, l := range lines {
		t := strings.TrimSpace(l)
		if m := untrueLabel.FindStringSubmatch(t); m != nil {
			flush()
			in = true
			take(m[1])
			continue
		}
		if in {
			switch {
			case strings.HasPrefix(t, "#") || boldLabel.MatchString(t):
				flush()
				if len(out) > 0 && out[len(out)-1] != "" {
					out = append(out, "")
				}
			case strings.HasPrefix(t, "- ") || strings.HasPrefix(t, "* "):
				take(t[2:])
				continue
			case t == "":
				continue
			default:
				take(t)
				continue
			}
		}
		out = append(out, l)
	}
	flush()
	return strings.Join(out, "\n"), all
}
