package chunk

import (
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/cairn-mem/cairn/internal/lazyre"
)

// Chunking defaults: the seed design's numbers, and a dialogue's window
// (measured on the long-conversation set, docs/benchmarks.md).
const (
	defaultMaxTokens = 512
	defaultOverlap   = 50
	defaultTurns     = 3
)

// defaultTurn matches a line that starts a turn of a transcript written as
// Markdown. The convention cairn writes and reads is a bold speaker label
// followed by a colon ("**User**:", "**Assistant**:", "**Tool**:"), or
// the same without the bold ("User:"). Turns written as headings
// ("## Turn 3", "### user", "### assistant") are headings already and cut
// there.
//
// These expressions are compiled at first use (lazyre): every cairn
// command links this package, and compiling them at start (the counted
// repetitions {1,64} unroll into hundreds of instructions) cost each
// command 110 KB of fresh heap and about 1 ms, chunking or not.
var defaultTurn = lazyre.New(`^(\*\*)?(User|Assistant|Human|AI|System|Tool|Agent|Claude)(\*\*)?\s*(\([^)]*\))?\s*:`)

// speakerRE matches a line that starts a turn of a dialogue between
// people: a bold name and a colon ("**Maya:**", "**Dr Okafor**:").
var speakerRE = lazyre.New(`^\*\*[^*\n]{1,64}(:\*\*|\*\*\s*:)`)

var (
	headingRE = lazyre.New(`^ {0,3}#{1,6}(\s|$)`)
	// subheadingRE is a heading below a file's title (## to ######).
	subheadingRE = lazyre.New(`^ {0,3}#{2,6}(\s|$)`)
	fenceRE      = lazyre.New("^ {0,3}(```|~~~)")
)

// Options say how Split cuts a body. The zero value means the
// defaults.
type Options struct {
	// MaxTokens is the most tokens (by EstimateTokens) a chunk holds; a
	// single word longer than that is cut at rune boundaries. 0 means 512.
	MaxTokens int
	// Overlap is the most tokens a chunk repeats from the end of the one
	// before it, in whole lines (or whole words when a line alone is longer
	// than MaxTokens); 0 means 50, a negative number none, and it is never
	// more than half of MaxTokens. A chunk that starts at a heading repeats
	// nothing.
	Overlap int
	// Turn matches a line that starts a transcript turn; nil means the
	// speaker labels cairn writes ("**User**:", "Assistant:", …).
	Turn *regexp.Regexp
	// Turns is how many turns a chunk of a dialogue holds
	// (SplitDialogue); 0 means 3.
	Turns int
}

// WithDefaults returns o with its zero fields set to the defaults, as
// Split and its siblings use it.
func (o Options) WithDefaults() Options {
	if o.MaxTokens <= 0 {
		o.MaxTokens = defaultMaxTokens
	}
	if o.Overlap < 0 {
		o.Overlap = 0
	} else if o.Overlap == 0 {
		o.Overlap = defaultOverlap
	}
	if o.Overlap >= o.MaxTokens/2 {
		o.Overlap = o.MaxTokens / 2
	}
	if o.Turn == nil {
		o.Turn = defaultTurn.Regexp()
	}
	if o.Turns <= 0 {
		o.Turns = defaultTurns
	}
	return o
}

// A Chunk is a piece of a document's body.
type Chunk struct {
	// Seq is the chunk's position in its document, from 0.
	Seq int
	// StartLine and EndLine are the 1-based, inclusive line numbers of the
	// chunk in the file (Split's firstLine is the number of the body's
	// first line).
	StartLine, EndLine int
	// StartCol is the byte offset in StartLine where the chunk begins and
	// EndCol the byte offset in EndLine where it ends (exclusive). They
	// are 0 and the line's length unless a line was longer than a chunk.
	StartCol, EndCol int
	// Text is the chunk: lines joined by "\n", without trailing "\r".
	Text string
	// Tokens is EstimateTokens(Text).
	Tokens int
}

// Cut strengths: Split prefers to end a chunk before the strongest
// boundary. A turn ranks above a paragraph because a change of speaker
// ends a thought more surely than a blank line inside one answer does.
const (
	cutWord = iota
	cutSentence
	cutLine
	cutParagraph
	cutTurn
	cutHeading
)

// A unit is the smallest piece Split moves: a whole line, or a word of a
// line too long for one chunk.
type unit struct {
	line     int // index into lines
	from, to int // byte range in the line
	tokens   int
	cut      int // strength of the boundary before the unit
}

