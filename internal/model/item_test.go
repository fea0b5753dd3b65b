package model

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"gopkg.in/yaml.v3"
)

var update = flag.Bool("update", false, "rewrite golden files in testdata")

const testID = "01JDXK3V9M2Q7Y8Z4T6R5W1HBC"

// canonical is a file in the form Marshal writes.
const canonical = `---
id: 01JDXK3V9M2Q7Y8Z4T6R5W1HBC
kind: decision
title: Use PostgreSQL for the job queue
importance: 0.9
confidence: 1.0
tags: [db, queue]
session: 7f3c2a10-5b1e-4c8e-9a61-2f0d4b7c9e11
created: 2026-11-30T05:43:00Z
updated: 2026-11-30T06:00:00Z
pinned: false
schema: 1
---
We chose PostgreSQL over Redis for the job queue because ...
`

// sameItem fails the test unless got and want have the same exported fields.
func sameItem(t *testing.T, got, want *Item) {
	t.Helper()
	g, w := *got, *want
	g.fm, w.fm = nil, nil
	g.read, w.read = 0, 0 // how the file was, not what the item is
	if !reflect.DeepEqual(g, w) {
		t.Errorf("items differ:\n got %#v\nwant %#v", g, w)
	}
}

func mustParse(t *testing.T, path, data string) *Item {
	t.Helper()
	it, err := Parse(path, []byte(data))
	if err != nil {
		t.Fatalf("Parse(%q): %v", path, err)
	}
	return it
}

func mustMarshal(t *testing.T, it *Item) []byte {
	t.Helper()
	b, err := it.Marshal()
	if err != nil {
		t.Fatalf("Marshal: %v", err)
	}
	return b
}

func TestParseCanonical(t *testing.T) {
	t.Parallel()
	it := mustParse(t, "core/decisions/x.md", canonical)
	want := &Item{
		ID:         testID,
		Kind:       Decision,
		Title:      "Use PostgreSQL for the job queue",
		Importance: 0.9,
		Confidence: 1,
		Tags:       []string{"db", "queue"},
		Session:    "7f3c2a10-5b1e-4c8e-9a61-2f0d4b7c9e11",
		Created:    time.Date(2026, 11, 30, 5, 43, 0, 0, time.UTC),
		Updated:    time.Date(2026, 11, 30, 6, 0, 0, 0, time.UTC),
		Schema:     1,
		Body:       "We chose PostgreSQL over Redis for the job queue because ...",
	}
	sameItem(t, it, want)
	if err := it.Validate(); err != nil {
		t.Errorf("Validate: %v", err)
	}
	if got := string(mustMarshal(t, it)); got != canonical {
		t.Errorf("Marshal of a canonical file changed it:\n%s", got)
	}
	if got, want := it.Path(), "core/decisions/use-postgresql-for-the-job-queue--"+testID+".md"; got != want {
		t.Errorf("Path() = %q, want %q", got, want)
	}
}

