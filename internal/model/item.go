package model

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/cairn-mem/cairn/internal/lazyre"
	"github.com/cairn-mem/cairn/internal/migrate"
	"gopkg.in/yaml.v3"
)

// SchemaVersion is the version of the item file format that this package
// writes, recorded in every file as "schema: 1": migrate.Latest(migrate.Item).
// Older files are upgraded as they are read (internal/migrate).
const SchemaVersion = 1

// Defaults for keys a file leaves out.
const (
	DefaultImportance = 0.5
	DefaultConfidence = 1.0
)

// MaxTitleLen bounds a title taken from the first line of a body, in runes.
const MaxTitleLen = 100

// maxAliasCopy bounds the nodes copied to make unknown keys independent of
// anchors on known keys, so that a small file cannot expand into a huge one.
const maxAliasCopy = 10000

var (
	// crlf matches a line ending with carriage returns; any run of CRs
	// before a LF goes, so that normalising is idempotent.
	crlf = lazyre.New(`\r+\n`)
	// yamlErrLine picks the line out of a yaml.v3 syntax error.
	yamlErrLine = lazyre.New(`^yaml: line (\d+): (.*)$`)
	// unknownAnchor matches the one yaml.v3 error about an alias.
	unknownAnchor = lazyre.New(`^unknown anchor '(.*)' referenced$`)
)

// An Item is one memory item: a Markdown file with YAML front matter.
//
//	---
//	id: 01JDXK3V9M2Q7Y8Z4T6R5W1HBC
//	kind: decision
//	title: Use PostgreSQL for the job queue
//	importance: 0.9
//	confidence: 1.0
//	tags: [db, queue]
//	session: 7f3c2a10-...
//	created: 2026-11-30T05:43:00Z
//	updated: 2026-11-30T05:43:00Z
//	pinned: false
//	schema: 1
//	---
//	We chose PostgreSQL over Redis for the job queue because ...
//
// Front-matter keys that Item does not know are kept, with their comments,
// from Parse to Marshal, so that people and other tools can add their own.
// What Parse keeps is never modified afterwards, so copying an Item (to
// edit the copy and marshal it) is safe, also across goroutines.
type Item struct {
	ID         string    // a ULID, see NewID
	Kind       Kind      // decides the folder, see Kind.Dir
	Title      string    // one line; the file name is made from it
	Importance float64   // 0..1
	Confidence float64   // 0..1; items shared by others carry less
	Tags       []string  // in order, without duplicates or empty tags
	Session    string    // the agent session the item came from, if any
	Created    time.Time // UTC, to the second
	Updated    time.Time // UTC, to the second
	Pinned     bool      // always packed into the context
	Schema     int       // SchemaVersion
	Body       string    // Markdown, without leading blank lines or trailing newlines

	fm   *frontMatter // what Parse read besides the known values; nil for a new item
	read int          // the schema of the file before Parse upgraded it
}

// ReadSchema is the schema the item's file had before Parse upgraded it
// (0: no schema line); below SchemaVersion, cairn migrate writes the file
// back. NewItem's item has the latest.
func (it *Item) ReadSchema() int { return it.read }

// frontMatter keeps what a file's front matter holds beyond the values of
// the known keys, for Marshal to write back.
type frontMatter struct {
	doc, root comments            // on the YAML document and on its mapping
	known     map[string]keyNotes // comments on the known keys, by key
	extra     []*yaml.Node        // the unknown keys and their values, alternating, in file order
}

type comments struct{ head, line, foot string }

type keyNotes struct{ key, value comments }

func commentsOf(n *yaml.Node) comments {
	return comments{n.HeadComment, n.LineComment, n.FootComment}
}

func (c comments) apply(n *yaml.Node) {
	n.HeadComment, n.LineComment, n.FootComment = c.head, c.line, c.foot
}

// NewItem returns a new item of kind k made at time now, with a new id, the
// default importance and confidence and no body.
func NewItem(k Kind, title string, now time.Time) *Item {
	id := NewID(now) // to the millisecond, so that ids sort finer than times
	now = now.UTC().Truncate(time.Second)
	return &Item{
		ID:         id,
		Kind:       k,
		Title:      title,
		Importance: DefaultImportance,
		Confidence: DefaultConfidence,
		Created:    now,
		Updated:    now,
		Schema:     SchemaVersion,
		read:       SchemaVersion,
	}
}

// FileName returns the item's file name, "<slug>--<id>.md", where the slug
// is made from the title (see Slug). IDFromPath reverses it.
func (it *Item) FileName() string {
	return Slug(it.Title) + "--" + it.ID + ".md"
}

