package redact

import "strings"

// A class is what a name says about the value assigned to it.
type class uint8

const (
	clsNone class = iota
	clsPassword
	clsSecret
	clsToken
	clsKey
	clsCredentials
	clsAuthorization
	clsBearer
	clsCookie
	clsWord // "key" alone: only a high-entropy value next to it counts
	clsUser // curl -u user:password
)

// lastComponents splits the end of a name at '_', '-', '.' and camelCase
// humps: "DB_PASSWORD" gives "PASSWORD" and "DB"; "APIKey" gives "Key"
// and "API". A trailing neutral part ("_value", "_base") is skipped.
func lastComponents(name string) (last, prev string) {
	end := len(name)
	var comps [2]string
	got := 0
	for end > 0 && got < 2 {
		for end > 0 && (name[end-1] == '_' || name[end-1] == '-' || name[end-1] == '.') {
			end--
		}
		if end == 0 {
			break
		}
		start := end - 1
		for start > 0 {
			c, p := name[start], name[start-1]
			if p == '_' || p == '-' || p == '.' {
				break
			}
			if isUpper(c) && (isLower(p) || isDigit(p)) {
				break
			}
			if isUpper(c) && isUpper(p) && start+1 < end && isLower(name[start+1]) {
				break
			}
			start--
		}
		comp := name[start:end]
		end = start
		if got == 0 && end > 0 && neutral(comp) {
			continue
		}
		comps[got] = comp
		got++
	}
	return comps[0], comps[1]
}

func isUpper(c byte) bool { return c >= 'A' && c <= 'Z' }
func isLower(c byte) bool { return c >= 'a' && c <= 'z' }
func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// lower copies s, lowercased, into buf; false when it does not fit.
func lower(buf []byte, s string) ([]byte, bool) {
	if len(s) > len(buf) {
		return nil, false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if isUpper(c) {
			c += 'a' - 'A'
		}
		buf[i] = c
	}
	return buf[:len(s)], true
}

func neutral(part string) bool {
	var buf [12]byte
	b, ok := lower(buf[:], part)
	if !ok {
		return false
	}
	switch string(b) {
	case "value", "val", "str", "string", "base", "b64", "base64", "hex", "raw", "plain", "plaintext", "env":
		return true
	}
	return false
}

// lastClass classifies a name by its last part.
func lastClass(part string) class {
	var buf [16]byte
	b, ok := lower(buf[:], part)
	if !ok {
		return clsNone
	}
	switch string(b) {
	case "password", "passwd", "passphrase", "pwd", "pass", "pw", "passw", "passwort":
		return clsPassword
	case "secret", "secrets", "clientsecret":
		return clsSecret
	case "token", "accesstoken", "authtoken", "apitoken", "refreshtoken", "idtoken", "sessiontoken",
		"bearertoken", "pat":
		return clsToken
	case "apikey", "accesskey", "secretkey", "privatekey", "masterkey", "signingkey":
		return clsKey
	case "credential", "credentials", "creds":
		return clsCredentials
	case "authorization":
		return clsAuthorization
	case "bearer":
		return clsBearer
	case "cookie":
		return clsCookie
	case "u", "user":
		return clsUser
	case "key":
		return clsWord
	}
	return clsNone
}

// keyClass classifies "<part>_key" by the part before "key".
func keyClass(part string) (class, bool) {
	var buf [16]byte
	b, ok := lower(buf[:], part)
	if !ok {
		return clsNone, false
	}
	switch string(b) {
	case "api", "access", "secret", "private", "signing", "sign", "encryption", "encrypt", "master",
		"auth", "client", "service", "account", "app", "license", "licence", "session", "hmac", "ssh",
		"deploy", "webhook", "subscription", "consumer", "shared", "root", "admin", "crypto", "aes",
		"rsa", "jwt", "cipher", "openai", "anthropic", "stripe", "google", "maps", "sendgrid",
		"mailgun", "twilio", "github", "gitlab", "slack":
		return clsKey, true
	case "public", "primary", "foreign", "sort", "partition", "cache", "map", "lookup", "object",
		"row", "unique", "composite", "shard", "group", "idempotency", "routing", "hash", "index",
		"dedup", "dedupe", "search", "i18n", "translation", "message", "publishable", "storage",
		"state", "query", "context", "ctx", "react", "list", "dict", "registry", "metadata", "ref":
		return clsWord, true
	}
	return clsNone, false
}