func TestParseErrors(t *testing.T) {
	t.Parallel()
	const path = "core/decisions/x.md"
	tests := []struct {
		name string
		in   string
		line int
		msg  string // the whole message when it starts with path, else a part of it
	}{
		{"unterminated", "---\nid: " + testID + "\ntitle: x\n", 1, `no closing "---"`},
		{"unterminated at eof", "---", 1, `no closing "---"`},
		{"closing not alone", "---\ntitle: x\n--- \t\n", 0, ""}, // trailing blanks are fine
		{"closing with text", "---\ntitle: x\n---x\n", 1, `no closing "---"`},
		{"wrong type", "---\nid: " + testID + "\nkind: decision\ntitle: t\nimportance: high\n---\n", 5,
			`core/decisions/x.md:5: importance: want a number, got "high"`},
		{"wrong type quoted", "---\nconfidence: \"very\"\n---\n", 2, `confidence: want a number, got "very"`},
		{"number is a list", "---\n\nimportance: [1]\n---\n", 3, "importance: want a number, got a list"},
		{"importance too big", "---\ntitle: t\nimportance: 1.5\n---\n", 3, "importance: want a number from 0 to 1, got 1.5"},
		{"confidence negative", "---\ntitle: t\n\nconfidence: -0.1\n---\n", 4, "confidence: want a number from 0 to 1, got -0.1"},
		{"importance nan", "---\nimportance: .nan\n---\n", 2, "importance: want a number from 0 to 1"},
		{"importance inf", "---\nimportance: .inf\n---\n", 2, "importance: want a number from 0 to 1"},
		{"unknown kind", "---\ntitle: t\nkind: idea\n---\n", 3,
			`kind: unknown kind "idea": want one of decision, fact, pattern, preference, note, summary, observation`},
		{"empty kind", "---\nkind: \"\"\n---\n", 2, `kind: unknown kind ""`},
		{"kind is a map", "---\nkind:\n  a: b\n---\n", 3, "kind: want a kind, got a mapping"},
		{"bad id", "---\nid: my-decision\n---\n", 2, `id: want a ULID (26 characters of 0-9 and A-Z but I, L, O and U, the first 0-7), got "my-decision"`},
		{"title is a list", "---\ntitle:\n  - a\n---\n", 3, "title: want a string, got a list"},
		{"tags is a map", "---\ntags: {a: 1}\n---\n", 2, "tags: want a list of strings, got a mapping"},
		{"tag is a list", "---\ntags:\n  - a\n  - [b]\n---\n", 4, "tags: want a list of strings, got a list in the list"},
		{"bad time", "---\ncreated: yesterday\n---\n", 2, `created: want an RFC 3339 time`},
		{"bad month", "---\nupdated: 2026-13-01\n---\n", 2, `updated: want an RFC 3339 time`},
		{"year out of range", "---\ncreated: 0000-01-01T00:00:00+01:00\n---\n", 2, "created: year -1 is outside 0..9999"},
		{"bad pinned", "---\npinned: maybe\n---\n", 2, `pinned: want true or false, got "maybe"`},
		{"future schema", "---\nschema: 2\n---\n", 2, "schema: version 2 is newer than this cairn knows (1)"},
		{"schema not a number", "---\nschema: one\n---\n", 2, `schema: want a whole number, got "one"`},
		{"repeated key", "---\ntitle: a\nkind: note\ntitle: b\n---\n", 4, "title: repeated key (first on line 2)"},
		{"repeated unknown key", "---\nx: 1\nx: 2\n---\n", 3, "x: repeated key (first on line 2)"},
		{"not a mapping: list", "---\n- a\n- b\n---\nbody\n", 2, "front matter is a list, want a mapping"},
		{"not a mapping: scalar", "---\n\njust text\n---\n", 3, `front matter is "just text", want a mapping`},
		{"invalid yaml: flow", "---\nkind: decision\ntitle: [unclosed\n---\nbody\n", 3, "invalid YAML in front matter: did not find expected ',' or ']'"},
		{"invalid yaml: indent", "---\nkind: decision\ntags:\n  - a\n bad: x\n---\n", 5, "invalid YAML in front matter: did not find expected key"},
		{"invalid yaml: no colon", "---\nkind: decision\ntitle\n---\n", 3, "invalid YAML in front matter: could not find expected ':'"},
		{"invalid yaml: nested", "---\nkind: decision\nx:\n  y: 1\n   z: 2\n---\n", 5, "invalid YAML in front matter: mapping values are not allowed in this context"},
		{"invalid yaml: tab", "---\nkind: decision\n\tx: 1\n---\n", 3, "invalid YAML in front matter: found a tab character that violates indentation"},
		{"invalid yaml: first line", "---\n: x: y\n---\n", 2, "invalid YAML in front matter"},
		{"invalid yaml: open quote", "---\nkind: decision\ntitle: \"open\n---\n", 3, "invalid YAML in front matter: found unexpected end of stream"},
		{"invalid yaml: control char", "---\nkind: decision\ntitle: a\x01b\n---\n", 3, "invalid YAML in front matter: control characters are not allowed"},
		{"invalid yaml: bad utf-8", "---\nkind: decision\n\ntitle: a\xffb\n---\n", 4, "invalid YAML in front matter"},
		{"invalid yaml: unknown anchor", "---\nkind: decision\nx: 1\ny: *nope\n---\n", 4, "invalid YAML in front matter: unknown anchor 'nope' referenced"},
		{"two documents", "---\nkind: decision\n--- x\n---\n", 3, "more than one YAML document"},
		// A BOM and CRLF line endings do not shift the line.
		{"crlf", "\uFEFF---\r\nid: " + testID + "\r\nkind: decision\r\ntitle: t\r\nimportance: high\r\n---\r\nbody\r\n", 5,
			`core/decisions/x.md:5: importance: want a number, got "high"`},
		{"crlf invalid yaml", "---\r\nkind: decision\r\ntitle: [unclosed\r\n---\r\n", 3, "did not find expected ',' or ']'"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			it, err := Parse(path, []byte(tt.in))
			if tt.line == 0 {
				if err != nil {
					t.Fatalf("Parse: %v", err)
				}
				return
			}
			if err == nil {
				t.Fatalf("Parse succeeded: %#v", it)
			}
			if it != nil {
				t.Errorf("Parse returned an item with its error")
			}
			var pe *ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("error %v (%T) is not a *ParseError", err, err)
			}
			if pe.Path != path || pe.Line != tt.line {
				t.Errorf("error at %s:%d, want %s:%d (%v)", pe.Path, pe.Line, path, tt.line, err)
			}
			msg := err.Error()
			if strings.HasPrefix(tt.msg, path) {
				if msg != tt.msg {
					t.Errorf("error %q, want %q", msg, tt.msg)
				}
			} else if !strings.Contains(msg, tt.msg) {
				t.Errorf("error %q does not contain %q", msg, tt.msg)
			}
			if pe.Unwrap() == nil {
				t.Errorf("Unwrap() = nil")
			}
		})
	}
}

