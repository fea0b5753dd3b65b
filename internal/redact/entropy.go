package redact

import (
	"math"
	"strings"
)

// entropyNear redacts a high-entropy value at most three words after a
// secret-looking name on the same line: "the API key is 9f8e…". After the
// bare word "key", a UUID is an id more often than a key.
//
// A word is what lies between spaces, quotes, backslashes (the escapes of
// JSON-escaped text) and angle brackets, so a value with punctuation or
// non-ASCII characters in it ("Pw8U…!9") is one word and is redacted whole:
// the span is the word, less the punctuation that ends a sentence, never
// just the run of base64-like characters that made it look random.
func entropyNear(text string, from int, bareKey bool, spans *[]span) {
	limit := min(len(text), from+48)
	words := 0
	for k := from; k < limit; {
		c := text[k]
		if c == '\n' {
			return
		}
		if isMarkerAt(text, k) {
			// Redacted already: a word of its own.
			e := strings.IndexByte(text[k:], ']')
			if e < 0 {
				return
			}
			k += e + 1
			if words++; words > 3 {
				return
			}
			continue
		}
		if !valueByte[c] {
			k++
			continue
		}
		e := k + 1
		for e < len(text) && e-k < 4096 && valueByte[text[e]] && !isMarkerAt(text, e) {
			e++
		}
		ws, we := trimWord(text, k, e)
		if ws < we && secretWord(text[ws:we], bareKey) {
			*spans = append(*spans, span{start: ws, end: we, kind: "secret", prio: prioEntropy})
			return
		}
		if wordish(text[k:e]) {
			if words++; words > 3 {
				return
			}
		}
		k = e
	}
}

// valueByte: the bytes a word next to a secret's name is made of. Every
// byte of a multi-byte UTF-8 character is one (0x80 and up).
var valueByte = func() *[256]bool {
	var t [256]bool
	for c := 0x21; c < 256; c++ {
		t[c] = true
	}
	for _, c := range "\"'`\\<>\x7f" {
		t[c] = false
	}
	return &t
}()

// trimWord drops what ends a sentence or encloses a word: trailing
// ".,;:", and brackets or parentheses that are not matched inside it.
func trimWord(text string, s, e int) (int, int) {
	for e > s {
		c := text[e-1]
		switch c {
		case '.', ',', ';', ':':
			e--
			continue
		case ')', ']', '}':
			if strings.IndexByte(text[s:e-1], opener(c)) < 0 {
				e--
				continue
			}
		}
		break
	}
	for s < e {
		c := text[s]
		if (c == '(' || c == '[' || c == '{') && strings.IndexByte(text[s+1:e], closer(c)) < 0 {
			s++
			continue
		}
		break
	}
	return s, e
}

func opener(c byte) byte {
	switch c {
	case ')':
		return '('
	case ']':
		return '['
	}
	return '{'
}

func closer(c byte) byte {
	switch c {
	case '(':
		return ')'
	case '[':
		return ']'
	}
	return '}'
}

// wordish: a word that counts towards the three looked at, one with a
// letter or digit in it (not "=", ":" or "-").
func wordish(w string) bool {
	for i := 0; i < len(w); i++ {
		if alnum[w[i]] {
			return true
		}
	}
	return false
}

// secretWord judges a word near a secret's name: a run of base64-like
// characters in it of at least 20 bytes with high entropy, or the whole
// word (punctuation and all) of at least 20 bytes with high entropy,
// unless it is a URL, an e-mail address or a path.
func secretWord(w string, bareKey bool) bool {
	for i := 0; i < len(w); {
		if !entropyChars[w[i]] {
			i++
			continue
		}
		e := i
		for e < len(w) && entropyChars[w[e]] {
			e++
		}
		if v := w[i:e]; len(v) >= 20 && highEntropy(v) && !(bareKey && uuid(v)) {
			return true
		}
		i = e
	}
	if len(w) < 20 || addressLike(w) {
		return false
	}
	return highEntropy(w) && !(bareKey && uuid(w))
}

// addressLike: words that are addresses of something rather than secrets.
func addressLike(w string) bool {
	if strings.Contains(w, "://") || path(w) {
		return true
	}
	if at := strings.IndexByte(w, '@'); at > 0 && strings.IndexByte(w[at:], '.') > 0 {
		return true
	}
	return false
}

// uuid: 8-4-4-4-12 hex digits.
func uuid(v string) bool {
	if len(v) != 36 {
		return false
	}
	for i := 0; i < len(v); i++ {
		if i == 8 || i == 13 || i == 18 || i == 23 {
			if v[i] != '-' {
				return false
			}
		} else if !lowHex[v[i]] && !(v[i] >= 'A' && v[i] <= 'F') {
			return false
		}
	}
	return true
}

// highEntropy: at least 20 bytes mixing letters and digits, and at least
// 3.5 bits of Shannon entropy per byte (3.0 for hex, whose alphabet is 16).
func highEntropy(v string) bool {
	var counts [256]int
	var digit, letter, nonHex bool
	for i := 0; i < len(v); i++ {
		c := v[i]
		counts[c]++
		switch {
		case isDigit(c):
			digit = true
		case isLower(c) || isUpper(c):
			letter = true
			if !(c >= 'a' && c <= 'f') {
				nonHex = true
			}
		default:
			nonHex = true
		}
	}
	if !digit || !letter {
		return false
	}
	h := 0.0
	n := float64(len(v))
	for _, k := range counts {
		if k > 0 {
			p := float64(k) / n
			h -= p * math.Log2(p)
		}
	}
	if !nonHex {
		return h >= 3.0
	}
	return h >= 3.5
}
