package docs

import (
	"bytes"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/cairn-mem/cairn/internal/model"
)

// sessionTimes reads the times of a session.yaml as cairn writes it
// (model.Session.Marshal), without YAML: decoding each session's file in
// YAML was a twentieth of a first index build. ok is false for a file it
// is not sure of (a key, value or indentation of a form cairn does not
// write, a repeated key, another schema), which model.ParseSession then
// reads; when ok, ParseSession reads the file without an error and finds
// the same Started, Updated and LastActivity.
func sessionTimes(b []byte) (s model.Session, ok bool) {
	seen := make(map[string]bool, 24)
	var (
		parent string // the top-level key whose lines follow, indented
		item   int    // the number of parent's list items so far
		schema bool
		// block is 1 after a string's "|-" (a literal block scalar: a
		// title of several lines), 2 after its first line.
		block int
	)
	for len(b) > 0 {
		var line []byte
		if i := bytes.IndexByte(b, '\n'); i >= 0 {
			line, b = b[:i], b[i+1:]
		} else {
			line, b = b, nil
		}
		if len(line) == 0 {
			continue
		}
		if block > 0 && line[0] == ' ' {
			// A line of the block, indented by two spaces, the first
			// by exactly two (more would be an error or need an
			// indentation indicator).
			if !bytes.HasPrefix(line, []byte("  ")) || len(bytes.TrimLeft(line, " ")) == 0 || (block == 1 && line[2] == ' ') || !printable(line) {
				return s, false
			}
			block = 2
			continue
		}
		if block == 1 {
			return s, false // an empty block
		}
		block = 0
		if line[0] == '#' {
			if !printable(line) { // a carriage return would end it
				return s, false
			}
			continue
		}
		indent := 0
		for indent < len(line) && line[indent] == ' ' {
			indent++
		}
		line = line[indent:]
		switch {
		case indent == 2 && bytes.HasPrefix(line, []byte("- ")):
			// An item of sources (a mapping) or of hooks (a string).
			item++
			switch parent {
			case "hooks":
				if !str(line[2:]) {
					return s, false
				}
				continue
			case "sources":
				line = line[2:]
			default:
				return s, false
			}
			fallthrough
		case indent == 4 && parent == "sources" && item > 0:
			key, value, ok := keyValue(line)
			if !ok || !sourceField(key, value) || seen[fmtKey(parent, item, key)] {
				return s, false
			}
			seen[fmtKey(parent, item, key)] = true
		case indent == 2:
			key, value, ok := keyValue(line)
			if !ok || !nestedField(parent, key, value) || seen[fmtKey(parent, 0, key)] {
				return s, false
			}
			seen[fmtKey(parent, 0, key)] = true
		case indent == 0:
			key, value, ok := keyValue(line)
			if !ok || seen[key] {
				return s, false
			}
			seen[key] = true
			parent, item = "", 0
			switch key {
			case "schema":
				if string(value) != "1" || model.SessionSchema != 1 {
					return s, false
				}
				schema = true
			case "prompts", "turns":
				if !decimal(value) {
					return s, false
				}
			case "id", "memory_session", "agent", "status", "title", "project", "branch", "model":
				switch string(value) {
				case "|", "|-", "|+":
					block = 1
				default:
					if !str(value) {
						return s, false
					}
				}
			case "started", "updated", "last_activity":
				t, ok := timestamp(value)
				if !ok {
					return s, false
				}
				switch key {
				case "started":
					s.Started = t
				case "updated":
					s.Updated = t
				default:
					s.LastActivity = t
				}
			case "progress", "summarized", "variables", "sources", "hooks":
				if len(value) != 0 {
					return s, false
				}
				parent = key
			default:
				return s, false
			}
		default:
			return s, false
		}
	}
	return s, schema
}

// fmtKey names a key under parent (in its item'th list item) for
// finding repeated keys.
func fmtKey(parent string, item int, key string) string {
	var b strings.Builder
	b.WriteString(parent)
	for ; item > 0; item /= 10 {
		b.WriteByte(byte('0' + item%10))
	}
	b.WriteByte('.')
	b.WriteString(key)
	return b.String()
}