// Path returns the item's slash-separated path relative to the root of the
// memory repository, for instance "core/decisions/use-postgresql--01JD….md".
func (it *Item) Path() string {
	if dir := it.Kind.Dir(); dir != "" {
		return dir + "/" + it.FileName()
	}
	return it.FileName()
}

// Validate reports whether the item is complete and well-formed: a valid
// id, a known kind, a title, importance and confidence within 0..1 and a
// schema this package writes. Parse accepts files that fail Validate (a
// hand-written note without an id, say) so that callers can fill them in.
func (it *Item) Validate() error {
	var problems []string
	if it.ID == "" {
		problems = append(problems, "id is missing")
	}
	if err := it.check(); err != nil {
		problems = append(problems, err.Error())
	}
	if strings.TrimSpace(it.Title) == "" {
		problems = append(problems, "title is empty")
	}
	if len(problems) > 0 {
		return fmt.Errorf("invalid %s: %s", it.name(), strings.Join(problems, "; "))
	}
	return nil
}

// check reports the values that Parse would reject, so that Marshal never
// writes a file that cannot be read back.
func (it *Item) check() error {
	var problems []string
	if it.ID != "" && !ValidID(it.ID) {
		problems = append(problems, fmt.Sprintf("id: %q is not an upper-case ULID", it.ID))
	}
	if !it.Kind.Valid() {
		problems = append(problems, fmt.Sprintf("kind: unknown kind %q: want one of %s", it.Kind, kindList()))
	}
	for _, f := range []struct {
		key string
		v   float64
	}{{"importance", it.Importance}, {"confidence", it.Confidence}} {
		if !(f.v >= 0 && f.v <= 1) {
			problems = append(problems, fmt.Sprintf("%s: %v is outside 0..1", f.key, f.v))
		}
	}
	for _, f := range []struct {
		key string
		t   time.Time
	}{{"created", it.Created}, {"updated", it.Updated}} {
		if !f.t.IsZero() && !inYearRange(f.t) {
			problems = append(problems, fmt.Sprintf("%s: year %d is outside 0..9999", f.key, f.t.UTC().Year()))
		}
	}
	if it.Schema != 0 && it.Schema != SchemaVersion {
		problems = append(problems, fmt.Sprintf("schema: version %d is not %d", it.Schema, SchemaVersion))
	}
	if len(problems) > 0 {
		return errors.New(strings.Join(problems, "; "))
	}
	return nil
}

// name says which item an error is about.
func (it *Item) name() string {
	if it.ID != "" {
		return "memory item " + it.ID
	}
	return fmt.Sprintf("memory item %q", cutTitle(cleanString(it.Title)))
}

func inYearRange(t time.Time) bool {
	y := t.UTC().Year()
	return y >= 0 && y <= 9999
}

// A ParseError says why an item file could not be read and where.
type ParseError struct {
	Path string // as given to Parse
	Line int    // 1-based line in the file, counting the front-matter delimiters
	Err  error
}

func (e *ParseError) Error() string {
	switch {
	case e.Path != "" && e.Line > 0:
		return fmt.Sprintf("%s:%d: %v", e.Path, e.Line, e.Err)
	case e.Path != "":
		return fmt.Sprintf("%s: %v", e.Path, e.Err)
	case e.Line > 0:
		return fmt.Sprintf("line %d: %v", e.Line, e.Err)
	}
	return e.Err.Error()
}

func (e *ParseError) Unwrap() error { return e.Err }

