package docs

import (
	"math/rand"
	"strings"
	"testing"
	"time"

	"github.com/cairn-mem/cairn/internal/model"
)

// written is a session.yaml as cairn writes it, with every kind of line.
func written(t *testing.T, title string) []byte {
	t.Helper()
	s := model.NewSession("f50490c0-0000-4000-a000-000000000035", model.AgentClaudeCode, time.Date(2026, 12, 1, 5, 55, 47, 0, time.UTC))
	s.Title, s.Project, s.Branch, s.Model = title, "/home/dev/project", "main", "claude-opus"
	s.Prompts, s.Turns = 11, 30
	s.Updated, s.LastActivity = s.Started.Add(time.Hour), s.Started.Add(90*time.Minute+500*time.Millisecond)
	s.Progress = model.Progress{Done: 2, Total: 5}
	s.Summarized = model.SummaryMark{Segments: 3, Turns: 20, Through: "u-20"}
	s.Variables = map[string]string{"step": "3", "note": "a: b", "path": "/tmp/x"}
	s.Sources = []model.Source{{Name: "a.jsonl", Path: "/home/dev/.claude/projects/-home-dev-project/a.jsonl", Format: "claude", Offset: 1234, First: "u-1", Last: "u-2"}, {Name: "b.jsonl"}}
	s.Hooks = []string{"k1:abc", "k2"}
	b, err := s.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// sameAsYAML fails unless sessionTimes, when it reads b, finds what
// model.ParseSession does.
func sameAsYAML(t *testing.T, b []byte) (ok bool) {
	t.Helper()
	got, ok := sessionTimes(b)
	if !ok {
		return false
	}
	want, err := model.ParseSession("session.yaml", b)
	switch {
	case err != nil:
		t.Errorf("read without YAML, but ParseSession fails (%v):\n%s", err, b)
	case !got.Started.Equal(want.Started) || !got.Updated.Equal(want.Updated) || !got.LastActivity.Equal(want.LastActivity):
		t.Errorf("times %v %v %v, ParseSession's %v %v %v:\n%s", got.Started, got.Updated, got.LastActivity, want.Started, want.Updated, want.LastActivity, b)
	}
	return true
}

func TestSessionTimesReadsCairnsFiles(t *testing.T) {
	for _, title := range []string{
		"xcs and and xdmi",
		"Fix: the thing's \"quoted\" title", // single quotes
		"it's done",
		"Größe ändern — 日本語",
		"",
		"- a list?",
		"#1 problem",
		"yes",
		"123",
		"2026-12-01",
		"index xmdct.\ndatabase xqa", // a literal block
		"two\n\n  indented\nlines\n",
	} {
		if b := written(t, title); !sameAsYAML(t, b) && !strings.ContainsAny(title, "-#") && title != "" {
			t.Errorf("title %q: not read without YAML:\n%s", title, b)
		}
	}
	gen := "# cairn session: written by cairn; variables and progress may be edited by hand\nschema: 1\nid: f50490c0\nmemory_session: 01M8R2RTNRHEWX6FZ4Q669ZP2G\nagent: claude-code\nstatus: suspended\ntitle: xcs and and xdmi\nproject: /home/dev/project\nbranch: main\nprompts: 11\nturns: 30\nstarted: 2026-12-01T05:55:47Z\nupdated: 2026-12-01T06:55:47Z\nlast_activity: 2026-12-01T06:55:47Z\nprogress:\n  done: 0\n  total: 0\nsummarized:\n  segments: 0\n  turns: 0\n"
	if !sameAsYAML(t, []byte(gen)) {
		t.Errorf("not read without YAML:\n%s", gen)
	}
}

// Files cairn does not write, or YAML reads otherwise, or not at all:
// either left to YAML or read as it reads them.
func TestSessionTimesLeavesTheRestToYAML(t *testing.T) {
	base := "schema: 1\nid: x\nstarted: 2026-12-01T05:55:47Z\nlast_activity: 2026-12-01T06:55:47Z\n"
	for _, b := range []string{
		"",
		"# only a comment\n",
		"id: x\nstarted: 2026-12-01T05:55:47Z\n", // no schema: migrated
		"schema: 2\n" + base[10:],
		base + "started: 2026-12-02T05:55:47Z\n",      // repeated
		base + "title: a: b\n",                        // a mapping in a mapping
		base + "title: [a]\n",                         // a list
		base + "title: 'a\n",                          // unterminated
		base + "title: \"a\\\"b\"\n",                  // an escape
		base + "title: a # comment\n",                 // a comment
		base + "updated: 2026-12-01\n",                // a date
		base + "updated: 2026-12-01 05:55:47\n",       // YAML's other form
		base + "updated: '2026-12-01T05:55:47Z'\n",    // quoted
		base + "prompts: 012\n",                       // octal?
		base + "prompts: -1\n",                        // signed
		base + "prompts: 1_000\n",                     // YAML 1.1
		base + "progress:\n  done: 1\n  done: 2\n",    // repeated nested
		base + "progress:\n    done: 1\n",             // deeper
		base + "progress:\n  other: 1\n",              // unknown nested
		base + "variables:\n  yes: 1\n",               // a boolean key
		base + "variables:\n  a: 1\n  a: 2\n",         // repeated variable
		base + "hooks:\n  - a\n  - [b]\n",             // a list in a list
		base + "sources:\n  - name: a\n    name: b\n", // repeated in an item
		base + "sources:\n  - name: a\n  - offset: x\n",
		base + "sources:\n  - name: a\n      path: b\n",
		base + "sources: []\n",
		base + "extra: 1\n",
		base + "---\n",
		base + "title: |-\n    deeper\n  less\n",
		base + "title: |-\n  a\n   \n",
		base + "title: |-\nid: y\n",
		base + "title: |-\n  a\n\tb\n",
		base + "title: >-\n  a\n",
		base + "title: |2-\n   a\n",
		"title: |-\n  a\n" + base,
		"schema: 1\r\nid: x\r\n",
		"\ufeffschema: 1\nid: x\n",
		base + "title: \u2028\n",
		base + "\ttitle: x\n",
		" schema: 1\n",
	} {
		sameAsYAML(t, []byte(b))
	}
}

// Random edits of a file cairn writes, of the characters that mean
// something to YAML: whatever sessionTimes reads, YAML reads the same.
func TestSessionTimesRandomEdits(t *testing.T) {
	for _, title := range []string{"Fix: the thing's \"quoted\" title", "index xmdct.\n\n  database xqa"} {
		randomEdits(t, written(t, title))
	}
}

func randomEdits(t *testing.T, base []byte) {
	alphabet := []string{" ", "  ", "\n", ":", ": ", "-", "- ", "#", " #", "'", "\"", "''", "[", "]", "{", "}", ",", "&", "*", "!", "|", ">", "%", "@", "`", "\\", "~", "?", "0", "1", "T", "Z", "+", ".", "a", "é", "\t", "\r", "yes", "null", "---"}
	r := rand.New(rand.NewSource(1))
	read := 0
	for range 20000 {
		b := []byte(string(base))
		for range 1 + r.Intn(3) {
			i := r.Intn(len(b) + 1)
			switch r.Intn(3) {
			case 0: // insert
				b = append(b[:i:i], append([]byte(alphabet[r.Intn(len(alphabet))]), b[i:]...)...)
			case 1: // delete
				if i < len(b) {
					b = append(b[:i:i], b[i+1:]...)
				}
			default: // replace
				if i < len(b) {
					s := alphabet[r.Intn(len(alphabet))]
					b = append(b[:i:i], append([]byte(s), b[i+1:]...)...)
				}
			}
		}
		if sameAsYAML(t, b) {
			read++
		}
		if t.Failed() {
			return
		}
	}
	t.Logf("%d of 20000 edited files read without YAML", read)
}