// keyValue splits "key: value" or "key:" (an empty value) whose key is
// letters, digits, _, - and ., starting with a letter.
func keyValue(line []byte) (key string, value []byte, ok bool) {
	k, v, found := bytes.Cut(line, []byte(":"))
	if !found || len(k) == 0 || !isLetter(k[0]) {
		return "", nil, false
	}
	for _, c := range k {
		if !isLetter(c) && (c < '0' || c > '9') && c != '_' && c != '-' && c != '.' {
			return "", nil, false
		}
	}
	switch strings.ToLower(string(k)) {
	case "y", "n", "yes", "no", "on", "off", "true", "false", "null":
		return "", nil, false // a key YAML reads as a boolean or null
	}
	if len(v) == 0 {
		return string(k), nil, true
	}
	if v[0] != ' ' || len(v) == 1 || v[1] == ' ' || v[len(v)-1] == ' ' {
		return "", nil, false
	}
	return string(k), v[1:], true
}

func isLetter(c byte) bool { return c|0x20 >= 'a' && c|0x20 <= 'z' }

// nestedField reports whether key: value is a field cairn writes under
// parent.
func nestedField(parent, key string, value []byte) bool {
	switch parent + "." + key {
	case "progress.done", "progress.total", "summarized.segments", "summarized.turns":
		return decimal(value)
	case "summarized.through":
		return str(value)
	}
	return parent == "variables" && str(value)
}

// sourceField reports whether key: value is a field of a source.
func sourceField(key string, value []byte) bool {
	switch key {
	case "name", "path", "format", "first", "last":
		return str(value)
	case "offset":
		return decimal(value)
	}
	return false
}

// str reports whether v is a string YAML reads without an error into a
// string: a plain scalar, or a quoted one with nothing to unescape.
func str(v []byte) bool {
	if len(v) < 2 {
		return plain(v)
	}
	switch q := v[0]; q {
	case '\'', '"':
		inner := v[1 : len(v)-1]
		if v[len(v)-1] != q || !printable(inner) {
			return false
		}
		if q == '"' {
			return bytes.IndexByte(inner, '"') < 0 && bytes.IndexByte(inner, '\\') < 0
		}
		// In single quotes, a quote is written twice.
		return bytes.IndexByte(bytes.ReplaceAll(inner, []byte("''"), nil), '\'') < 0
	}
	return plain(v)
}

// plain reports whether v reads in YAML as the plain scalar v: printable,
// not starting with a character that starts a quote, flow, anchor, alias,
// tag, block scalar, comment, directive or list item, without a
// bracket, brace or backslash, and without ": " (a mapping) or " #" (a
// comment) inside.
func plain(v []byte) bool {
	if len(v) == 0 || !printable(v) {
		return false
	}
	switch v[0] {
	case '-', '?', ':', '~', '=', '#', '\'', '"', ',', '&', '*', '!', '|', '>', '%', '@', '`':
		return false
	}
	for i, c := range v {
		switch c {
		case '[', ']', '{', '}', '\\':
			return false
		case ':':
			if i+1 == len(v) || v[i+1] == ' ' {
				return false
			}
		case '#':
			if v[i-1] == ' ' {
				return false
			}
		}
	}
	return true
}

// printable reports whether v is UTF-8 of characters YAML takes in a
// scalar as they are: no control character, no line or paragraph
// separator, no byte order mark.
func printable(v []byte) bool {
	for i := 0; i < len(v); {
		c := v[i]
		if c < utf8.RuneSelf {
			if c < ' ' || c > '~' {
				return false
			}
			i++
			continue
		}
		r, n := utf8.DecodeRune(v[i:])
		switch {
		case r == utf8.RuneError, r < 0xA0, r == 0x2028, r == 0x2029, r == 0xFEFF, r >= 0xFFFE && r <= 0xFFFF:
			return false
		}
		i += n
	}
	return true
}

// timestamp reads v, a time as cairn writes them (RFC 3339), which YAML
// reads as the same time.
func timestamp(v []byte) (time.Time, bool) {
	if len(v) < len("2006-01-02T15:04:05Z") || v[10] != 'T' {
		return time.Time{}, false
	}
	t, err := time.Parse(time.RFC3339Nano, string(v))
	return t, err == nil
}

// decimal reports whether v is a decimal integer YAML reads as itself:
// no sign, no leading zero, at most 18 digits.
func decimal(v []byte) bool {
	if len(v) == 0 || len(v) > 18 || (v[0] == '0' && len(v) > 1) {
		return false
	}
	for _, c := range v {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}