// Parse reads an item file. path is used for error messages and, when the
// front matter has no id, to take the id from the file name (see
// IDFromPath); it is not opened.
//
// Files edited by hand are valid input. Parse accepts a UTF-8 byte order
// mark and CRLF line endings (CRLF becomes LF throughout, the body
// included). Front matter starts on the first line with "---" and ends at
// the next line that is "---"; a file that does not start with "---" has no
// front matter and is all body. Keys that are missing, null or empty take
// their defaults:
//
//   - kind: note; importance: 0.5; confidence: 1; schema: 1
//   - id: the id in the file name, if it has one, otherwise none
//   - title: the first non-blank line of the body, without "#" heading
//     marks, cut to 100 characters at a word boundary
//   - created: the time in the id; updated: created
//
// Ids may be lower case and are upper-cased. Importance and confidence may
// be quoted numbers. Tags may be a list or one comma-separated string; they
// are trimmed, and empty and repeated tags dropped. Times may be RFC 3339
// or a plain date (midnight UTC); they are kept in UTC to the second.
// pinned takes true/false and yes/no/on/off. Leading blank lines and
// trailing line breaks of the body are dropped.
//
// Parse rejects, with a *ParseError giving the line in the file: front
// matter that is not terminated, is not valid YAML or is not a mapping,
// a repeated key, a value of the wrong type (importance: "high"), an
// invalid id, an unknown kind, a number outside 0..1, a time that does not
// parse and a schema other than 1.
func Parse(path string, data []byte) (it *Item, err error) {
	defer func() {
		// yaml.v3 re-panics on errors of its own; no input may crash a caller.
		if r := recover(); r != nil {
			it, err = nil, &ParseError{Path: path, Line: 1, Err: fmt.Errorf("reading front matter: %v", r)}
		}
	}()
	text := strings.TrimPrefix(string(data), "\uFEFF")
	text = crlf.ReplaceAllLiteralString(text, "\n")

	it = &Item{
		Kind:       Note,
		Importance: DefaultImportance,
		Confidence: DefaultConfidence,
		Schema:     SchemaVersion,
	}
	body := text
	if first, rest, ok := strings.Cut(text, "\n"); IsDelimiter(first) {
		if !ok {
			return nil, &ParseError{Path: path, Line: 1, Err: errors.New(`front matter has no closing "---"`)}
		}
		yml, after, end, ok := CutFrontMatter(rest)
		if !ok {
			return nil, &ParseError{Path: path, Line: 1, Err: errors.New(`front matter has no closing "---"`)}
		}
		p := &parser{path: path, offset: 1, last: end}
		if err := p.frontMatter(it, yml); err != nil {
			return nil, err
		}
		body = after
	}
	it.Body = normBody(body)

	if it.ID == "" {
		it.ID, _ = IDFromPath(path)
	}
	if it.Title == "" {
		it.Title = titleFrom(it.Body)
	}
	if it.Created.IsZero() && it.ID != "" {
		if t, ok := idTime(it.ID); ok && inYearRange(t) {
			it.Created = t
		}
	}
	if it.Updated.IsZero() {
		it.Updated = it.Created
	}
	return it, nil
}

func IsDelimiter(line string) bool {
	return strings.TrimRight(line, " \t") == "---"
}

// CutFrontMatter splits what follows the opening delimiter into the YAML
// and the body. end is the closing delimiter's line in the file.
func CutFrontMatter(s string) (yml, body string, end int, ok bool) {
	line := 2
	for pos := 0; pos <= len(s); line++ {
		l, _, more := strings.Cut(s[pos:], "\n")
		if IsDelimiter(l) {
			after := min(pos+len(l)+1, len(s))
			return s[:pos], s[after:], line, true
		}
		if !more {
			break
		}
		pos += len(l) + 1
	}
	return "", "", 0, false
}

// normBody puts a body in the form Marshal writes and Parse returns.
func normBody(s string) string {
	s = crlf.ReplaceAllLiteralString(s, "\n")
	s = strings.TrimLeft(s, "\n")
	return strings.TrimRight(s, "\r\n")
}

// titleFrom makes a title from the first non-blank line of a body.
func titleFrom(body string) string {
	for line := range strings.Lines(body) {
		t := strings.TrimSpace(line)
		if h := strings.TrimLeft(t, "#"); len(t)-len(h) <= 6 && h != t && (h == "" || h[0] == ' ' || h[0] == '\t') {
			// An ATX heading; drop the optional closing sequence too.
			h = strings.TrimSpace(h)
			if c := strings.TrimRight(h, "#"); c == "" || strings.HasSuffix(c, " ") || strings.HasSuffix(c, "\t") {
				h = strings.TrimSpace(c)
			}
			t = h
		}
		if t = cleanString(t); t != "" {
			return cutTitle(t)
		}
	}
	return ""
}

func cutTitle(t string) string {
	if utf8.RuneCountInString(t) <= MaxTitleLen {
		return t
	}
	r := []rune(t)[:MaxTitleLen]
	cut := string(r)
	if i := strings.LastIndexAny(cut, " \t"); i > 0 {
		cut = cut[:i]
	}
	return strings.TrimSpace(cut) + "…"
}

// cleanString trims a one-line value and makes it valid UTF-8, as Marshal
// writes it.
func cleanString(s string) string {
	return strings.TrimSpace(strings.ToValidUTF8(s, "\uFFFD"))
}

// NormTags trims tags and drops empty and repeated ones, keeping the order.
func NormTags(tags []string) []string {
	var out []string
	for _, t := range tags {
		t = cleanString(t)
		if t != "" && !slices.Contains(out, t) {
			out = append(out, t)
		}
	}
	return out
}