func classify(name string) class {
	last, prev := lastComponents(name)
	cls := lastClass(last)
	if cls == clsNone {
		// One word run together: PGPASSWORD, csrftoken, CLIENTSECRET.
		cls = suffixClass(last)
	}
	switch cls {
	case clsPassword:
		if prev == "" && strings.EqualFold(last, "pass") {
			return clsNone // Python's pass, go test's PASS:
		}
	case clsUser:
		if last != name {
			return clsNone
		}
	case clsWord:
		if prev == "" {
			return clsWord
		}
		if c, ok := keyClass(prev); ok {
			return c
		}
		if envName(name) {
			return clsKey
		}
	}
	return cls
}

func suffixClass(part string) class {
	if len(part) < 6 || len(part) > 24 {
		return clsNone
	}
	for _, x := range []struct {
		suffix string
		cls    class
	}{{"password", clsPassword}, {"passwd", clsPassword}, {"secret", clsSecret}, {"token", clsToken}} {
		if len(part) > len(x.suffix) && strings.EqualFold(part[len(part)-len(x.suffix):], x.suffix) {
			return x.cls
		}
	}
	return clsNone
}

// envName: an environment variable's name, UPPER_SNAKE.
func envName(name string) bool {
	under := false
	for i := 0; i < len(name); i++ {
		c := name[i]
		if c == '_' {
			under = true
			continue
		}
		if !isUpper(c) && !isDigit(c) {
			return false
		}
	}
	return under
}

func kindOf(cls class, name string) string {
	switch cls {
	case clsPassword, clsUser:
		return "password"
	case clsSecret, clsKey:
		l := strings.ToLower(name)
		if strings.Contains(l, "aws") && strings.Contains(l, "secret") {
			return "aws-secret-key"
		}
		if cls == clsKey {
			return "api-key"
		}
		return "secret"
	case clsToken:
		return "token"
	case clsCredentials:
		return "credentials"
	case clsAuthorization:
		return "authorization"
	case clsBearer:
		return "bearer-token"
	case clsCookie:
		return "cookie"
	}
	return "secret"
}

