package tail

import (
	"time"

	"github.com/cairn-mem/cairn/indexer"
	"github.com/cairn-mem/cairn/internal/mdtext"
	"github.com/cairn-mem/cairn/internal/model"
)

// LeastTokens is the tokens of a core item's shortest entry, its title
// and tail: indexer.EstimateTokens("- **" + mdtext.OneLine(title) + "**"
// + Of(kind, when, year, id, note)), made in one buffer. Near a full pack
// thousands of core items are offered room for their title at most, and
// each costs this once: made of seven strings and a slice, it was 2 µs an
// item, 10 ms of a pack at 5,000 core items.
func LeastTokens(title, kind string, when time.Time, year int, id, note string) int {
	var buf [256]byte
	b := append(buf[:0], "- **"...)
	b = appendOneLine(b, title)
	b = append(b, "**"...)
	b = appendTail(b, kind, when, year, id, note)
	return indexer.EstimateTokens(string(b))
}

// Of is what a core item's entry says after its text: its kind, date
// (Day of when and year), id and mark.
func Of(kind string, when time.Time, year int, id, note string) string {
	return string(appendTail(make([]byte, 0, 64), kind, when, year, id, note))
}

// appendTail appends Of(kind, when, year, id, note) to b.
func appendTail(b []byte, kind string, when time.Time, year int, id, note string) []byte {
	b = append(b, " ("...)
	if kind != "" {
		b = append(append(b, kind...), ", "...)
	}
	if !when.IsZero() {
		b = append(appendDate(b, when, year), ", "...)
	}
	b = append(append(b, "id "...), Ref(id)...)
	if note != "" {
		b = append(append(b, ", "...), note...)
	}
	return append(b, ")\n"...)
}

// Day is the day t falls on, as a pack says it: "Dec 5" in year, the
// pack's newest, and "2025-12-05" in any other. The short form is two
// tokens where the long one is six, and a pack has a date on each
// session and core item.
func Day(t time.Time, year int) string { return string(appendDate(nil, t, year)) }

// appendDate appends Day(t, year) to b, the digits put directly for the
// years Format pads to four: Format reads its layout again at each call.
func appendDate(b []byte, t time.Time, year int) []byte {
	y, m, d := t.Date()
	if y == year {
		b = append(b, m.String()[:3]...)
		b = append(b, ' ')
		if d >= 10 {
			b = append(b, byte('0'+d/10))
		}
		return append(b, byte('0'+d%10))
	}
	if y < 0 || y > 9999 {
		return t.AppendFormat(b, time.DateOnly)
	}
	return append(b, byte('0'+y/1000), byte('0'+y/100%10), byte('0'+y/10%10), byte('0'+y%10), '-',
		byte('0'+m/10), byte('0'+m%10), '-', byte('0'+d/10), byte('0'+d%10))
}

// appendOneLine appends mdtext.OneLine(s) to b: s's words, one space
// between them. An ASCII title is split here, without the slice of
// strings.Fields, and most are one line already; any other goes through
// OneLine (Unicode's spaces).
func appendOneLine(b []byte, s string) []byte {
	one := true // no space but single ones between words
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c >= 0x80:
			return append(b, mdtext.OneLine(s)...)
		case c == ' ':
			one = one && i > 0 && i < len(s)-1 && s[i+1] != ' '
		case c >= '\t' && c <= '\r':
			one = false
		}
	}
	if one {
		return append(b, s...)
	}
	start := len(b)
	word := false // within a word
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case ' ', '\t', '\n', '\v', '\f', '\r':
			word = false
		default:
			if !word && len(b) > start {
				b = append(b, ' ')
			}
			word = true
			b = append(b, c)
		}
	}
	return b
}

// Ref is what to give cairn show for a memory: the end of an item's
// id (cairn show takes a unique suffix), or the path of a file.
func Ref(id string) string {
	if model.ValidID(id) {
		return id[len(id)-8:]
	}
	return id
}