// parser reads front matter, turning YAML line numbers into file lines.
type parser struct {
	path   string
	offset int // lines in the file before the YAML
	last   int // the closing delimiter's line
}

func (p *parser) errorf(n *yaml.Node, format string, args ...any) *ParseError {
	line := 1
	if n != nil && n.Line > 0 {
		line = n.Line + p.offset
	}
	return &ParseError{Path: p.path, Line: line, Err: fmt.Errorf(format, args...)}
}

// yamlError turns a yaml.v3 error into a ParseError at the line in the
// file. yaml.v3 counts lines from 1 for scanner errors but from 0 for
// parser errors, leaves the line out when it is the first, and gives none
// at all for bad characters and unknown anchors, which are found here.
func (p *parser) yamlError(yml string, err error) *ParseError {
	msg := strings.TrimPrefix(err.Error(), "yaml: ")
	line := 1 // in the YAML
	if m := yamlErrLine.FindStringSubmatch(err.Error()); m != nil {
		line, _ = strconv.Atoi(m[1])
		msg = m[2]
		if isParserProblem(msg) {
			line++
		}
	} else if m := unknownAnchor.FindStringSubmatch(msg); m != nil {
		line = lineOf(yml, strings.Index(yml, "*"+m[1]))
	} else if i := badChar(yml); i >= 0 {
		line = lineOf(yml, i)
	}
	// An unexpected end is reported past the last line.
	line = min(max(line+p.offset, p.offset+1), p.last)
	return &ParseError{Path: p.path, Line: line, Err: fmt.Errorf("invalid YAML in front matter: %s", msg)}
}

// isParserProblem reports whether a yaml.v3 message comes from its parser
// rather than its scanner.
func isParserProblem(msg string) bool {
	switch msg {
	case "did not find expected ',' or ']'",
		"did not find expected ',' or '}'",
		"did not find expected '-' indicator",
		"did not find expected <document start>",
		"did not find expected <stream-start>",
		"did not find expected key",
		"did not find expected node content",
		"found duplicate %TAG directive",
		"found duplicate %YAML directive",
		"found incompatible YAML document",
		"found undefined tag handle":
		return true
	}
	return false
}

// lineOf returns the 1-based line of byte i in s, or 1 if i < 0.
func lineOf(s string, i int) int {
	if i < 0 {
		return 1
	}
	return strings.Count(s[:i], "\n") + 1
}

// badChar returns the index of the first byte that YAML does not allow in
// a stream, or -1.
func badChar(s string) int {
	for i, r := range s {
		if r == utf8.RuneError && !strings.HasPrefix(s[i:], "\uFFFD") {
			return i
		}
		ok := r == 0x09 || r == 0x0A || r == 0x0D || (r >= 0x20 && r <= 0x7E) || r == 0x85 ||
			(r >= 0xA0 && r <= 0xD7FF) || (r >= 0xE000 && r <= 0xFFFD) || (r >= 0x10000 && r <= 0x10FFFF)
		if !ok {
			return i
		}
	}
	return -1
}

// isKnown reports whether Item has a field for a front-matter key.
func isKnown(key string) bool {
	return want(key) != ""
}

func (p *parser) frontMatter(it *Item, yml string) error {
	dec := yaml.NewDecoder(strings.NewReader(yml))
	var doc yaml.Node
	if err := dec.Decode(&doc); err == io.EOF {
		return nil // empty, or only comments
	} else if err != nil {
		return p.yamlError(yml, err)
	}
	var next yaml.Node
	if err := dec.Decode(&next); err == nil {
		return p.errorf(&next, "front matter holds more than one YAML document")
	} else if err != io.EOF {
		return p.yamlError(yml, err)
	}

	fm := &frontMatter{doc: commentsOf(&doc), known: make(map[string]keyNotes)}
	if len(doc.Content) != 1 {
		return p.errorf(&doc, "front matter is not a YAML document")
	}
	root := doc.Content[0]
	switch {
	case root.Kind == yaml.ScalarNode && root.ShortTag() == "!!null":
		it.fm = fm
		return nil
	case root.Kind != yaml.MappingNode:
		return p.errorf(root, "front matter is %s, want a mapping of keys to values", describe(root))
	}
	fm.root = commentsOf(root)
	read, err := migrate.Up(migrate.Item, root)
	if err != nil {
		_, at, _ := migrate.Schema(root)
		if at == nil {
			at = root
		}
		return p.errorf(at, "schema: %w", err) // a *migrate.NewerError, for errors.As
	}
	it.read = read

	seen := make(map[string]int)
	for i := 0; i+1 < len(root.Content); i += 2 {
		k, v := root.Content[i], root.Content[i+1]
		if k.Kind == yaml.ScalarNode {
			id := k.ShortTag() + "\x00" + k.Value
			if first, dup := seen[id]; dup {
				return p.errorf(k, "%s: repeated key (first on line %d)", k.Value, first)
			}
			seen[id] = k.Line + p.offset
		}
		if k.Kind != yaml.ScalarNode || k.ShortTag() != "!!str" || !isKnown(k.Value) {
			fm.extra = append(fm.extra, k, v)
			continue
		}
		fm.known[k.Value] = keyNotes{commentsOf(k), commentsOf(v)}
		if err := p.value(it, k.Value, v); err != nil {
			return err
		}
	}
	d := &detacher{defined: make(map[*yaml.Node]bool), budget: maxAliasCopy}
	for i, n := range fm.extra {
		var err error
		if fm.extra[i], err = d.walk(n); err != nil {
			return p.errorf(n, "%v", err)
		}
	}
	it.fm = fm
	return nil
}

