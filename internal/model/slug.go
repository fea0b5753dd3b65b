package model

import (
	"strings"
	"unicode"
)

// maxSlugLen bounds a slug so that file names stay readable in listings and
// well under file-system name limits once the id is appended.
const maxSlugLen = 50

// Slug turns a title into the readable part of an item's file name: the
// title's words in lower-case ASCII joined by '-', with accents and common
// ligatures folded ("Café Œuvre" gives "cafe-oeuvre") and apostrophes
// dropped ("don't" gives "dont"). Letters that do not fold to ASCII separate
// words. The result is at most 50 bytes, cut at a word boundary (a single
// longer word is cut inside). A title with no usable letters gives "item".
//
// A slug holds only [a-z0-9-], never starts or ends with '-' and never
// contains "--", so it is always a safe single path element and the id that
// follows "--" in a file name can be found again.
func Slug(title string) string {
	var words []string
	var w strings.Builder
	flush := func() {
		if w.Len() > 0 {
			words = append(words, w.String())
			w.Reset()
		}
	}
	for _, r := range title {
		r = unicode.ToLower(r)
		switch {
		case 'a' <= r && r <= 'z', '0' <= r && r <= '9':
			w.WriteRune(r)
		case r == '\'' || r == '’' || r == 'ʼ':
			// Inside a word, not between words.
		default:
			if f := fold(r); f != "" {
				w.WriteString(f)
			} else {
				flush()
			}
		}
	}
	flush()

	var b strings.Builder
	for _, word := range words {
		if b.Len() == 0 {
			b.WriteString(word[:min(len(word), maxSlugLen)])
			continue
		}
		if b.Len()+1+len(word) > maxSlugLen {
			break
		}
		b.WriteByte('-')
		b.WriteString(word)
	}
	if b.Len() == 0 {
		return "item"
	}
	return b.String()
}

// fold returns the ASCII spelling of a lower-case Latin letter with a
// diacritic or a ligature, or "" when there is no easy one.
func fold(r rune) string {
	switch r {
	case 'à', 'á', 'â', 'ã', 'ä', 'å', 'ā', 'ă', 'ą', 'ǎ', 'ȧ':
		return "a"
	case 'æ':
		return "ae"
	case 'ç', 'ć', 'ĉ', 'ċ', 'č':
		return "c"
	case 'ď', 'đ', 'ð':
		return "d"
	case 'è', 'é', 'ê', 'ë', 'ē', 'ĕ', 'ė', 'ę', 'ě', 'ẽ':
		return "e"
	case 'ĝ', 'ğ', 'ġ', 'ģ':
		return "g"
	case 'ĥ', 'ħ':
		return "h"
	case 'ì', 'í', 'î', 'ï', 'ĩ', 'ī', 'ĭ', 'į', 'ı', 'ǐ':
		return "i"
	case 'ĳ':
		return "ij"
	case 'ĵ':
		return "j"
	case 'ķ':
		return "k"
	case 'ĺ', 'ļ', 'ľ', 'ŀ', 'ł':
		return "l"
	case 'ñ', 'ń', 'ņ', 'ň', 'ŉ':
		return "n"
	case 'ò', 'ó', 'ô', 'õ', 'ö', 'ø', 'ō', 'ŏ', 'ő', 'ǒ':
		return "o"
	case 'œ':
		return "oe"
	case 'ŕ', 'ŗ', 'ř':
		return "r"
	case 'ś', 'ŝ', 'ş', 'š', 'ș':
		return "s"
	case 'ß':
		return "ss"
	case 'ţ', 'ť', 'ŧ', 'ț':
		return "t"
	case 'þ':
		return "th"
	case 'ù', 'ú', 'û', 'ü', 'ũ', 'ū', 'ŭ', 'ů', 'ű', 'ų', 'ǔ':
		return "u"
	case 'ŵ':
		return "w"
	case 'ý', 'ÿ', 'ŷ':
		return "y"
	case 'ź', 'ż', 'ž':
		return "z"
	}
	return ""
}