func TestParseErrorString(t *testing.T) {
	t.Parallel()
	e := errors.New("boom")
	tests := []struct {
		pe   ParseError
		want string
	}{
		{ParseError{"a.md", 3, e}, "a.md:3: boom"},
		{ParseError{"a.md", 0, e}, "a.md: boom"},
		{ParseError{"", 3, e}, "line 3: boom"},
		{ParseError{"", 0, e}, "boom"},
	}
	for _, tt := range tests {
		if got := tt.pe.Error(); got != tt.want {
			t.Errorf("Error() = %q, want %q", got, tt.want)
		}
		if !errors.Is(&tt.pe, e) {
			t.Errorf("errors.Is(%v, e) = false", &tt.pe)
		}
	}
}

func TestParseLenient(t *testing.T) {
	t.Parallel()
	created := time.Date(2024, 11, 30, 3, 51, 29, 0, time.UTC) // the time in testID
	path := "core/notes/some-note--" + testID + ".md"
	tests := []struct {
		name string
		path string
		in   string
		want Item
	}{
		{
			name: "no front matter",
			path: path,
			in:   "# A heading #\n\nSome text.\n",
			want: Item{ID: testID, Kind: Note, Title: "A heading", Importance: 0.5, Confidence: 1, Schema: 1,
				Created: created, Updated: created, Body: "# A heading #\n\nSome text."},
		},
		{
			name: "no front matter, no id in the name",
			path: "inbox/scratch.md",
			in:   "\n\n  first line is the title  \nsecond\n",
			want: Item{Kind: Note, Title: "first line is the title", Importance: 0.5, Confidence: 1, Schema: 1,
				Body: "  first line is the title  \nsecond"},
		},
		{
			name: "empty file",
			path: "x.md",
			in:   "",
			want: Item{Kind: Note, Importance: 0.5, Confidence: 1, Schema: 1},
		},
		{
			name: "thematic break is not front matter",
			path: "x.md",
			in:   "----\ntext\n",
			want: Item{Kind: Note, Title: "----", Importance: 0.5, Confidence: 1, Schema: 1, Body: "----\ntext"},
		},
		{
			name: "empty front matter",
			path: path,
			in:   "---\n---\nbody",
			want: Item{ID: testID, Kind: Note, Title: "body", Importance: 0.5, Confidence: 1, Schema: 1,
				Created: created, Updated: created, Body: "body"},
		},
		{
			name: "comments only",
			path: "x.md",
			in:   "---\n# nothing yet\n---\n",
			want: Item{Kind: Note, Importance: 0.5, Confidence: 1, Schema: 1},
		},
		{
			name: "null front matter and null values",
			path: "x.md",
			in:   "---\n~\n---\n",
			want: Item{Kind: Note, Importance: 0.5, Confidence: 1, Schema: 1},
		},
		{
			name: "nulls take defaults",
			path: "x.md",
			in:   "---\nid:\nkind: ~\ntitle:\nimportance: null\ntags:\ncreated:\nschema:\n---\n",
			want: Item{Kind: Note, Importance: 0.5, Confidence: 1, Schema: 1},
		},
		{
			name: "bom, crlf, loose values",
			path: "x.md",
			in: "\uFEFF---\r\nid: " + strings.ToLower(testID) + "\r\nkind: Decisions\r\ntitle: '  spaced  '\r\n" +
				"importance: \"0.25\"\r\nconfidence: 1\r\ntags: db, queue ,, db\r\npinned: yes\r\n" +
				"created: 2026-11-30\r\nupdated: 2026-11-30T07:43:00.999+02:00\r\n---\r\n\r\n\r\nline one\r\nline two\r\n\r\n",
			want: Item{ID: testID, Kind: Decision, Title: "spaced", Importance: 0.25, Confidence: 1,
				Tags: []string{"db", "queue"}, Pinned: true, Schema: 1,
				Created: time.Date(2026, 11, 30, 0, 0, 0, 0, time.UTC), Updated: time.Date(2026, 11, 30, 5, 43, 0, 0, time.UTC),
				Body: "line one\nline two"},
		},
		{
			name: "front matter id wins over the file name",
			path: "core/facts/x--01ARZ3NDEKTSV4RRFFQ69G5FAV.md",
			in:   "---\nid: " + testID + "\nkind: fact\ntitle: t\ncreated: 2026-01-02 03:04:05\n---\n",
			want: Item{ID: testID, Kind: Fact, Title: "t", Importance: 0.5, Confidence: 1, Schema: 1,
				Created: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC), Updated: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)},
		},
		{
			name: "tags in a block list, with nulls and numbers",
			path: "x.md",
			in:   "---\ntags:\n  - db\n  -\n  - 42\n  - \"\"\n  - db\n---\n",
			want: Item{Kind: Note, Importance: 0.5, Confidence: 1, Schema: 1, Tags: []string{"db", "42"}},
		},
		{
			name: "aliases to known values",
			path: "x.md",
			in:   "---\nx: &t Hello\ntitle: *t\ntags: [*t]\n---\n",
			want: Item{Kind: Note, Title: "Hello", Importance: 0.5, Confidence: 1, Schema: 1, Tags: []string{"Hello"}},
		},
		{
			name: "title from the body is cut",
			path: "x.md",
			in:   "---\nkind: note\n---\n" + strings.Repeat("word ", 30),
			want: Item{Kind: Note, Title: strings.TrimSpace(strings.Repeat("word ", 20)) + "…", Importance: 0.5, Confidence: 1, Schema: 1,
				Body: strings.Repeat("word ", 30)},
		},
		{
			name: "body keeps lone carriage returns and inner blank lines",
			path: "x.md",
			in:   "---\ntitle: t\n---\na\rb\r\r\n\n\nc\r",
			want: Item{Kind: Note, Title: "t", Importance: 0.5, Confidence: 1, Schema: 1, Body: "a\rb\n\n\nc"},
		},
		{
			name: "closing delimiter at end of file",
			path: "x.md",
			in:   "---\ntitle: t\n---",
			want: Item{Kind: Note, Title: "t", Importance: 0.5, Confidence: 1, Schema: 1},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			it := mustParse(t, tt.path, tt.in)
			sameItem(t, it, &tt.want)
			// Whatever Parse accepts, Marshal writes and Parse reads back.
			again := mustParse(t, tt.path, string(mustMarshal(t, it)))
			sameItem(t, again, it)
		})
	}
}

