package echo

import (
	"strings"

	"github.com/cairn-mem/cairn/internal/lazyre"
	"github.com/cairn-mem/cairn/internal/prose"
)

const (
	// minWords: a shorter sentence ("Done.", "Tests pass.") says too
	// little to tell a recap from a coincidence, and costs nothing kept;
	// one that names a value (a port, a path) may have a word less.
	minWords = 4
	// minShare of a sentence's content words must be in the told text.
	// A recap draws on many lines of it (the port from one session, the
	// open items from another), so the share is of the whole; a sentence
	// that says something new has a word of its own.
	minShare = 0.9
)

var (
	// turn words are kept out of content words (prose's stop words) but
	// decide what a sentence says: "no longer", "instead", "moved".
	turnWords = map[string]bool{"not": true, "no": true, "never": true, "none": true, "nothing": true, "instead": true,
		"anymore": true, "longer": true, "without": true, "won't": true, "don't": true, "doesn't": true, "isn't": true,
		"aren't": true, "wasn't": true, "weren't": true, "can't": true, "cannot": true, "didn't": true, "switch": true,
		"switched": true, "move": true, "moved": true, "replace": true, "replaced": true, "drop": true, "dropped": true,
		"rather": true, "now": true}
	tokenRE = lazyre.New(`[\p{L}\p{N}']+`)
	// stillOpen leads a sentence that says what is still to do: read
	// back ("Still open from before: the weekly reject report, and the
	// library's wired 802.1X"), it says the items are open as of this
	// session, which is news to a pack that would drop them as old.
	stillOpen = lazyre.New(`(?i)^\W*(?:still (?:open|to do|pending|left|outstanding|not done)|(?:the )?open items?|(?:left|remaining) to do|not (?:yet )?done|outstanding|todo|to-do|what(?:'s| is) left)\b`)
	// valueRE are the words that name a value rather than say something
	// of it: a digit, a path, a dotted or snake_case name.
	valueRE = lazyre.New(`[\p{L}\p{N}_./-]*(?:\p{N}|[\p{L}\p{N}][._/][\p{L}\p{N}])[\p{L}\p{N}_./-]*`)
)

// Told is what a session was given at its start, read for Echoes.
type Told struct {
	text   string          // lower case
	tokens string          // its words, one space apart and around
	words  map[string]bool // content words
	values map[string]bool // valueRE's, trimmed
}

// Read reads the text a session was told; nil for none.
func Read(text string) *Told {
	if strings.TrimSpace(text) == "" {
		return nil
	}
	low := strings.ToLower(strings.ReplaceAll(text, "’", "'"))
	t := &Told{text: low, tokens: " " + strings.Join(tokenRE.FindAllString(low, -1), " ") + " ", words: map[string]bool{}}
	for _, w := range prose.ContentWords(text) {
		t.words[w] = true
	}
	t.values = map[string]bool{}
	for _, v := range valueRE.FindAllString(low, -1) {
		t.values[trimValue(v)] = true
	}
	return t
}

// Echoes reports whether the sentence s says again what t holds.
func (t *Told) Echoes(s string) bool {
	if t == nil {
		return false
	}
	if stillOpen.MatchString(s) {
		return false
	}
	ws := prose.ContentWords(s)
	low := strings.ToLower(s)
	values := valueRE.FindAllString(low, -1)
	if len(ws) < minWords && (len(values) == 0 || len(ws) < minWords-1) {
		return false
	}
	// A turn word counts with the word after it: "no longer uses" is
	// not what "no longer holds" said.
	toks := tokenRE.FindAllString(strings.ReplaceAll(low, "’", "'"), -1)
	for i, w := range toks {
		if !turnWords[w] {
			continue
		}
		pair := " " + w + " "
		if i+1 < len(toks) {
			pair += toks[i+1] + " "
		}
		if !strings.Contains(t.tokens, pair) {
			return false
		}
	}
	// A change read back names what it replaced as the told one did;
	// one that replaces something else is news.
	if ok, old := prose.Change(s); ok {
		for _, v := range old {
			if !strings.Contains(t.text, v) {
				return false
			}
		}
	}
	for _, v := range values {
		if v = trimValue(v); v != "" && !t.told(v) {
			return false
		}
	}
	in := 0
	for _, w := range ws {
		if t.has(w) {
			in++
		}
	}
	if m := recapLabel.FindStringSubmatch(s); m != nil && len(ws) > 1 && ws[0] == strings.ToLower(m[1]) && !t.has(ws[0]) {
		ws = ws[1:] // "Rules: never edit …" heads what it reads back with a word of its own
	}
	return float64(in) >= minShare*float64(len(ws))
}

// recapLabel heads a line of a recap: "Rules:", "Open:".
var recapLabel = lazyre.New(`^(\pL+):\s`)

// has reports whether the told text holds the content word w: as it is,
// a value it names, in the singular or the plural ("logs" of "log"), or,
// hyphenated, each of its parts ("JSON-line" of "JSON lines").
func (t *Told) has(w string) bool {
	if t.words[w] || t.told(trimValue(w)) || t.words[w+"s"] || strings.HasSuffix(w, "s") && t.words[strings.TrimSuffix(w, "s")] {
		return true
	}
	if !strings.Contains(w, "-") {
		return false
	}
	for _, p := range strings.Split(w, "-") {
		if p != "" && !t.has(p) {
			return false
		}
	}
	return true
}

func trimValue(v string) string { return strings.Trim(v, "./-_") }

// told reports whether t names the value v: as it is, or as the end of
// a path ("links.db" of "/srv/linkshort/links.db"). "81" is not in
// "8181".
func (t *Told) told(v string) bool {
	if t.values[v] {
		return true
	}
	for tv := range t.values {
		if strings.HasSuffix(tv, "/"+v) {
			return true
		}
	}
	return false
}