// Split cuts body into chunks of at most opts.MaxTokens tokens with about
// opts.Overlap tokens of overlap. It ends a chunk, in order of preference,
// before a Markdown heading, a transcript turn, a paragraph (after a blank
// line), a line, a sentence, or a word, choosing the strongest boundary in
// the last two thirds of the window that fits; it never cuts inside a word
// unless the word alone is longer than a chunk. Headings and turns inside
// fenced code blocks do not count. firstLine is the line number of the
// body's first line in its file (1 when the body is the whole file).
// Blank-only bodies give no chunks; blank lines never begin or end one.
func Split(body string, firstLine int, opts Options) []Chunk {
	opts = opts.WithDefaults()
	firstLine = max(firstLine, 1)
	lines := bodyLines(body)
	units := splitUnits(lines, opts)
	if len(units) == 0 {
		return nil
	}

	var chunks []Chunk
	minFill := opts.MaxTokens / 3
	s, prevCut := 0, 0
	for s < len(units) {
		// Grow the window [s, e) while it fits.
		e, sum := s+1, units[s].tokens
		for e < len(units) && sum+units[e].tokens <= opts.MaxTokens {
			sum += units[e].tokens
			e++
		}
		cut := e
		if e < len(units) {
			// Look back for a stronger boundary, keeping the chunk at
			// least a third full and ending past the chunk before;
			// ties go to the later boundary.
			fill := sum
			for c := e - 1; c > s && c > prevCut; c-- {
				fill -= units[c].tokens
				if fill < minFill {
					break
				}
				if units[c].cut > units[cut].cut {
					cut = c
				}
			}
		}
		chunks = append(chunks, makeChunk(lines, units[s:cut], len(chunks), firstLine))
		if cut >= len(units) {
			break
		}
		next := cut
		prevCut = cut
		if units[cut].cut < cutHeading {
			// Repeat whole units up to Overlap tokens, but never so many
			// that the next chunk could not reach past this cut.
			ov := 0
			for next-1 > s && ov+units[next-1].tokens <= opts.Overlap &&
				ov+units[next-1].tokens+units[cut].tokens <= opts.MaxTokens {
				next--
				ov += units[next].tokens
			}
		}
		s = next
	}
	return chunks
}

func makeChunk(lines []string, us []unit, seq, firstLine int) Chunk {
	first, last := us[0], us[len(us)-1]
	if first.from > 0 { // a chunk starting mid-line starts at a word
		first.from = skipSpace(lines[first.line][:first.to], first.from)
	}
	var b strings.Builder
	if first.line == last.line {
		b.WriteString(lines[first.line][first.from:last.to])
	} else {
		b.WriteString(lines[first.line][first.from:])
		for l := first.line + 1; l < last.line; l++ {
			b.WriteByte('\n')
			b.WriteString(lines[l])
		}
		b.WriteByte('\n')
		b.WriteString(lines[last.line][:last.to])
	}
	text := b.String()
	return Chunk{
		Seq:       seq,
		StartLine: firstLine + first.line,
		EndLine:   firstLine + last.line,
		StartCol:  first.from,
		EndCol:    last.to,
		Text:      text,
		Tokens:    EstimateTokens(text),
	}
}

// splitUnits turns lines into units, each carrying the strength of the
// boundary before it.
func splitUnits(lines []string, opts Options) []unit {
	var units []unit
	inFence := false
	afterBlank := false
	for i, l := range lines {
		if strings.TrimSpace(l) == "" {
			afterBlank = true
			continue
		}
		cut := cutLine
		if afterBlank {
			cut = cutParagraph
		}
		switch {
		case isFence(l):
			inFence = !inFence
		case inFence:
		case isHeading(l):
			cut = cutHeading
		case isTurn(opts.Turn, l):
			cut = cutTurn
		}
		afterBlank = false

		t := EstimateTokens(l)
		if t <= opts.MaxTokens {
			units = append(units, unit{line: i, from: 0, to: len(l), tokens: t, cut: cut})
			continue
		}
		units = appendWords(units, i, l, cut, opts.MaxTokens)
	}
	return units
}

// appendWords adds a line longer than a chunk as one unit per word (with
// the spaces before it), cutting a word longer than max at runes.
func appendWords(units []unit, line int, l string, cut, max int) []unit {
	i := 0
	for i < len(l) {
		j := skipSpace(l, i)
		wordStart := j
		for j < len(l) {
			r, size := utf8.DecodeRuneInString(l[j:])
			if unicode.IsSpace(r) {
				break
			}
			j += size
		}
		if wordStart == j { // trailing spaces: not part of any chunk
			break
		}
		w := l[wordStart:j]
		if t := EstimateTokens(l[i:j]); t <= max {
			units = append(units, unit{line: line, from: i, to: j, tokens: t, cut: cut})
		} else {
			units = appendPieces(units, line, l, wordStart, j, cut, max)
		}
		cut = cutWord
		switch w[len(w)-1] {
		case '.', '!', '?', ';', ':':
			cut = cutSentence
		}
		i = j
	}
	return units
}