func TestRoundTrip(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 11, 30, 5, 43, 7, 0, time.UTC)
	titles := []string{
		"Use PostgreSQL for the job queue",
		"key: value # not a comment",
		"'quoted' and \"double\"",
		"yes", "null", "123", "0.5", "2026-11-30", "- list?", "[flow]", "{map}", "&anchor", "*alias", "!tag", "|", ">", "@at", "`tick`", "%percent",
		"---", "...", "#hash",
		"tab\there", "unicode ✓ 日本語", "trailing backslash \\",
	}
	bodies := []string{
		"",
		"one line",
		"---\nnot front matter\n---",
		"# Heading\n\n- list\n\n```go\nfunc main() {}\n```",
		"  indented code stays\n\n\n\nmany blank lines inside",
		"binary \xff\xfe body",
	}
	for i, title := range titles {
		it := NewItem(AllKinds()[i%len(AllKinds())], title, now.Add(time.Duration(i)*time.Hour))
		it.Importance = float64(i) / float64(len(titles))
		it.Confidence = 1 - it.Importance/3
		it.Tags = []string{"a", title, "c d"}
		it.Session = "session-" + title
		it.Pinned = i%2 == 0
		it.Body = bodies[i%len(bodies)]
		it.Updated = it.Created.Add(time.Minute)
		b := mustMarshal(t, it)
		got := mustParse(t, it.Path(), string(b))
		sameItem(t, got, it)
		if b2 := mustMarshal(t, got); !bytes.Equal(b, b2) {
			t.Errorf("Marshal not stable for title %q:\n%s\n---- then ----\n%s", title, b, b2)
		}
		if !bytes.HasSuffix(b, []byte("\n")) || bytes.HasSuffix(b, []byte("\n\n")) {
			t.Errorf("Marshal does not end with exactly one newline: %q", b)
		}
	}
}

