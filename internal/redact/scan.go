package redact

import "strings"

// scan finds the built-in kinds of secret in one pass over text. It looks
// at word starts (for token prefixes and names that are assigned to), at
// '-' (private key blocks), '<' (<private>) and ':' (credentials in URLs).
func scan(text string, spans *[]span) {
	n := len(text)
	identEnd := 0
	for i := 0; i < n; {
		c := text[i]
		if alnum[c] {
			// A word start: the previous byte is not alphanumeric. In
			// JSON-escaped text, the n of \n is a line break, not a word.
			if escapedBreak(text, i) {
				i++
				continue
			}
			if e, kind := matchToken(text, i); e > 0 {
				*spans = append(*spans, span{start: i, end: e, kind: kind, prio: prioToken})
				i = e
				continue
			}
			if i >= identEnd {
				e := i
				for e < n && ident[text[e]] {
					e++
				}
				identEnd = e
				assignment(text, i, e, spans)
			}
			for i++; i < n && alnum[text[i]]; i++ {
			}
			continue
		}
		switch c {
		case '-':
			if strings.HasPrefix(text[i:], "-----BEGIN ") {
				if e := privateKey(text, i, spans); e > i {
					i = e
					continue
				}
			}
		case '<':
			if hasPrefixFold(text[i:], "<private>") {
				i = privateSpan(text, i, spans)
				continue
			}
		case ':':
			if strings.HasPrefix(text[i:], "://") {
				urlCredentials(text, i, spans)
			}
		}
		i++
	}
}

// escapedBreak reports whether text[i] is the letter of a \n, \r or \t
// escape.
func escapedBreak(text string, i int) bool {
	switch text[i] {
	case 'n', 'r', 't':
		return i > 0 && text[i-1] == '\\' && (i < 2 || text[i-2] != '\\')
	}
	return false
}

func hasPrefixFold(s, prefix string) bool {
	return len(s) >= len(prefix) && strings.EqualFold(s[:len(prefix)], prefix)
}

// indexFold finds needle in s ignoring ASCII case. needle is lowercase
// and starts with a byte that has no case.
func indexFold(s, needle string) int {
	for at := 0; ; {
		j := strings.IndexByte(s[at:], needle[0])
		if j < 0 {
			return -1
		}
		j += at
		if hasPrefixFold(s[j:], needle) {
			return j
		}
		at = j + 1
	}
}

// privateSpan drops <private>…</private> (any case, across lines). An
// unterminated one drops the rest of the text and says so with a marker.
func privateSpan(text string, i int, spans *[]span) int {
	const open, close = "<private>", "</private>"
	j := indexFold(text[i+len(open):], close)
	if j < 0 {
		*spans = append(*spans, span{start: i, end: len(text), kind: "private-unterminated", prio: prioPrivate, drop: true, marker: true})
		return len(text)
	}
	end := i + len(open) + j + len(close)
	*spans = append(*spans, span{start: i, end: end, kind: "private", prio: prioPrivate, drop: true})
	return end
}

// privateKey redacts a PEM or OpenSSH or PGP private key block from its
// BEGIN line to its END line, or, without an END, as far as the body
// looks like one. It returns where scanning goes on.
func privateKey(text string, i int, spans *[]span) int {
	const begin = "-----BEGIN "
	j := i + len(begin)
	k := j
	for k < len(text) && k-j < 40 && (upperD[text[k]] || text[k] == ' ') {
		k++
	}
	label := text[j:k]
	if !strings.HasSuffix(label, "PRIVATE KEY") && !strings.HasSuffix(label, "PRIVATE KEY BLOCK") ||
		!strings.HasPrefix(text[k:], "-----") {
		return i + 1
	}
	body := k + len("-----")
	window := text[body:min(len(text), body+1<<20)]
	if e := strings.Index(window, "-----END "); e >= 0 {
		end := body + e + len("-----END ")
		for end < len(text) && (upperD[text[end]] || text[end] == ' ') {
			end++
		}
		if strings.HasPrefix(text[end:], "-----") {
			end += len("-----")
		}
		*spans = append(*spans, span{start: i, end: end, kind: "private-key", prio: prioPrivate})
		return end
	}
	end := pemBody(text, body)
	*spans = append(*spans, span{start: i, end: end, kind: "private-key", prio: prioPrivate})
	return end
}