// skipSpace returns the offset of the first non-space rune in l at or
// after i.
func skipSpace(l string, i int) int {
	for i < len(l) {
		r, size := utf8.DecodeRuneInString(l[i:])
		if !unicode.IsSpace(r) {
			break
		}
		i += size
	}
	return i
}

// appendPieces cuts l[from:to], a single word longer than max tokens, at
// rune boundaries into pieces of at most max tokens (each at least one
// rune).
func appendPieces(units []unit, line int, l string, from, to, cut, max int) []unit {
	var bounds []int
	start := from
	for start < to {
		// No run of characters costs less than a token per 6 bytes, so a
		// piece is never longer than that; bisect the rune boundaries
		// below the bound for the longest piece that fits.
		bounds = bounds[:0]
		limit := min(to, start+6*max+16)
		for i := start; i < limit; {
			_, size := utf8.DecodeRuneInString(l[i:to])
			i += size
			bounds = append(bounds, i)
		}
		lo, hi := 0, len(bounds)-1
		for lo < hi {
			mid := (lo + hi + 1) / 2
			if EstimateTokens(l[start:bounds[mid]]) <= max {
				lo = mid
			} else {
				hi = mid - 1
			}
		}
		end := bounds[lo]
		units = append(units, unit{line: line, from: start, to: end, tokens: EstimateTokens(l[start:end]), cut: cut})
		cut = cutWord
		start = end
	}
	return units
}

// SplitDialogue cuts a conversation into chunks of opts.Turns turns,
// each sharing its first turn with the chunk before, so that an exchange
// (a question and its answer) is whole in some chunk. A turn starts at a
// line that opts.Turn matches, a bold speaker label ("**Maya:**") or a
// heading below the title ("## Prompt 3"), outside fenced code, and runs
// to the next; what comes before the first turn (a file's title and
// preamble) is left out. A window
// longer than opts.MaxTokens is cut further as Split cuts. A body
// without turns is cut by Split.
func SplitDialogue(body string, firstLine int, opts Options) []Chunk {
	opts = opts.WithDefaults()
	firstLine = max(firstLine, 1)
	lines := bodyLines(body)
	starts := startsOutsideCode(lines, func(l string) bool { // the first line of each turn
		return isSubheading(l) || isTurn(opts.Turn, l) || isSpeaker(l)
	})
	// A heading with nothing under it before the next turn ("## Session
	// 7 · 2024-11-28") starts no turn: it is the previous one's, or the
	// preamble's.
	starts = append(starts, len(lines))
	kept := starts[:0]
	for i, s := range starts[:len(starts)-1] {
		if isHeading(lines[s]) && blank(lines[s+1:starts[i+1]]) {
			continue
		}
		kept = append(kept, s)
	}
	starts = append(kept, len(lines))
	if len(starts) == 1 {
		return Split(body, firstLine, opts)
	}
	turns := len(starts) - 1
	step := max(1, opts.Turns-1)
	var chunks []Chunk
	for t := 0; t < turns; t += step {
		from, to := starts[t], starts[min(t+opts.Turns, turns)]
		// Blank lines never begin or end a chunk.
		for from < to && strings.TrimSpace(lines[from]) == "" {
			from++
		}
		for to > from && strings.TrimSpace(lines[to-1]) == "" {
			to--
		}
		if from < to {
			chunks = appendWindow(chunks, lines, from, to, firstLine, opts)
		}
		if t+opts.Turns >= turns {
			break
		}
	}
	return chunks
}

// startsOutsideCode returns the indexes of the lines outside fenced code
// for which start holds.
func startsOutsideCode(lines []string, start func(string) bool) []int {
	var out []int
	inFence := false
	for i, l := range lines {
		switch {
		case isFence(l):
			inFence = !inFence
		case inFence:
		case start(l):
			out = append(out, i)
		}
	}
	return out
}

// blank reports whether lines are all white space.
func blank(lines []string) bool {
	for _, l := range lines {
		if strings.TrimSpace(l) != "" {
			return false
		}
	}
	return true
}

// labelRE matches a line that is a bold label alone ("**Decisions**"),
// which heads a section of a summary.
var labelRE = lazyre.New(`^\*\*[^*\n]{1,64}\*\*:?\s*$`)