// assignment looks at the name text[s:e] and, when it is secret-looking,
// at what is assigned to it: name = value, name: value, name := "value",
// "name": "value", <name>value</name>, --name value, Name=value; (a
// connection string), or a high-entropy string a few words after it.
func assignment(text string, s, e int, spans *[]span) {
	for e > s && (text[e-1] == '.' || text[e-1] == '-') {
		e--
	}
	if e-s > 64 || afterMarker(text, s) {
		return
	}
	name := text[s:e]
	cls := classify(name)
	if cls == clsNone {
		return
	}
	n := len(text)
	flag := s > 0 && text[s-1] == '-' && (s == 1 || text[s-2] == '-' || text[s-2] == ' ' || text[s-2] == '\t' || text[s-2] == '"' || text[s-2] == '\'')
	if cls == clsUser && !flag {
		return
	}
	j := e
	// The closing quote of a quoted name, "password": or \"password\":
	if s > 0 && (text[s-1] == '"' || text[s-1] == '\'') {
		if j < n && text[j] == text[s-1] {
			j++
		} else if j+1 < n && text[j] == '\\' && text[j+1] == text[s-1] {
			j += 2
		}
	}
	if j < n && text[j] == ']' {
		j++ // cfg["password"] = …
	}
	if s > 0 && text[s-1] == '<' && j < n && text[j] == '>' {
		// <password>value</password>: an element closed on its line. A
		// tag left open is a placeholder ("https://cdn.example/audio/<key>,
		// pulled from the bucket …"), and what follows it prose; a bare
		// key's element (S3's <Key>photos/a.jpg</Key>) holds a secret only
		// when its value looks random.
		vs := j + 1
		ve := vs
		for ve < n && text[ve] != '<' && text[ve] != '\n' {
			ve++
		}
		if !closesElement(text[ve:], name) || cls == clsWord && !randomKey(text[vs:ve]) {
			return
		}
		emit(text, vs, ve, cls, name, true, spans)
		return
	}
	k := j
	for k < n && (text[k] == ' ' || text[k] == '\t') {
		k++
	}
	sep := byte(0)
	switch {
	case k < n && text[k] == '=':
		sep = '='
		k++
		if k < n && (text[k] == '=' || text[k] == '>') {
			k++
		}
	case k+1 < n && text[k] == ':' && text[k+1] == '=':
		sep = 'g' // Go's :=, whose unquoted right side is code
		k += 2
	case k < n && text[k] == ':' && (k+1 >= n || text[k+1] != ':' && text[k+1] != '/'):
		sep = ':'
		k++
	case flag && k > j && k < n:
		sep = ' '
	}
	switch cls {
	case clsBearer:
		bearerValue(text, e, spans)
		return
	case clsAuthorization:
		if sep == ':' || sep == '=' {
			authorizationValue(text, k, spans)
		}
		return
	case clsUser:
		if sep == ' ' || sep == '=' {
			userValue(text, k, spans)
		}
		return
	}
	if sep == 0 || cls == clsWord {
		entropyNear(text, j, cls == clsWord, spans)
		return
	}
	for k < n && (text[k] == ' ' || text[k] == '\t') {
		k++
	}
	if k >= n {
		return
	}
	// A quoted value: "…", '…', `…`, or \"…\" inside JSON-escaped text.
	q, ql := text[k], 1
	if q == '\\' && k+1 < n && (text[k+1] == '"' || text[k+1] == '\'') {
		q, ql = text[k+1], 2
	}
	if q == '"' || q == '\'' || q == '`' {
		vs := k + ql
		ve := closingQuote(text, vs, q, ql == 2)
		if ve >= 0 {
			emit(text, vs, ve, cls, name, true, spans)
			return
		}
	}
	if sep == 'g' {
		return
	}
	if flag && text[k] == '-' {
		return // the next flag, not a value
	}
	if cls == clsCookie && sep == ':' {
		ve := k
		for ve < n && text[ve] != '\n' && text[ve] != '\r' && text[ve] != '"' && text[ve] != '\'' {
			ve++
		}
		emit(text, k, trimRight(text, k, ve), cls, name, true, spans)
		return
	}
	ve := k
	if lineStart(text, s) && sep != ' ' {
		// NAME=value in .env, name: value in YAML: the rest of the line,
		// less a trailing comment.
		for ve < n && text[ve] != '\n' && text[ve] != '\r' && text[ve] != '"' {
			if text[ve] == '#' && ve > k && (text[ve-1] == ' ' || text[ve-1] == '\t') {
				break
			}
			if text[ve] == '\\' && ve+1 < n && (text[ve+1] == 'n' || text[ve+1] == 'r' || text[ve+1] == '"') {
				break // the end of a line or a string in JSON-escaped text
			}
			ve++
		}
		ve = trimRight(text, k, ve)
		for ve > k && (text[ve-1] == ',' || text[ve-1] == ';') {
			ve--
		}
		if sep == ':' && cls != clsPassword && prose(text[k:ve]) {
			return
		}
	} else {
		for ve < n && !stopUnquoted[text[ve]] {
			ve++
		}
		if ve < n && text[ve] == '(' {
			return // a call
		}
	}
	for ve > k && text[ve-1] == '.' {
		ve--
	}
	emit(text, k, ve, cls, name, false, spans)
}

// prose reports whether a value after a label is a sentence rather than
// a key, token or secret, which a machine makes as one word: it starts
// with three plain words ("secrets: let's go sealed-secrets for now, …").
// A password may be a passphrase, and is not asked about.
func prose(v string) bool {
	f := strings.Fields(v)
	if len(f) < 4 {
		return false
	}
	for _, w := range f[:3] {
		if !plainWord(strings.TrimRight(w, ".,;:!?")) {
			return false
		}
	}
	return true
}

// plainWord reports whether w is a word of a sentence: lowercase letters,
// with apostrophes and hyphens inside.
func plainWord(w string) bool {
	if w == "" || !isLower(w[0]) {
		return false
	}
	for i := 0; i < len(w); i++ {
		if c := w[i]; !isLower(c) && c != '\'' && c != '-' {
			return false
		}
	}
	return true
}

var stopUnquoted = classOf(" \t\r\n,;(){}[]\"'`<>&\\")

func trimRight(text string, s, e int) int {
	for e > s && (text[e-1] == ' ' || text[e-1] == '\t') {
		e--
	}
	return e
}

// lineStart reports whether s starts its line but for indentation,
// "export ", "set ", a YAML list dash, or the line-number prefixes of
// tools that show files: "  12→" (Claude Code's Read), "  12\t" (cat -n),
// "path:12:" (grep -n).
func lineStart(text string, s int) bool {
	// Look back a bounded way: a long line has no prefix of interest, and
	// an unbounded look would make a huge one-line text quadratic.
	from := max(0, s-256)
	ls := strings.LastIndexByte(text[from:s], '\n') + 1
	if ls == 0 && from > 0 {
		return false
	}
	ls += from
	if j := strings.LastIndex(text[ls:s], `\n`); j >= 0 {
		ls += j + 2 // a line break in JSON-escaped text
	}
	pre := strings.TrimLeft(text[ls:s], " \t")
	pre = strings.TrimRight(lineNumber(pre), " \t")
	switch pre {
	case "", "export", "set", "SET", "-", "$env:", "ENV", "ARG":
		return true
	}
	return false
}