// pemBody returns the end of an unterminated key body that starts at i:
// base64 lines and "Name: value" headers, or, in JSON-escaped text, base64
// and "\n" escapes.
func pemBody(text string, i int) int {
	if strings.HasPrefix(text[i:], `\n`) || strings.HasPrefix(text[i:], `\r\n`) {
		e := i
		for e < len(text) && (b64[text[e]] || text[e] == '\\') {
			e++
		}
		return e
	}
	end := i
	for pos := i; pos < len(text); {
		nl := strings.IndexByte(text[pos:], '\n')
		lineEnd := len(text)
		next := len(text)
		if nl >= 0 {
			lineEnd = pos + nl
			next = lineEnd + 1
		}
		line := strings.TrimSpace(text[pos:lineEnd])
		if pos > i && !pemLine(line) {
			break
		}
		end = lineEnd
		pos = next
	}
	return end
}

func pemLine(line string) bool {
	if line == "" {
		return false
	}
	if k := strings.IndexByte(line, ':'); k > 0 && !strings.ContainsAny(line[:k], " \t") {
		return true // Proc-Type: 4,ENCRYPTED
	}
	for i := 0; i < len(line); i++ {
		if !b64[line[i]] {
			return false
		}
	}
	return true
}

// urlCredentials redacts the password of scheme://user:password@host,
// keeping the user and the host. i is the position of "://".
func urlCredentials(text string, i int, spans *[]span) {
	s := i
	for s > 0 && (alnum[text[s-1]] || text[s-1] == '+' || text[s-1] == '.' || text[s-1] == '-') {
		s--
	}
	if i-s < 2 {
		return
	}
	j := i + 3
	colon := -1
	k := j
	for ; k < len(text) && k-j < 512; k++ {
		c := text[k]
		if c == '@' {
			break
		}
		if c == '/' || c == '\\' || c == '"' || c == '\'' || c == '<' || c == '>' || c == '`' || c <= ' ' {
			return
		}
		if c == ':' && colon < 0 {
			colon = k
		}
	}
	if k >= len(text) || text[k] != '@' || colon < 0 || k+1 >= len(text) || !(alnum[text[k+1]] || text[k+1] == '[') {
		return
	}
	if strings.Contains(text[j:k], markerPrefix) {
		return // redacted already: https://[REDACTED:github-token]@host
	}
	pw := text[colon+1 : k]
	if pw == "" || placeholder(pw) {
		return
	}
	*spans = append(*spans, span{start: colon + 1, end: k, kind: "url-password", prio: prioURL})
}

// placeholder reports values that stand for a secret rather than being
// one: variables, templates, markers, masks.
func placeholder(v string) bool {
	if v == "" || strings.HasPrefix(v, markerPrefix) {
		return true
	}
	switch v[0] {
	case '$', '%', '<', '{':
		return true
	}
	if strings.HasPrefix(v, "{{") || strings.HasPrefix(v, "process.env") || strings.HasPrefix(v, "os.environ") {
		return true
	}
	same := true
	for i := 1; i < len(v); i++ {
		if v[i] != v[0] {
			same = false
			break
		}
	}
	if same {
		return true // ****, xxxx, ....
	}
	switch strings.ToLower(v) {
	case "null", "nil", "none", "true", "false", "undefined", "required", "optional",
		"string", "str", "bool", "boolean", "int", "number", "bytes", "yes", "no", "empty",
		"unset", "n/a", "tbd", "todo", "redacted", "hidden", "masked", "secret", "password",
		"token", "example", "your-token", "your-api-key", "your_api_key", "your-password":
		return true
	}
	return false
}
