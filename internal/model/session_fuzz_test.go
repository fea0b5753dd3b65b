package model

import (
	"reflect"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

// FuzzParseSession: any session.yaml either is refused with an error or
// reads back the same after cairn rewrites it.
func FuzzParseSession(f *testing.F) {
	s := NewSession("3f1c9a52-7d4e-4b8a-9c61-2e5f0d8b7a14", AgentClaudeCode, time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC))
	s.Variables = map[string]string{"ticket": "OPS-42"}
	s.Sources = []Source{{Name: "a.jsonl", Offset: 10, First: "u1"}}
	s.Hooks = []string{"hook:1"}
	data, _ := s.Marshal()
	f.Add(data)
	f.Add([]byte("schema: 1\nid: x\nstatus: archived\nticket: OPS-42 # mine\n"))
	f.Add([]byte("schema: 9\n"))
	f.Add([]byte("- a\n- b\n"))
	f.Add([]byte("progress: {done: x}\n"))
	f.Add([]byte("started: 2026-01-02\nvariables: {a: 1, b: [x]}\n"))
	f.Add([]byte("&a x: *a\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := ParseSession("session.yaml", data)
		if err != nil {
			return
		}
		out, err := s.Marshal()
		if err != nil {
			return // an unknown key yaml.v3 cannot write back
		}
		back, err := ParseSession("session.yaml", out)
		if err != nil {
			t.Fatalf("rewrite does not parse: %v\n%s\n--- from\n%s", err, out, data)
		}
		s.extra, back.extra = nil, nil
		s.read, back.read = 0, 0 // how the file was, not what the session is
		norm := func(x *Session) {
			for _, tm := range []*time.Time{&x.Started, &x.Updated, &x.LastActivity} {
				*tm = tm.UTC().Truncate(time.Second)
			}
			if len(x.Variables) == 0 {
				x.Variables = nil
			}
			if len(x.Sources) == 0 {
				x.Sources = nil
			}
			if len(x.Hooks) == 0 {
				x.Hooks = nil
			}
		}
		norm(s)
		norm(back)
		if !reflect.DeepEqual(s, back) {
			t.Fatalf("rewrite changed the session:\n%+v\n%+v\n%s", s, back, out)
		}
	})
}

// FuzzWithKeys: keys added to an item's front matter read back, and the
// item stays the same.
func FuzzWithKeys(f *testing.F) {
	f.Add("Use PostgreSQL", "body\n---\nmore", "supersedes", "01JE0A1B2C3D4E5F6G7H8J9K0R")
	f.Add("x", "", "shared_from", "a b: c # d")
	f.Add("---", "---", "shared_item", "\"quoted\"\n")
	f.Fuzz(func(t *testing.T, title, body, key, value string) {
		if !ValidVariable(key) || isKnown(key) {
			return
		}
		it := NewItem(Decision, title, time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC))
		it.Body = body
		data, err := it.Marshal()
		if err != nil || it.Validate() != nil {
			return
		}
		want, err := Parse("x.md", data)
		if err != nil {
			return
		}
		out := WithKeys(data, key, value)
		got, err := Parse("x.md", out)
		if err != nil {
			t.Fatalf("%v\n%s", err, out)
		}
		if got.Title != want.Title || got.Body != want.Body || got.ID != want.ID {
			t.Fatalf("item changed: %+v\n%s", got, out)
		}
		if !utf8.ValidString(value) || strings.ContainsRune(value, 0) || strings.ContainsRune(value, '\uFEFF') {
			return // not text YAML keeps as it is
		}
		if v, ok := FrontKeys(out)[key]; !ok || v != value {
			t.Fatalf("key %s = %q (%v), want %q\n%s", key, v, ok, value, out)
		}
	})
}