// lineNumber strips a tool's line-number prefix from pre.
func lineNumber(pre string) string {
	if i := strings.LastIndexByte(pre, ':'); i > 0 {
		// path:12: from grep -n
		j := i
		for j > 0 && isDigit(pre[j-1]) {
			j--
		}
		if j < i && j > 0 && pre[j-1] == ':' && !strings.ContainsAny(pre[:j-1], " \t") {
			return pre[i+1:]
		}
	}
	i := 0
	for i < len(pre) && isDigit(pre[i]) {
		i++
	}
	if i == 0 {
		return pre
	}
	switch {
	case strings.HasPrefix(pre[i:], "→"):
		return pre[i+len("→"):]
	case strings.HasPrefix(pre[i:], "\t"):
		return pre[i+1:]
	}
	return pre
}

// closingQuote finds the quote that ends a value starting at i, on the
// same line, skipping backslash escapes. escaped: the quotes are \" .
func closingQuote(text string, i int, q byte, escaped bool) int {
	for k := i; k < len(text) && k-i < 4096; k++ {
		c := text[k]
		if c == '\n' {
			return -1
		}
		if escaped {
			if c == '\\' && k+1 < len(text) && text[k+1] == q {
				return k
			}
			continue
		}
		if c == '\\' {
			k++
			continue
		}
		if c == q {
			return k
		}
	}
	return -1
}

// emit judges a value assigned to a secret-looking name and records it.
func emit(text string, vs, ve int, cls class, name string, quoted bool, spans *[]span) {
	if ve <= vs {
		return
	}
	v := text[vs:ve]
	if placeholder(v) {
		return
	}
	if !quoted {
		switch v[0] {
		case '[', '&', '*', '@', '!', '#', '|', '>', '(':
			return
		}
		if code(v) || placeholder(firstWord(v)) {
			return
		}
	}
	if path(v) {
		return // a path to a secret is not the secret
	}
	switch cls {
	case clsPassword:
		if len(v) < 4 {
			return
		}
	case clsKey:
		// An environment variable named for a key (SECRET_KEY=…) is data
		// when assigned, so shorter values count there than in code.
		min := 12
		if envName(name) {
			min = 8
		}
		if len(v) < min || !random(v) {
			return
		}
	default:
		if len(v) < 8 || !random(v) {
			return
		}
	}
	*spans = append(*spans, span{start: vs, end: ve, kind: kindOf(cls, name), prio: prioAssign})
}

// closesElement reports whether rest starts with the closing tag of
// element name, in any case: </password>.
func closesElement(rest, name string) bool {
	if len(rest) < len(name)+3 || rest[0] != '<' || rest[1] != '/' || rest[len(name)+2] != '>' {
		return false
	}
	return strings.EqualFold(rest[2:len(name)+2], name)
}

// randomKey reports whether v, the value of a bare key, looks generated:
// high in entropy and not a path of short names (an object's key,
// audio/show/ep-041.mp3).
func randomKey(v string) bool {
	if !highEntropy(v) {
		return false
	}
	if !strings.Contains(v, "/") {
		return true
	}
	for _, seg := range strings.Split(v, "/") {
		if len(seg) >= 16 {
			return true
		}
	}
	return false
}

// path reports values that are file paths: a path to a secret is not
// the secret. A long random segment makes it a key that starts with '/'.
func path(v string) bool {
	prefixed := false
	for _, p := range []string{"/", "./", "../", "~/"} {
		prefixed = prefixed || strings.HasPrefix(v, p)
	}
	if !prefixed || strings.ContainsAny(v, " \t") {
		return false
	}
	for _, seg := range strings.Split(v, "/") {
		if len(seg) >= 20 && highEntropy(seg) {
			return false
		}
	}
	return true
}

