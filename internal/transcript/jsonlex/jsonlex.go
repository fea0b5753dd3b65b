package jsonlex

import (
	"bytes"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// Lexer reads the fields it is asked for out of one JSON value without
// building a tree, and skips everything else. Claude Code lines are mostly
// tool output the parser does not keep twice; skipping a string costs a
// memchr, where encoding/json validates, copies and decodes each value it
// is handed two or three times over.
//
// The Lexer never panics. Malformed input sets err and moves to the end.
// Skipped values are checked for structure (brackets, strings, literals)
// but not every detail of JSON (the digits of numbers, control characters
// in strings): what is not kept need not be exact.
type Lexer struct {
	b     []byte
	i     int
	err   error
	stack []byte // closing brackets of the values skip is inside
}

// New returns a lexer over b, which it does not copy.
func New(b []byte) Lexer { return Lexer{b: b} }

// Err is the first error the lexer met, if any.
func (l *Lexer) Err() error { return l.err }

// maxDepth bounds the nesting skip accepts.
const maxDepth = 10000

var errEnd = errors.New("unexpected end of JSON input")

func (l *Lexer) fail(err error) {
	if l.err == nil {
		l.err = err
	}
	l.i = len(l.b)
}

func (l *Lexer) failf(format string, args ...any) {
	l.fail(fmt.Errorf(format+" at column %d", append(args, l.i+1)...))
}

func (l *Lexer) ws() {
	for l.i < len(l.b) {
		switch l.b[l.i] {
		case ' ', '\t', '\n', '\r':
			l.i++
		default:
			return
		}
	}
}

// peek returns the next byte that is not white space, or 0 at the end.
func (l *Lexer) Peek() byte {
	l.ws()
	if l.i >= len(l.b) {
		return 0
	}
	return l.b[l.i]
}

func (l *Lexer) eat(c byte) bool {
	if l.Peek() == c {
		l.i++
		return true
	}
	return false
}

// end checks that nothing but white space follows the value read.
func (l *Lexer) End() {
	if l.Peek() != 0 {
		l.failf("invalid character %q after top-level value", l.b[l.i])
	}
}

// object calls fn with each key of the object that comes next; fn reads
// the key's value or leaves it, and then it is skipped. It reports false,
// skipping the value, when the value is not an object.
func (l *Lexer) Object(fn func(key []byte)) bool {
	if l.Peek() != '{' {
		l.Skip()
		return false
	}
	l.i++
	if l.eat('}') {
		return true
	}
	for l.err == nil {
		if l.Peek() != '"' {
			l.failf("invalid character %q looking for beginning of object key string", l.peekByte())
			return true
		}
		key := l.keyBytes()
		if !l.eat(':') {
			l.failf("invalid character %q after object key", l.peekByte())
			return true
		}
		l.ws()
		at := l.i
		fn(key)
		if l.i == at && l.err == nil {
			l.Skip()
		}
		if l.eat(',') {
			continue
		}
		if !l.eat('}') {
			l.failf("invalid character %q after object key:value pair", l.peekByte())
		}
		return true
	}
	return true
}

// array calls fn for each element of the array that comes next; fn reads
// the element or leaves it, and then it is skipped. It reports false,
// skipping the value, when the value is not an array.
func (l *Lexer) Array(fn func()) bool {
	if l.Peek() != '[' {
		l.Skip()
		return false
	}
	l.i++
	if l.eat(']') {
		return true
	}
	for l.err == nil {
		l.ws()
		at := l.i
		fn()
		if l.i == at && l.err == nil {
			l.Skip()
		}
		if l.eat(',') {
			continue
		}
		if !l.eat(']') {
			l.failf("invalid character %q after array element", l.peekByte())
		}
		return true
	}
	return true
}

func (l *Lexer) peekByte() byte {
	if l.i < len(l.b) {
		return l.b[l.i]
	}
	l.fail(errEnd)
	return 0
}

// keyBytes reads an object key. Keys with escapes are unquoted; others are
// returned in place.
func (l *Lexer) keyBytes() []byte {
	start := l.i + 1
	end := l.stringEnd()
	if l.err != nil {
		return nil
	}
	if key := l.b[start:end]; bytes.IndexByte(key, '\\') >= 0 {
		return []byte(l.unquote(key))
	}
	return l.b[start:end]
}

// stringEnd finds the closing quote of the string starting at l.i, moves
// past it and returns its index.
func (l *Lexer) stringEnd() int {
	start := l.i + 1
	i := start
	for {
		j := bytes.IndexByte(l.b[i:], '"')
		if j < 0 {
			l.fail(errEnd)
			return start
		}
		i += j
		n := 0
		for k := i - 1; k >= start && l.b[k] == '\\'; k-- {
			n++
		}
		if n%2 == 0 {
			l.i = i + 1
			return i
		}
		i++
	}
}

// str reads a string. ok is false, and the value skipped, for anything else
// (null included).
func (l *Lexer) Str() (s string, ok bool) {
	if l.Peek() != '"' {
		l.Skip()
		return "", false
	}
	start := l.i + 1
	end := l.stringEnd()
	if l.err != nil {
		return "", false
	}
	raw := l.b[start:end]
	if bytes.IndexByte(raw, '\\') >= 0 {
		return l.unquote(raw), true
	}
	if !utf8.Valid(raw) {
		return validUTF8(string(raw)), true
	}
	return string(raw), true
}

// unquote decodes the escapes of a string's content.
func (l *Lexer) unquote(raw []byte) string {
	var sb strings.Builder
	sb.Grow(len(raw))
	for len(raw) > 0 {
		i := bytes.IndexByte(raw, '\\')
		if i < 0 {
			sb.Write(raw)
			break
		}
		sb.Write(raw[:i])
		raw = raw[i:]
		if len(raw) < 2 {
			l.failf("invalid escape in string")
			return ""
		}
		switch c := raw[1]; c {
		case '"', '\\', '/':
			sb.WriteByte(c)
		case 'b':
			sb.WriteByte('\b')
		case 'f':
			sb.WriteByte('\f')
		case 'n':
			sb.WriteByte('\n')
		case 'r':
			sb.WriteByte('\r')
		case 't':
			sb.WriteByte('\t')
		case 'u':
			r, ok := hex4(raw[2:])
			if !ok {
				l.failf("invalid \\u escape in string")
				return ""
			}
			raw = raw[6:]
			if utf16.IsSurrogate(r) {
				r2 := rune(-1)
				if len(raw) >= 6 && raw[0] == '\\' && raw[1] == 'u' {
					r2, _ = hex4(raw[2:])
				}
				if d := utf16.DecodeRune(r, r2); d != utf8.RuneError {
					r = d
					raw = raw[6:]
				} else {
					r = utf8.RuneError
				}
			}
			sb.WriteRune(r)
			continue
		default:
			l.failf("invalid escape '\\%c' in string", c)
			return ""
		}
		raw = raw[2:]
	}
	s := sb.String()
	if !utf8.ValidString(s) {
		s = validUTF8(s)
	}
	return s
}

// validUTF8 replaces each byte of s that is not part of valid UTF-8 with
// U+FFFD, as encoding/json does.
func validUTF8(s string) string {
	var sb strings.Builder
	sb.Grow(len(s) + 8)
	for _, r := range s {
		sb.WriteRune(r) // range yields RuneError for each invalid byte
	}
	return sb.String()
}

func hex4(b []byte) (rune, bool) {
	if len(b) < 4 {
		return 0, false
	}
	var r rune
	for _, c := range b[:4] {
		switch {
		case c >= '0' && c <= '9':
			c -= '0'
		case c >= 'a' && c <= 'f':
			c -= 'a' - 10
		case c >= 'A' && c <= 'F':
			c -= 'A' - 10
		default:
			return 0, false
		}
		r = r<<4 | rune(c)
	}
	return r, true
}

// boolean reads true or false; ok is false, and the value skipped, for
// anything else.
func (l *Lexer) boolean() (v, ok bool) {
	switch l.Peek() {
	case 't':
		l.literal("true")
		return true, l.err == nil
	case 'f':
		l.literal("false")
		return false, l.err == nil
	}
	l.Skip()
	return false, false
}

// isNull reads null if it comes next.
func (l *Lexer) IsNull() bool {
	if l.Peek() == 'n' {
		l.literal("null")
		return l.err == nil
	}
	return false
}

// integer reads a number, truncated; ok is false, and the value skipped,
// for anything else.
func (l *Lexer) integer() (int64, bool) {
	c := l.Peek()
	if c != '-' && (c < '0' || c > '9') {
		l.Skip()
		return 0, false
	}
	tok := l.number()
	if n, err := strconv.ParseInt(string(tok), 10, 64); err == nil {
		return n, true
	}
	f, err := strconv.ParseFloat(string(tok), 64)
	if err != nil {
		l.failf("invalid number %q", tok)
		return 0, false
	}
	return int64(f), true
}

func (l *Lexer) number() []byte {
	start := l.i
	for l.i < len(l.b) {
		switch c := l.b[l.i]; {
		case c >= '0' && c <= '9', c == '-', c == '+', c == '.', c == 'e', c == 'E':
			l.i++
			continue
		}
		break
	}
	if l.i == start {
		l.failf("invalid character %q looking for beginning of value", l.peekByte())
	}
	return l.b[start:l.i]
}

func (l *Lexer) literal(word string) {
	if !bytes.HasPrefix(l.b[l.i:], []byte(word)) {
		if len(l.b)-l.i < len(word) && bytes.HasPrefix([]byte(word), l.b[l.i:]) {
			l.fail(errEnd)
			return
		}
		l.failf("invalid literal, want %s", word)
		return
	}
	l.i += len(word)
}

// raw skips the next value and returns its bytes.
func (l *Lexer) Raw() []byte {
	l.ws()
	start := l.i
	l.Skip()
	if l.err != nil {
		return nil
	}
	return l.b[start:l.i]
}

// skip moves past the next value, checking its structure.
func (l *Lexer) Skip() {
	l.stack = l.stack[:0]
	for l.err == nil {
		// a value
		switch c := l.Peek(); c {
		case 0:
			l.fail(errEnd)
			return
		case '{', '[':
			if len(l.stack) >= maxDepth {
				l.failf("JSON nested too deeply")
				return
			}
			l.i++
			if c == '{' {
				l.stack = append(l.stack, '}')
				if l.eat('}') {
					l.stack = l.stack[:len(l.stack)-1]
					break
				}
				l.skipKey()
			} else {
				l.stack = append(l.stack, ']')
				if l.eat(']') {
					l.stack = l.stack[:len(l.stack)-1]
					break
				}
			}
			continue // the first element or member value
		case '"':
			l.stringEnd()
		case 't':
			l.literal("true")
		case 'f':
			l.literal("false")
		case 'n':
			l.literal("null")
		default:
			if c != '-' && (c < '0' || c > '9') {
				l.failf("invalid character %q looking for beginning of value", c)
				return
			}
			l.number()
		}
		// after a value: close what ends here, or go on to the next one
		for l.err == nil {
			if len(l.stack) == 0 {
				return
			}
			top := l.stack[len(l.stack)-1]
			if l.eat(',') {
				if top == '}' {
					l.skipKey()
				}
				break
			}
			if !l.eat(top) {
				if l.i >= len(l.b) {
					l.fail(errEnd)
				} else {
					l.failf("invalid character %q after value", l.b[l.i])
				}
				return
			}
			l.stack = l.stack[:len(l.stack)-1]
		}
	}
}

// skipKey moves past an object key and its colon.
func (l *Lexer) skipKey() {
	if l.Peek() != '"' {
		if l.i >= len(l.b) {
			l.fail(errEnd)
		} else {
			l.failf("invalid character %q looking for beginning of object key string", l.b[l.i])
		}
		return
	}
	l.stringEnd()
	if !l.eat(':') && l.err == nil {
		if l.i >= len(l.b) {
			l.fail(errEnd)
		} else {
			l.failf("invalid character %q after object key", l.b[l.i])
		}
	}
}

// note records in soft that a field has an unexpected type, unless an
// earlier one was noted.
func Note(soft *error, field, want string) {
	if *soft == nil {
		*soft = fmt.Errorf("field %s is not %s", field, want)
	}
}

// text reads a string into dst. null leaves dst alone; another type is
// skipped and noted in soft.
func (l *Lexer) Text(dst *string, field string, soft *error) {
	switch l.Peek() {
	case '"':
		*dst, _ = l.Str()
	case 'n':
		l.IsNull()
	default:
		l.Skip()
		Note(soft, field, "a string")
	}
}

// flag reads a boolean into dst, as text does a string.
func (l *Lexer) Flag(dst *bool, field string, soft *error) {
	switch l.Peek() {
	case 't', 'f':
		*dst, _ = l.boolean()
	case 'n':
		l.IsNull()
	default:
		l.Skip()
		Note(soft, field, "a boolean")
	}
}

// count reads a number into dst, as text does a string.
func (l *Lexer) Count(dst *int64, field string, soft *error) {
	switch c := l.Peek(); {
	case c == '-' || c >= '0' && c <= '9':
		*dst, _ = l.integer()
	case c == 'n':
		l.IsNull()
	default:
		l.Skip()
		Note(soft, field, "a number")
	}
}

// members reads an object with fn, as object does; null is no object, and
// another type is skipped and noted in soft.
func (l *Lexer) Members(field string, soft *error, fn func(key []byte)) bool {
	switch l.Peek() {
	case '{':
		return l.Object(fn)
	case 'n':
		l.IsNull()
	default:
		l.Skip()
		Note(soft, field, "an object")
	}
	return false
}