// value sets the field for a known key. A null value leaves the default.
func (p *parser) value(it *Item, key string, v *yaml.Node) error {
	at := v
	v = resolve(v)
	if v.Kind == yaml.ScalarNode && v.ShortTag() == "!!null" {
		return nil
	}
	if key == "tags" {
		return p.tags(it, at, v)
	}
	if v.Kind != yaml.ScalarNode {
		return p.errorf(at, "%s: want %s, got %s", key, want(key), describe(v))
	}
	s := v.Value
	switch key {
	case "id":
		id := strings.ToUpper(strings.TrimSpace(s))
		if !ValidID(id) {
			return p.errorf(at, "id: want %s, got %s", want(key), describe(v))
		}
		it.ID = id
	case "kind":
		k, err := ParseKind(s)
		if err != nil {
			return p.errorf(at, "kind: %w", err)
		}
		it.Kind = k
	case "title":
		it.Title = cleanString(s)
	case "session":
		it.Session = cleanString(s)
	case "importance", "confidence":
		f, err := unit(v)
		if err != nil {
			return p.errorf(at, "%s: %w", key, err)
		}
		if key == "importance" {
			it.Importance = f
		} else {
			it.Confidence = f
		}
	case "created", "updated":
		t, err := ParseTimestamp(s)
		if err != nil {
			return p.errorf(at, "%s: %w", key, err)
		}
		if key == "created" {
			it.Created = t
		} else {
			it.Updated = t
		}
	case "pinned":
		switch strings.ToLower(strings.TrimSpace(s)) {
		case "true", "yes", "on":
			it.Pinned = true
		case "false", "no", "off":
			it.Pinned = false
		default:
			return p.errorf(at, "pinned: want %s, got %s", want(key), describe(v))
		}
	case "schema":
		n, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil {
			return p.errorf(at, "schema: want %s, got %s", want(key), describe(v))
		}
		if n != SchemaVersion { // migrate.Up upgraded it, or refused it
			return p.errorf(at, "schema: version %d is not %d", n, SchemaVersion)
		}
	}
	return nil
}

// want says what a known key takes, for error messages, and "" for a key
// that Item does not know.
func want(key string) string {
	switch key {
	case "id":
		return "a ULID (26 characters of 0-9 and A-Z but I, L, O and U, the first 0-7)"
	case "kind":
		return "a kind"
	case "title", "session":
		return "a string"
	case "importance", "confidence", "schema":
		return "a number"
	case "tags":
		return "a list of strings"
	case "created", "updated":
		return "a time"
	case "pinned":
		return "true or false"
	}
	return ""
}

func (p *parser) tags(it *Item, at, v *yaml.Node) error {
	var tags []string
	switch v.Kind {
	case yaml.ScalarNode:
		tags = strings.Split(v.Value, ",")
	case yaml.SequenceNode:
		for _, e := range v.Content {
			e := resolve(e)
			if e.Kind != yaml.ScalarNode {
				return p.errorf(e, "tags: want a list of strings, got %s in the list", describe(e))
			}
			if e.ShortTag() != "!!null" {
				tags = append(tags, e.Value)
			}
		}
	default:
		return p.errorf(at, "tags: want a list of strings, got %s", describe(v))
	}
	it.Tags = NormTags(tags)
	return nil
}