func TestMarshalNormalises(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 11, 30, 5, 43, 7, 999e6, time.FixedZone("CET", 3600))
	it := NewItem(Fact, "  padded title \n", now)
	it.Created = now
	it.Tags = []string{" b ", "", "a", "b"}
	it.Body = "\r\n\nbody\r\nline\r\n\r\n"
	got := string(mustMarshal(t, it))
	want := "---\nid: " + it.ID + "\nkind: fact\ntitle: padded title\nimportance: 0.5\nconfidence: 1.0\ntags: [b, a]\n" +
		"created: 2026-11-30T04:43:07Z\nupdated: 2026-11-30T04:43:07Z\npinned: false\nschema: 1\n---\nbody\nline\n"
	if got != want {
		t.Errorf("Marshal:\n%s\nwant:\n%s", got, want)
	}
	// An item without id or title (a hand-written note) still writes.
	bare := &Item{Kind: Note, Importance: 0, Confidence: 0}
	if got, want := string(mustMarshal(t, bare)), "---\nkind: note\nimportance: 0.0\nconfidence: 0.0\npinned: false\nschema: 1\n---\n"; got != want {
		t.Errorf("Marshal of a bare item:\n%s\nwant:\n%s", got, want)
	}
}

func TestMarshalRejects(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 11, 30, 5, 43, 0, 0, time.UTC)
	tests := []struct {
		name string
		edit func(*Item)
		msg  string
	}{
		{"bad id", func(it *Item) { it.ID = "nope" }, `id: "nope" is not an upper-case ULID`},
		{"lower-case id", func(it *Item) { it.ID = strings.ToLower(it.ID) }, "is not an upper-case ULID"},
		{"no kind", func(it *Item) { it.Kind = "" }, `kind: unknown kind ""`},
		{"bad kind", func(it *Item) { it.Kind = "Decision" }, `kind: unknown kind "Decision"`},
		{"importance", func(it *Item) { it.Importance = 1.01 }, "importance: 1.01 is outside 0..1"},
		{"confidence nan", func(it *Item) { it.Confidence = nan() }, "confidence: NaN is outside 0..1"},
		{"year", func(it *Item) { it.Updated = time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC) }, "updated: year 10000 is outside 0..9999"},
		{"schema", func(it *Item) { it.Schema = 2 }, "schema: version 2 is not 1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			it := NewItem(Decision, "t", now)
			tt.edit(it)
			b, err := it.Marshal()
			if err == nil {
				t.Fatalf("Marshal succeeded:\n%s", b)
			}
			if !strings.Contains(err.Error(), tt.msg) {
				t.Errorf("error %q does not contain %q", err, tt.msg)
			}
			if err := it.Validate(); err == nil || !strings.Contains(err.Error(), tt.msg) {
				t.Errorf("Validate() = %v, want an error containing %q", err, tt.msg)
			}
		})
	}
}

func nan() float64 {
	zero := 0.0
	return zero / zero
}

func TestValidate(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 11, 30, 5, 43, 0, 0, time.UTC)
	ok := NewItem(Pattern, "A pattern", now)
	if err := ok.Validate(); err != nil {
		t.Errorf("Validate(new item) = %v", err)
	}
	tests := []struct {
		name string
		edit func(*Item)
		msg  string
	}{
		{"no id", func(it *Item) { it.ID = "" }, "id is missing"},
		{"no title", func(it *Item) { it.Title = " \t" }, "title is empty"},
		{"several", func(it *Item) { it.Title = ""; it.Importance = -1 }, "importance: -1 is outside 0..1; title is empty"},
	}
	for _, tt := range tests {
		it := *ok
		tt.edit(&it)
		err := it.Validate()
		if err == nil || !strings.Contains(err.Error(), tt.msg) {
			t.Errorf("%s: Validate() = %v, want an error containing %q", tt.name, err, tt.msg)
		}
	}
}

// unknownOf decodes the front matter of a file into a map without the known keys.
func unknownOf(t *testing.T, data []byte) map[any]any {
	t.Helper()
	fm, _, _ := strings.Cut(strings.TrimPrefix(string(data), "---\n"), "\n---\n")
	var m map[any]any
	if err := yaml.Unmarshal([]byte(fm+"\n"), &m); err != nil {
		t.Fatalf("front matter does not decode: %v\n%s", err, fm)
	}
	for k := range m {
		if s, ok := k.(string); ok && isKnown(s) {
			delete(m, k)
		}
	}
	return m
}