// code reports unquoted values that are code, not data: a dotted path
// (cfg.Password), a call, or an identifier that is camelCase or names a
// secret itself (newPassword, password, apiToken). Generated secrets have
// digits or far more humps than names do.
func code(v string) bool {
	if strings.IndexByte(v, '(') >= 0 {
		return true
	}
	identOnly, dot, digit := true, false, false
	humps := 0
	for i := 0; i < len(v); i++ {
		c := v[i]
		switch {
		case c == '.':
			dot = true
		case isDigit(c):
			digit = true
		case alnum[c] || c == '_':
			if i > 0 && isUpper(c) && isLower(v[i-1]) {
				humps++
			}
		default:
			identOnly = false
		}
	}
	if !identOnly || isDigit(v[0]) {
		return false
	}
	if dot {
		// cfg.Password, but not a version (1.2.3) or a sentence's end.
		return v[len(v)-1] != '.' && !digit
	}
	if digit {
		return false
	}
	if humps > 0 && humps*4 <= len(v) {
		return true
	}
	l := strings.ToLower(v)
	for _, w := range []string{"pass", "pwd", "secret", "token", "key", "cred", "auth"} {
		if strings.Contains(l, w) {
			return true
		}
	}
	return false
}

// firstWord is v up to its first space, less trailing punctuation.
func firstWord(v string) string {
	if i := strings.IndexAny(v, " \t"); i >= 0 {
		v = v[:i]
	}
	return strings.TrimRight(v, ".,;:!?")
}

// random reports whether v mixes at least two of lowercase, uppercase,
// digits and symbols, as generated secrets do and words do not.
func random(v string) bool {
	var lower, upper, digit, other int
	for i := 0; i < len(v); i++ {
		c := v[i]
		switch {
		case isLower(c):
			lower = 1
		case isUpper(c):
			upper = 1
		case isDigit(c):
			digit = 1
		default:
			other = 1
		}
	}
	if lower+upper+digit+other < 2 {
		return false
	}
	if digit == 1 && lower+upper+other == 0 {
		return false
	}
	return true
}

// bearerValue: "Bearer <credential>", anywhere.
func bearerValue(text string, e int, spans *[]span) {
	k := e
	if k >= len(text) || text[k] != ' ' && text[k] != '\t' {
		return
	}
	for k < len(text) && (text[k] == ' ' || text[k] == '\t') {
		k++
	}
	ve := k
	for ve < len(text) && ve-k < 8192 && bearer[text[ve]] {
		ve++
	}
	for ve > k && text[ve-1] == '.' {
		ve--
	}
	v := text[k:ve]
	if len(v) < 12 || placeholder(v) || isMarkerAt(text, k) {
		return
	}
	var digit, upper, lower bool
	for i := 0; i < len(v); i++ {
		digit = digit || isDigit(v[i])
		upper = upper || isUpper(v[i])
		lower = lower || isLower(v[i])
	}
	if !digit && !(upper && lower) {
		return // "Bearer authentication"
	}
	*spans = append(*spans, span{start: k, end: ve, kind: "bearer-token", prio: prioBearer})
}

// authorizationValue: "Authorization: [scheme] <credential>", the value
// starting at k.
func authorizationValue(text string, k int, spans *[]span) {
	n := len(text)
	for k < n && (text[k] == ' ' || text[k] == '\t' || text[k] == '"' || text[k] == '\'' || text[k] == '`') {
		k++
	}
	// A scheme word: Bearer, Basic, Token, Digest, Bot, …
	w := k
	for w < n && (isLower(text[w]) || isUpper(text[w])) {
		w++
	}
	if w > k && w-k <= 12 && w < n && text[w] == ' ' {
		k = w
		for k < n && text[k] == ' ' {
			k++
		}
	}
	ve := k
	for ve < n && ve-k < 8192 && text[ve] != '"' && text[ve] != '\'' && text[ve] != '`' && text[ve] > ' ' && text[ve] != ',' && text[ve] != ';' && text[ve] != '\\' {
		ve++
	}
	v := text[k:ve]
	if len(v) < 8 || placeholder(v) {
		return
	}
	*spans = append(*spans, span{start: k, end: ve, kind: "authorization", prio: prioAssign})
}

// userValue: curl -u user:password, --user=user:password.
func userValue(text string, k int, spans *[]span) {
	n := len(text)
	q := byte(0)
	if k < n && (text[k] == '"' || text[k] == '\'') {
		q = text[k]
		k++
	}
	ve := k
	for ve < n && text[ve] > ' ' && text[ve] != q && (q != 0 || text[ve] != '"' && text[ve] != '\'') {
		ve++
	}
	c := strings.IndexByte(text[k:ve], ':')
	if c < 0 {
		return
	}
	ps := k + c + 1
	if ve-ps < 1 || placeholder(text[ps:ve]) {
		return
	}
	*spans = append(*spans, span{start: ps, end: ve, kind: "password", prio: prioAssign})
}