// unit reads a number from 0 to 1.
func unit(v *yaml.Node) (float64, error) {
	var f float64
	var err error
	switch v.ShortTag() {
	case "!!int", "!!float":
		err = v.Decode(&f)
	default:
		f, err = strconv.ParseFloat(strings.TrimSpace(v.Value), 64)
	}
	if err != nil {
		return 0, fmt.Errorf("want a number, got %s", describe(v))
	}
	if !(f >= 0 && f <= 1) {
		return 0, fmt.Errorf("want a number from 0 to 1, got %s", v.Value)
	}
	return f + 0, nil // no negative zero
}

// ParseTimestamp reads RFC 3339 and a few looser forms people write by hand;
// a time without a zone is UTC.
func ParseTimestamp(s string) (time.Time, error) {
	s = strings.TrimSpace(s)
	for _, layout := range []string{
		time.RFC3339Nano,
		"2006-01-02T15:04:05",
		"2006-01-02 15:04:05Z07:00",
		"2006-01-02 15:04:05",
		"2006-01-02T15:04Z07:00",
		"2006-01-02T15:04",
		"2006-01-02 15:04",
		time.DateOnly,
	} {
		if t, err := time.Parse(layout, s); err == nil {
			if !inYearRange(t) {
				return time.Time{}, fmt.Errorf("year %d is outside 0..9999", t.UTC().Year())
			}
			return t.UTC().Truncate(time.Second), nil
		}
	}
	return time.Time{}, fmt.Errorf("want an RFC 3339 time (2026-11-30T05:43:00Z) or a date (2026-11-30), got %q", s)
}

// resolve follows aliases to the node they stand for.
func resolve(n *yaml.Node) *yaml.Node {
	for i := 0; n.Kind == yaml.AliasNode && n.Alias != nil && i < 100; i++ {
		n = n.Alias
	}
	return n
}

func describe(n *yaml.Node) string {
	n = resolve(n)
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a list"
	case yaml.ScalarNode:
		if utf8.RuneCountInString(n.Value) > 40 {
			return strconv.Quote(string([]rune(n.Value)[:40]) + "…")
		}
		return strconv.Quote(n.Value)
	}
	return "nothing"
}

// detacher makes the unknown keys' values independent of anchors on known
// keys. Marshal writes known values afresh, without anchors, so an alias
// to one is replaced by a copy of what it stands for.
type detacher struct {
	defined map[*yaml.Node]bool // anchored nodes that Marshal writes before the current one
	budget  int
}

func (d *detacher) walk(n *yaml.Node) (*yaml.Node, error) {
	if n.Kind == yaml.AliasNode {
		if d.defined[n.Alias] {
			return n, nil
		}
		return d.copy(n.Alias)
	}
	if n.Anchor != "" {
		d.defined[n] = true
	}
	for i, c := range n.Content {
		var err error
		if n.Content[i], err = d.walk(c); err != nil {
			return nil, err
		}
	}
	return n, nil
}

func (d *detacher) copy(n *yaml.Node) (*yaml.Node, error) {
	if d.budget--; d.budget < 0 || n == nil {
		return nil, errors.New("aliases expand to too much data")
	}
	if n.Kind == yaml.AliasNode {
		if d.defined[n.Alias] {
			c := *n
			return &c, nil
		}
		return d.copy(n.Alias)
	}
	c := *n
	c.Anchor = ""
	c.Content = make([]*yaml.Node, len(n.Content))
	for i, child := range n.Content {
		var err error
		if c.Content[i], err = d.copy(child); err != nil {
			return nil, err
		}
	}
	return &c, nil
}

