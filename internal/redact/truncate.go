package redact

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Truncate cuts text longer than limit bytes down to its head and tail,
// joined by a line that says how much was cut:
//
//	[... 1234 lines (56789 bytes) cut ...]
//
// The head and tail get half of the limit each, less the marker, and are
// cut at line ends when one is near (within a quarter of each part), else
// at a character boundary. The result is at most limit bytes when limit is
// 128 or more. Redact before truncating: a secret cut in two may no longer
// be recognisable.
func Truncate(text string, limit int) string {
	if len(text) <= limit {
		return text
	}
	limit = max(limit, 128)
	// The marker's longest form, so that the result fits whatever the counts.
	const room = len("\n[... 99999999999 lines (99999999999999 bytes) cut ...]\n")
	part := (limit - room) / 2
	head := part
	if nl := strings.LastIndexByte(text[:head], '\n'); nl >= head-head/4 {
		head = nl + 1
	} else {
		for head > 0 && !utf8.RuneStart(text[head]) {
			head--
		}
	}
	tail := len(text) - part
	if nl := strings.IndexByte(text[tail:], '\n'); nl >= 0 && nl < part/4 {
		tail += nl + 1
	} else {
		for tail < len(text) && !utf8.RuneStart(text[tail]) {
			tail++
		}
	}
	cut := text[head:tail]
	lines := strings.Count(cut, "\n")
	if !strings.HasSuffix(cut, "\n") {
		lines++ // a partial line counts
	}
	var b strings.Builder
	b.Grow(head + room + len(text) - tail)
	b.WriteString(text[:head])
	if head > 0 && text[head-1] != '\n' {
		b.WriteByte('\n')
	}
	fmt.Fprintf(&b, "[... %d lines (%d bytes) cut ...]", lines, len(cut))
	b.WriteByte('\n')
	b.WriteString(text[tail:])
	return b.String()
}
