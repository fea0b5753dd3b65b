package redact

import "math"

// entropyNear redacts a high-entropy string at most three words after a
// secret-looking name on the same line: "the API key is 9f8e…". After the
// bare word "key", a UUID is an id more often than a key.
func entropyNear(text string, from int, bareKey bool, spans *[]span) {
	limit := min(len(text), from+48)
	words := 0
	for k := from; k < limit; k++ {
		c := text[k]
		if c == '\n' {
			return
		}
		if !entropyChars[c] {
			continue
		}
		e := k
		for e < len(text) && e-k < 4096 && entropyChars[text[e]] {
			e++
		}
		v := text[k:e]
		if len(v) >= 20 && highEntropy(v) && !(bareKey && uuid(v)) {
			*spans = append(*spans, span{start: k, end: e, kind: "secret", prio: prioEntropy})
			return
		}
		if words++; words > 3 {
			return
		}
		k = e
	}
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