// Marshal returns the item as a file: "---", the front matter, "---", the
// body and exactly one final newline. Known keys come first, in the order
// id, kind, title, importance, confidence, tags, session, created,
// updated, pinned, schema; id, title, tags, session, created and updated
// are left out when empty. Unknown keys from Parse follow in their
// original order, with comments where yaml.v3 keeps them; comments on
// known keys and on the front matter as a whole are kept too. Times are
// written in UTC to the second, tags as a flow list, and importance and
// confidence always with a decimal point.
//
// Marshal is deterministic. It normalises as Parse does (title, session and
// tags trimmed, body without leading blank lines), so Parse(Marshal(it))
// gives it back, and what Marshal wrote, read and written again, comes out
// byte for byte the same. Where yaml.v3 would change an unknown value on
// the way (some block scalars, empty nulls in flow collections) Marshal
// writes it in a plainer form; where it would move a comment on every
// rewrite, Marshal writes it where it settles. It refuses values that Parse
// would reject: an invalid id, an unknown kind, a number outside 0..1, a
// year outside 0..9999. It does not require a complete item; see Validate.
func (it *Item) Marshal() (data []byte, err error) {
	if err := it.check(); err != nil {
		return nil, fmt.Errorf("marshal %s: %w", it.name(), err)
	}
	defer func() {
		if r := recover(); r != nil {
			data, err = nil, fmt.Errorf("marshal %s: encoding front matter: %v", it.name(), r)
		}
	}()
	fm := it.fm
	if fm == nil {
		fm = &frontMatter{}
	}
	out, err := it.marshal(fm)
	if err != nil || !fm.hasComments() {
		return out, err
	}
	// yaml.v3 moves some comments (after a block scalar, say) each time it
	// reads and writes them, until they settle. Write them where they
	// settle, so that what Marshal wrote it writes again unchanged; if they
	// do not settle, drop them rather than churn.
	for range 3 {
		back, err := Parse("", out)
		if err != nil || back.fm == nil {
			break
		}
		again, err := it.marshal(back.fm)
		if err != nil {
			break
		}
		if bytes.Equal(again, out) {
			return out, nil
		}
		out = again
	}
	return it.marshal(fm.withoutComments())
}

// hasComments reports whether any comment was kept.
func (fm *frontMatter) hasComments() bool {
	if fm.doc != (comments{}) || fm.root != (comments{}) {
		return true
	}
	for _, n := range fm.known {
		if n != (keyNotes{}) {
			return true
		}
	}
	var inNodes func([]*yaml.Node) bool
	inNodes = func(nodes []*yaml.Node) bool {
		for _, n := range nodes {
			if commentsOf(n) != (comments{}) || inNodes(n.Content) {
				return true
			}
		}
		return false
	}
	return inNodes(fm.extra)
}

// withoutComments returns a copy of fm without any comments.
func (fm *frontMatter) withoutComments() *frontMatter {
	var strip func([]*yaml.Node) []*yaml.Node
	strip = func(nodes []*yaml.Node) []*yaml.Node {
		out := make([]*yaml.Node, len(nodes))
		for i, n := range nodes {
			c := *n
			comments{}.apply(&c)
			c.Content = strip(n.Content)
			out[i] = &c
		}
		return out
	}
	return &frontMatter{extra: strip(fm.extra)}
}

// marshal writes the item with the unknown keys and comments in fm.
func (it *Item) marshal(fm *frontMatter) ([]byte, error) {
	root := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
	fm.root.apply(root)
	add := func(key string, v *yaml.Node) {
		k := &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: key}
		if notes, ok := fm.known[key]; ok {
			// yaml.v3 puts a comment after "key:" on the key when the value
			// starts on the next line, and would write it after whatever
			// follows the value written here on one line.
			if notes.value.line == "" {
				notes.value.line, notes.key.line = notes.key.line, ""
			}
			notes.key.apply(k)
			notes.value.apply(v)
		}
		root.Content = append(root.Content, k, v)
	}
	scalar := func(tag, value string) *yaml.Node {
		n := &yaml.Node{Kind: yaml.ScalarNode, Tag: tag, Value: value}
		if strings.ContainsAny(value, "\n\r") {
			n.Style = yaml.DoubleQuotedStyle // see safeForm
		}
		return n
	}
	if it.ID != "" {
		add("id", scalar("!!str", it.ID))
	}
	add("kind", scalar("!!str", string(it.Kind)))
	if title := cleanString(it.Title); title != "" {
		add("title", scalar("!!str", title))
	}
	add("importance", scalar("!!float", formatUnit(it.Importance)))
	add("confidence", scalar("!!float", formatUnit(it.Confidence)))
	if tags := NormTags(it.Tags); len(tags) > 0 {
		seq := &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq", Style: yaml.FlowStyle}
		for _, t := range tags {
			seq.Content = append(seq.Content, scalar("!!str", t))
		}
		add("tags", seq)
	}
	if session := cleanString(it.Session); session != "" {
		add("session", scalar("!!str", session))
	}
	if !it.Created.IsZero() {
		add("created", scalar("!!timestamp", formatTime(it.Created)))
	}
	if !it.Updated.IsZero() {
		add("updated", scalar("!!timestamp", formatTime(it.Updated)))
	}
	add("pinned", scalar("!!bool", strconv.FormatBool(it.Pinned)))
	add("schema", scalar("!!int", strconv.Itoa(SchemaVersion)))
	known := len(root.Content)
	root.Content = append(root.Content, fm.extra...)
	doc := &yaml.Node{Kind: yaml.DocumentNode, Content: []*yaml.Node{root}}
	fm.doc.apply(doc)

	yml, err := encode(doc)
	if err == nil && len(fm.extra) > 0 && !survives(yml, fm.extra) {
		// yaml.v3 writes some values so that they read back differently:
		// block scalars with leading line breaks, tabs or more-indented
		// folded lines, and empty nulls as keys or in flow collections.
		// In a plainer form they survive.
		root.Content = append(root.Content[:known], safeForm(fm.extra)...)
		if yml, err = encode(doc); err == nil && !survives(yml, root.Content[known:]) {
			err = errors.New("yaml.v3 cannot write the unknown keys faithfully")
		}
	}
	if err != nil {
		return nil, fmt.Errorf("marshal %s: %w", it.name(), err)
	}
	var buf bytes.Buffer
	buf.Grow(len(yml) + len(it.Body) + 16)
	buf.WriteString("---\n")
	buf.Write(yml)
	buf.WriteString("---\n")
	if body := normBody(it.Body); body != "" {
		buf.WriteString(body)
		buf.WriteByte('\n')
	}
	return buf.Bytes(), nil
}