func TestUnknownKeysSurvive(t *testing.T) {
	t.Parallel()
	in := `---
# Written by hand.

source: https://example.com/adr/7   # where this came from
id: 01JDXK3V9M2Q7Y8Z4T6R5W1HBC
kind: decision
# a comment on the title
title: Use PostgreSQL   # short
importance: 0.9   # 0..1
reviewers:
  - name: ana
    teams: [db, infra]
  - name: bo
links: &links
  adr: {number: 7, status: accepted}
  issue: 1234
same_links: *links
title_again: &t Use PostgreSQL
tags: [db]
? complex key
: value
multi: |
  line one
  line two
1: numeric key
created: 2026-11-30T05:43:00Z
# last comment
---
Body.
`
	it := mustParse(t, "core/decisions/x.md", in)
	before := unknownOf(t, []byte(in))
	if len(before) != 8 {
		t.Fatalf("test input has %d unknown keys, want 8: %v", len(before), before)
	}

	it.Title = "Use PostgreSQL for the job queue"
	it.Importance = 0.95
	it.Tags = append(it.Tags, "queue")
	it.Updated = time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)
	out := mustMarshal(t, it)
	if after := unknownOf(t, out); !reflect.DeepEqual(after, before) {
		t.Errorf("unknown keys changed:\n got %v\nwant %v\n%s", after, before, out)
	}
	for _, c := range []string{"# Written by hand.", "# where this came from", "# a comment on the title", "# short", "# 0..1", "# last comment"} {
		if !bytes.Contains(out, []byte(c)) {
			t.Errorf("comment %q lost:\n%s", c, out)
		}
	}
	// Known keys first and in order, unknown keys after them in file order.
	var order []string
	for line := range strings.Lines(string(out)) {
		if k, _, ok := strings.Cut(line, ":"); ok && k != "" && !strings.ContainsAny(k[:1], " #-") {
			order = append(order, k)
		}
	}
	want := []string{"id", "kind", "title", "importance", "confidence", "tags", "created", "updated", "pinned", "schema",
		"source", "reviewers", "links", "same_links", "title_again", "complex key", "multi", "1"}
	if !reflect.DeepEqual(order, want) {
		t.Errorf("keys in order %v, want %v\n%s", order, want, out)
	}

	again := mustParse(t, "core/decisions/x.md", string(out))
	sameItem(t, again, it)
	if out2 := mustMarshal(t, again); !bytes.Equal(out, out2) {
		t.Errorf("second rewrite differs:\n%s\n---- then ----\n%s", out, out2)
	}
}

// An alias in an unknown key to an anchor on a known key must still
// resolve after Marshal drops the anchor.
func TestUnknownAliasToKnownKey(t *testing.T) {
	t.Parallel()
	in := "---\ntags: &t [a, b]\ntitle: &name Hello\nx: *t\ny: {n: *name, t: *t}\n---\n"
	it := mustParse(t, "x.md", in)
	it.Tags = []string{"c"}
	out := mustMarshal(t, it)
	got := unknownOf(t, out)
	want := map[any]any{"x": []any{"a", "b"}, "y": map[string]any{"n": "Hello", "t": []any{"a", "b"}}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("unknown keys = %v, want %v\n%s", got, want, out)
	}
}

func TestAliasBomb(t *testing.T) {
	t.Parallel()
	// Aliases among unknown keys stay aliases, however much they stand for.
	in := "---\na: &a [x, x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]\n" +
		"c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]\nd: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]\n---\n"
	it := mustParse(t, "x.md", in)
	out := mustMarshal(t, it)
	if len(out) > 2*len(in) {
		t.Errorf("aliases were expanded:\n%s", out)
	}
	// Aliases to a known key are copied, within limits.
	var b strings.Builder
	b.WriteString("---\ntags: &t [")
	for i := range 200 {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString("x")
	}
	b.WriteString("]\nz: [")
	for i := range 100 {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString("*t")
	}
	b.WriteString("]\n---\n")
	_, err := Parse("x.md", []byte(b.String()))
	var pe *ParseError
	if !errors.As(err, &pe) || pe.Line != 3 || !strings.Contains(err.Error(), "aliases expand to too much data") {
		t.Errorf("Parse of an alias bomb: %v", err)
	}
}

