package coderef

import (
	"path"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/cairn-mem/cairn/internal/lazyre"
)

// A Candidate is what a text names that may be an anchor: a path (with a
// line, perhaps) or a symbol. It becomes an anchor only when it resolves
// in the project's tree.
type Candidate struct {
	Path   string // slash-separated, as written (cleaned); "" for a symbol
	Line   int    // of a file:line, else 0
	Symbol string // an identifier, else ""
	// Quoted is true for a candidate in backticks or of the form
	// file:line: the text claims it as code, so that a path outside the
	// project is reported rather than passed over.
	Quoted bool
}

// maxCandidates bounds what one text yields: a memory is prose, not a
// file list, and a pasted listing must not cost a lookup per line.
const maxCandidates = 200

var (
	backticked = lazyre.New("`([^`\n]{1,300})`")
	lineRef    = lazyre.New(`^(.+?):([0-9]{1,7})(?::[0-9]{1,7})?$`)
	ident      = lazyre.New(`^[A-Za-z_][A-Za-z0-9_]*$`)
	fileName   = lazyre.New(`^[A-Za-z0-9_.+-]*[A-Za-z0-9_]\.[A-Za-z][A-Za-z0-9]{0,5}$`)
)

// Extract returns the anchor candidates a text names, in order, each
// once: what is in backticks, file:line forms, bare tokens that look like
// paths, and bare identifiers that look like code (mixedCase or
// snake_case, four characters or more). It does no I/O.
func Extract(text string) []Candidate {
	var out []Candidate
	seen := make(map[Candidate]bool)
	add := func(c Candidate) {
		if len(out) < maxCandidates && !seen[c] {
			seen[c] = true
			out = append(out, c)
		}
	}
	rest := backticked.ReplaceAllStringFunc(text, func(s string) string {
		for _, c := range token(s[1:len(s)-1], true) {
			add(c)
		}
		return " "
	})
	for _, f := range strings.FieldsFunc(rest, isSeparator) {
		for _, c := range token(f, false) {
			add(c)
		}
	}
	return out
}

func isSeparator(r rune) bool {
	switch r {
	case ' ', '\t', '\n', '\r', '(', ')', '[', ']', '{', '}', '<', '>', ',', ';', '"', '\'', '|', '*', '!', '?', '=':
		return true
	}
	return false
}

// token reads one backticked span or bare word.
func token(s string, quoted bool) []Candidate {
	s = strings.TrimSpace(s)
	if !quoted {
		s = strings.TrimRight(s, ".:")
	}
	if s == "" || strings.ContainsAny(s, " \t") || strings.Contains(s, "://") {
		return nil
	}
	if m := lineRef.FindStringSubmatch(s); m != nil {
		if p, ok := pathLike(m[1]); ok {
			n, err := strconv.Atoi(m[2])
			if err == nil && n > 0 {
				return []Candidate{{Path: p, Line: n, Quoted: true}}
			}
		}
	}
	var out []Candidate
	if p, ok := pathLike(s); ok {
		out = append(out, Candidate{Path: p, Quoted: quoted})
	}
	if sym := symbolLike(s, quoted); sym != "" {
		out = append(out, Candidate{Symbol: sym, Quoted: quoted})
	}
	return out
}

// pathLike cleans s if it looks like a path: it has a slash, or it is a
// file name with an extension.
func pathLike(s string) (string, bool) {
	s = strings.TrimPrefix(s, "./")
	if s == "" || strings.HasPrefix(s, "-") || strings.ContainsAny(s, "\\$%`") || !utf8.ValidString(s) {
		return "", false
	}
	if !strings.Contains(s, "/") && (len(s) < 4 || !fileName.MatchString(s)) {
		return "", false // "e.g" is no file name
	}
	if strings.Contains(s, "/") && !strings.ContainsAny(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ") {
		return "", false // "/", "1/2", "../.."
	}
	abs := strings.HasPrefix(s, "/")
	c := path.Clean(s)
	if abs {
		c = "/" + strings.TrimPrefix(c, "/")
	}
	return c, true
}

// symbolLike returns the identifier s names, or "": in backticks a name
// (Retry, Retry(), queue.Retry, Queue::retry) of three characters or
// more; bare, only qualified (queue.Retry), mixedCase or snake_case
// names of four or more, so that plain words are not looked up.
func symbolLike(s string, quoted bool) string {
	if quoted {
		s = strings.TrimSuffix(s, "()")
		s = strings.TrimLeft(s, "&*")
		if i := strings.LastIndexAny(s, ".:"); i >= 0 {
			s = s[i+1:]
		}
		if len(s) >= 3 && ident.MatchString(s) {
			return s
		}
		return ""
	}
	s = strings.TrimSuffix(s, "()")
	qualified := false // pkg.Name, recv.Method: code, whatever the name's case
	if i := strings.LastIndexByte(s, '.'); i >= 0 {
		qualified = ident.MatchString(s[:i])
		s = s[i+1:]
	}
	if len(s) < 4 || !ident.MatchString(s) {
		return ""
	}
	if qualified || codeLike(s) {
		return s
	}
	return ""
}

// codeLike reports whether a bare word is spelled like code: an upper
// case letter after a lower case one (retryPolicy, RetryPolicy), or an
// underscore between letters (retry_policy).
func codeLike(s string) bool {
	for i := 1; i < len(s); i++ {
		a, b := s[i-1], s[i]
		if a >= 'a' && a <= 'z' && b >= 'A' && b <= 'Z' {
			return true
		}
		if b == '_' && i+1 < len(s) && isLetter(a) && isLetter(s[i+1]) {
			return true
		}
	}
	return false
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