// SplitSections cuts a body into one chunk per section: a section starts
// at a heading below the title or a line that is a bold label alone
// ("**Decisions**"), outside fenced code, and runs to the next. A section
// with nothing under its heading, and what comes before the first
// section, form no chunk; sections that follow each other share one
// while they hold no more than a quarter of opts.MaxTokens together; a
// section longer than opts.MaxTokens is cut further as Split cuts. A
// body without sections is cut by Split.
func SplitSections(body string, firstLine int, opts Options) []Chunk {
	opts = opts.WithDefaults()
	firstLine = max(firstLine, 1)
	lines := bodyLines(body)
	starts := startsOutsideCode(lines, func(l string) bool { return isSubheading(l) || isLabel(l) })
	if len(starts) == 0 {
		return Split(body, firstLine, opts)
	}
	starts = append(starts, len(lines))
	// Sections are kept whole, and small ones that follow each other
	// share a chunk up to a quarter of MaxTokens: a summary of a few
	// short segments is one hit, as its parts are too thin to find alone.
	var chunks []Chunk
	from, to, sum := -1, -1, 0
	flush := func() {
		if from >= 0 {
			chunks = appendWindow(chunks, lines, from, to, firstLine, opts)
		}
		from, to, sum = -1, -1, 0
	}
	for i, s := range starts[:len(starts)-1] {
		e := starts[i+1]
		for e > s && strings.TrimSpace(lines[e-1]) == "" {
			e--
		}
		if e-s < 2 {
			continue // a heading alone
		}
		n := EstimateTokens(strings.Join(lines[s:e], "\n"))
		if from >= 0 && sum+n > opts.MaxTokens/4 {
			flush()
		}
		if from < 0 {
			from = s
		}
		to, sum = e, sum+n
	}
	flush()
	return chunks
}

// appendWindow adds lines[from:to] as a chunk, or as Split cuts it when
// it is longer than opts.MaxTokens.
func appendWindow(chunks []Chunk, lines []string, from, to, firstLine int, opts Options) []Chunk {
	text := strings.Join(lines[from:to], "\n")
	if n := EstimateTokens(text); n <= opts.MaxTokens {
		return append(chunks, Chunk{
			Seq: len(chunks), StartLine: firstLine + from, EndLine: firstLine + to - 1,
			EndCol: len(lines[to-1]), Text: text, Tokens: n,
		})
	}
	for _, c := range Split(text, firstLine+from, opts) {
		c.Seq = len(chunks)
		chunks = append(chunks, c)
	}
	return chunks
}

// bodyLines are body's lines without their carriage returns.
func bodyLines(body string) []string {
	lines := strings.Split(body, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimSuffix(l, "\r")
	}
	return lines
}

// The patterns of lines are tried only on lines that can match them, by
// their first byte: a regular expression costs more to set up than most
// lines take to rule out, and every line of every file is tried.

// lead is l's first byte after at most three spaces, 0 if there is none.
func lead(l string) byte {
	for i := 0; i < len(l) && i <= 3; i++ {
		if l[i] != ' ' {
			return l[i]
		}
	}
	return 0
}

func isFence(l string) bool {
	c := lead(l)
	return (c == '`' || c == '~') && fenceRE.MatchString(l)
}

func isHeading(l string) bool    { return lead(l) == '#' && headingRE.MatchString(l) }
func isSubheading(l string) bool { return lead(l) == '#' && subheadingRE.MatchString(l) }
func isSpeaker(l string) bool    { return strings.HasPrefix(l, "**") && speakerRE.MatchString(l) }
func isLabel(l string) bool      { return strings.HasPrefix(l, "**") && labelRE.MatchString(l) }

// A matcher is a *regexp.Regexp or a *lazyre.Regexp.
type matcher interface{ MatchString(string) bool }

// isTurn is turn.MatchString(l); defaultTurn matches only lines that
// start with a star or a speaker's capital.
func isTurn(turn matcher, l string) bool {
	if isDefaultTurn(turn) && (l == "" || !strings.ContainsRune("*UAHSTC", rune(l[0]))) {
		return false
	}
	return turn.MatchString(l)
}

// isDefaultTurn tells whether turn is defaultTurn, lazy or compiled (as
// WithDefaults sets it).
func isDefaultTurn(turn matcher) bool {
	switch t := turn.(type) {
	case *lazyre.Regexp:
		return t == defaultTurn
	case *regexp.Regexp:
		return t == defaultTurn.Regexp()
	}
	return false
}