// TestGolden parses every .md file in testdata/items and compares Marshal's
// output with the .golden file next to it. Files named canonical-*.md are
// in Marshal's form and must come out byte for byte the same.
func TestGolden(t *testing.T) {
	t.Parallel()
	files, err := filepath.Glob(filepath.Join("testdata", "items", "*.md"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no golden inputs: %v", err)
	}
	for _, file := range files {
		name := filepath.Base(file)
		t.Run(name, func(t *testing.T) {
			in, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			it, err := Parse("core/x/"+name, in)
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			out := mustMarshal(t, it)
			golden := strings.TrimSuffix(file, ".md") + ".golden"
			if *update {
				if err := os.WriteFile(golden, out, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run with -update to create it)", err)
			}
			if !bytes.Equal(out, want) {
				t.Errorf("Marshal differs from %s:\n%s", golden, out)
			}
			if strings.HasPrefix(name, "canonical-") && !bytes.Equal(out, in) {
				t.Errorf("canonical file changed by a rewrite:\n%s", out)
			}
			// The golden form is a fixed point.
			again := mustParse(t, "core/x/"+name, string(want))
			sameItem(t, again, it)
			if out2 := mustMarshal(t, again); !bytes.Equal(out2, want) {
				t.Errorf("rewrite of %s changes it:\n%s", golden, out2)
			}
		})
	}
}

func FuzzParse(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("testdata", "items", "*.md"))
	for _, file := range files {
		b, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	for _, s := range []string{
		canonical,
		"",
		"---",
		"---\n---\n",
		"# title\nbody",
		"---\r\ntitle: x\r\n---\r\nbody\r\n",
		"\uFEFF---\ntags: a, b\n---\n",
		"---\nx: &a [1, {b: *a}]\ntags: &t [q]\ny: *t\n---\n",
		"---\nimportance: high\n---\n",
		"---\n- list\n---\n",
		"---\nkind: fact\n# c\nz: |+\n  keep\n\n---\n",
		"---\n# head\n\n# key head\ntitle: t # line\n# foot of title\n\nx: [a, # in flow\n  b]\ny:\n  # inner\n  - 1 # one\n  # inner foot\n# doc foot\n---\n",
		"---\nz: >-\n  folded\n  text\n# after block\nkind: note # k\n\n\n# gap\nw: {a: 1} # m\n---\n",
		"---\n? |\n  block key\n: v\n!!str 1: x\n<<: {a: 1}\n\"title\": \"q\\u2028r\"\n---\n",
		"---\n{kind: fact, title: flow, u: [1, 2]}\n---\n",
		"---\nx: !custom {a: b}\ny: !!binary aGVsbG8=\nz: 'it''s'\n---\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		const path = "core/notes/fuzz--" + testID + ".md"
		it, err := Parse(path, data)
		if err != nil {
			var pe *ParseError
			if !errors.As(err, &pe) || pe.Line < 1 {
				t.Fatalf("Parse error %v is not a *ParseError with a line", err)
			}
			return
		}
		b, err := it.Marshal()
		if err != nil {
			t.Fatalf("Marshal of a parsed item: %v\n%#v", err, it)
		}
		again, err := Parse(path, b)
		if err != nil {
			t.Fatalf("Parse of Marshal output: %v\n%s", err, b)
		}
		sameItem(t, again, it)
		b2, err := again.Marshal()
		if err != nil {
			t.Fatalf("second Marshal: %v", err)
		}
		if !bytes.Equal(b, b2) {
			t.Errorf("Marshal not stable:\n%q\n---- then ----\n%q", b, b2)
		}
	})
}

func FuzzMarshal(f *testing.F) {
	f.Add("Use PostgreSQL", "db", "7f3c2a10", "body", 0.5, int64(1764481380))
	f.Add("a\u2028b\u0085c\ufeffd", "x, y", "\x00", "---\n...\n", 1.0, int64(0))
	f.Add("\"'\\\n\t", "", "  ", "\r\r\n", 0.0, int64(-62135596800))
	f.Fuzz(func(t *testing.T, title, tag, session, body string, importance float64, unix int64) {
		it := NewItem(Decision, title, time.Unix(unix, 0))
		it.Tags = []string{tag, "fixed"}
		it.Session = session
		it.Body = body
		it.Importance = importance
		b, err := it.Marshal()
		if err != nil {
			if importance >= 0 && importance <= 1 && inYearRange(it.Created) {
				t.Fatalf("Marshal: %v", err)
			}
			return
		}
		got, err := Parse(it.Path(), b)
		if err != nil {
			t.Fatalf("Parse of Marshal output: %v\n%s", err, b)
		}
		want := *it
		want.Title = cleanString(title)
		if want.Title == "" {
			want.Title = titleFrom(normBody(body))
		}
		want.Session = cleanString(session)
		want.Tags = NormTags(it.Tags)
		want.Body = normBody(body)
		if want.Created.IsZero() { // Parse takes it from the id
			want.Created, _ = idTime(want.ID)
			want.Updated = want.Created
		}
		sameItem(t, got, &want)
		if b2 := mustMarshal(t, got); cleanString(title) != "" && !it.Created.IsZero() && !bytes.Equal(b, b2) {
			t.Errorf("Marshal not stable:\n%q\n---- then ----\n%q", b, b2)
		}
	})
}