func encode(doc *yaml.Node) ([]byte, error) {
	var buf bytes.Buffer
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	if err := enc.Encode(doc); err != nil {
		return nil, err
	}
	if err := enc.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// survives reports whether the front matter yml, read back, ends with the
// key-value nodes extra, equal in kind, tag, value and anchor.
func survives(yml []byte, extra []*yaml.Node) bool {
	var doc yaml.Node
	if err := yaml.Unmarshal(yml, &doc); err != nil || len(doc.Content) != 1 {
		return false
	}
	got := doc.Content[0].Content
	if len(got) < len(extra) {
		return false
	}
	got = got[len(got)-len(extra):]
	for i := range extra {
		if !sameNode(got[i], extra[i], 0) {
			return false
		}
	}
	return true
}

func sameNode(a, b *yaml.Node, depth int) bool {
	if depth > 1000 || a.Kind != b.Kind || a.Anchor != b.Anchor || len(a.Content) != len(b.Content) {
		return false
	}
	switch a.Kind {
	case yaml.AliasNode:
		return a.Value == b.Value
	case yaml.ScalarNode:
		if a.Value != b.Value || a.ShortTag() != b.ShortTag() {
			return false
		}
	}
	for i := range a.Content {
		if !sameNode(a.Content[i], b.Content[i], depth+1) {
			return false
		}
	}
	return true
}

// safeForm returns a copy of nodes in a form that yaml.v3 writes
// faithfully: collections in block style, strings that span lines
// double-quoted and empty nulls spelled "~".
func safeForm(nodes []*yaml.Node) []*yaml.Node {
	out := make([]*yaml.Node, len(nodes))
	for i, n := range nodes {
		c := *n
		switch {
		case c.Kind == yaml.MappingNode || c.Kind == yaml.SequenceNode:
			c.Style &^= yaml.FlowStyle
		case c.Kind != yaml.ScalarNode:
		case c.ShortTag() == "!!null" && c.Value == "":
			c.Value, c.Style = "~", 0
		case c.Style&(yaml.LiteralStyle|yaml.FoldedStyle) != 0 || strings.ContainsAny(c.Value, "\n\r"):
			c.Style = yaml.DoubleQuotedStyle
		}
		c.Content = safeForm(n.Content)
		out[i] = &c
	}
	return out
}

func formatUnit(f float64) string {
	s := strconv.FormatFloat(f+0, 'f', -1, 64)
	if !strings.Contains(s, ".") {
		s += ".0"
	}
	return s
}

func formatTime(t time.Time) string {
	return t.UTC().Truncate(time.Second).Format(time.RFC3339)
}

// SplitTitle makes an item's title and body from text someone asked to
// remember: a short first line is the title and the rest the body; a long
// first line is cut at a word for the title and the body keeps all the
// text, so nothing is lost. The command line, MCP and the HTTP API all
// take text this way.
func SplitTitle(text string) (title, body string) {
	first, rest, _ := strings.Cut(text, "\n")
	first = strings.TrimSpace(strings.TrimLeft(first, "# "))
	r := []rune(first)
	if len(r) <= 80 {
		return first, strings.TrimSpace(rest)
	}
	cut := 72
	for i := cut; i > 40; i-- {
		if r[i] == ' ' {
			cut = i
			break
		}
	}
	return strings.TrimSpace(string(r[:cut])) + "…", text
}