func TestCommentsStayWithKeys(t *testing.T) {
	t.Parallel()
	in := "---\n" +
		"title: t   # on title\n" +
		"tags:   # on tags\n  - a\n  - b\n" +
		"custom:   # on custom\n  - x\n" +
		"importance: 0.25 # on importance\n" +
		"session: s\n" +
		"---\n"
	out := string(mustMarshal(t, mustParse(t, "x.md", in)))
	for _, want := range []string{
		"title: t # on title\n",
		"tags: [a, b] # on tags\n",
		"custom: # on custom\n",
		"importance: 0.25 # on importance\n",
		"session: s\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

// yaml.v3 writes some block scalars so that they read back differently;
// Marshal must notice and quote them.
func TestUnknownBlockScalarsSurvive(t *testing.T) {
	t.Parallel()
	values := []string{"\n0\n", " 0", "\n\n0", "0\n\n\n", "\t0", " \n0", "a\n b\nc", "a\n\n b", "a \nb", "\n", "a\n\tb", "\n\n", "a\n\n", "plain"}
	for _, v := range values {
		for _, style := range []yaml.Style{0, yaml.LiteralStyle, yaml.FoldedStyle} {
			n := &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: v, Style: style}
			it := NewItem(Note, "t", time.Date(2026, 11, 30, 0, 0, 0, 0, time.UTC))
			it.fm = &frontMatter{extra: []*yaml.Node{
				{Kind: yaml.ScalarNode, Tag: "!!str", Value: "u"}, n,
				{Kind: yaml.ScalarNode, Tag: "!!str", Value: "l"}, {Kind: yaml.SequenceNode, Tag: "!!seq", Content: []*yaml.Node{n}},
			}}
			out := mustMarshal(t, it)
			got := unknownOf(t, out)
			if got["u"] != v || got["l"].([]any)[0] != v {
				t.Errorf("value %q (style %v) came back as %q and %q:\n%s", v, style, got["u"], got["l"], out)
			}
			again := mustParse(t, "x.md", string(out))
			if out2 := mustMarshal(t, again); !bytes.Equal(out, out2) {
				t.Errorf("value %q (style %v): rewrite not stable:\n%s\n----\n%s", v, style, out, out2)
			}
		}
	}
}

func ExampleParse() {
	file := "---\nkind: decision\ntitle: Use PostgreSQL\nimportance: 0.9\nowner: ana\n---\nBecause we already run it.\n"
	it, err := Parse("core/decisions/use-postgresql--01JDXK3V9M2Q7Y8Z4T6R5W1HBC.md", []byte(file))
	if err != nil {
		fmt.Println(err)
		return
	}
	it.Tags = append(it.Tags, "db")
	out, err := it.Marshal()
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Print(string(out))
	// Output:
	// ---
	// id: 01JDXK3V9M2Q7Y8Z4T6R5W1HBC
	// kind: decision
	// title: Use PostgreSQL
	// importance: 0.9
	// confidence: 1.0
	// tags: [db]
	// created: 2024-11-30T03:51:29Z
	// updated: 2024-11-30T03:51:29Z
	// pinned: false
	// schema: 1
	// owner: ana
	// ---
	// Because we already run it.
}

func ExampleParse_error() {
	_, err := Parse("core/decisions/x.md", []byte("---\nkind: decision\ntitle: x\nimportance: high\n---\n"))
	fmt.Println(err)
	// Output: core/decisions/x.md:4: importance: want a number, got "high"
}

func BenchmarkParse(b *testing.B) {
	data := []byte(canonical)
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if _, err := Parse("x.md", data); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkMarshal(b *testing.B) {
	it, err := Parse("x.md", []byte(canonical))
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := it.Marshal(); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkMarshalUnknownKeys(b *testing.B) {
	data, err := os.ReadFile(filepath.Join("testdata", "items", "canonical-unknown-keys.md"))
	if err != nil {
		b.Fatal(err)
	}
	it, err := Parse("x.md", data)
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := it.Marshal(); err != nil {
			b.Fatal(err)
		}
	}
}

// Inputs where yaml.v3 alone does not write back what it read, or moves
// comments on every rewrite: the rewrite must keep the values and be a
// fixed point.
func TestRewriteIsFixedPoint(t *testing.T) {
	t.Parallel()
	inputs := []string{
		"---\nu: >\n 000\n# after a folded scalar\n---\n",
		"---\nu: |\n  text\n\n# after a literal scalar\nv: 1\n---\n",
		"---\nu: >\n \n 0\n---\n",             // leading line break in folded text
		"---\nu: {a: {b}}\n---\n",             // empty null in a flow mapping
		"---\nu: [a, !!null ]\n---\n",         // empty null in a flow sequence
		"---\n! : x\n---\n",                   // empty null key
		"---\nu: {a: [b, {c}]} # deep\n---\n", // nested flow
	}
	for _, in := range inputs {
		it := mustParse(t, "x.md", in)
		want := unknownOf(t, []byte(in))
		out := mustMarshal(t, it)
		if got := unknownOf(t, out); !reflect.DeepEqual(got, want) {
			t.Errorf("%q: unknown keys %v, want %v:\n%s", in, got, want, out)
		}
		again := mustParse(t, "x.md", string(out))
		sameItem(t, again, it)
		if out2 := mustMarshal(t, again); !bytes.Equal(out, out2) {
			t.Errorf("%q: rewrite not stable:\n%s\n----\n%s", in, out, out2)
		}
	}
}
