package ui

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/cairn-mem/cairn/internal/client"
	"github.com/cairn-mem/cairn/internal/memory"
	"github.com/cairn-mem/cairn/internal/model"
	"github.com/cairn-mem/cairn/internal/recall"
)

// TestTerminalEscapes: control characters in titles, snippets and
// subjects reach the terminal escaped through list, search and log (issue
// 12, item 7), and only the search marks' own escapes stay raw.
func TestTerminalEscapes(t *testing.T) {
	for in, want := range map[string]string{
		"plain title · ünïcode":    "plain title · ünïcode",
		"\x1b]0;pwned\a":           `\x1b]0;pwned\a`,
		"red \x1b[31mtext\x1b[0m":  `red \x1b[31mtext\x1b[0m`,
		"tab\tnew\nline\rcr":       `tab\tnew\nline\rcr`,
		"del\x7f c1\u009b31m":      `del\x7f c1\u009b31m`,
		"bad utf-8 \x9b31m \xff":   `bad utf-8 \x9b31m \xff`,
		"nul\x00 bell\a vt\v ff\f": `nul\x00 bell\a vt\v ff\f`,
	} {
		if got := Escape(in); got != want {
			t.Errorf("Escape(%q) = %q, want %q", in, got, want)
		}
	}

	hostile := "evil \x1b]0;owned\a\x1b[31mtitle"
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	it := model.NewItem(model.Note, hostile, now)
	it.Tags = []string{"t\x1b[2J"}
	var list bytes.Buffer
	if err := ListText(&list, []model.Entry{{Item: it, Path: it.Path()}}); err != nil {
		t.Fatal(err)
	}
	var log bytes.Buffer
	if err := LogText(&log, []memory.LogEntry{{Commit: "0123456789abcdef", Time: now, Subject: hostile, Session: "s\x1b[1m", Tags: []string{"v\x07"}}}); err != nil {
		t.Fatal(err)
	}
	res := &recall.SearchResults{Query: "q", Hits: []recall.SearchHit{{Title: hostile, Path: "core/notes/x.md", Kind: "note", Layer: "core", Snippet: "a «match» \x1b[5mblink", StartLine: 1, EndLine: 2}}}
	var search, searchTTY bytes.Buffer
	if err := SearchText(&search, res, false); err != nil {
		t.Fatal(err)
	}
	if err := SearchText(&searchTTY, res, true); err != nil {
		t.Fatal(err)
	}
	for name, out := range map[string]string{"list": list.String(), "log": log.String(), "search": search.String()} {
		if strings.ContainsAny(out, "\x1b\a\x00") {
			t.Errorf("%s printed a raw control character: %q", name, out)
		}
		if !strings.Contains(out, `evil \x1b]0;owned\a\x1b[31mtitle`) {
			t.Errorf("%s does not show the title escaped: %q", name, out)
		}
	}
	if got := strings.Count(searchTTY.String(), "\x1b"); got != 2 {
		t.Errorf("search on a terminal printed %d escapes, want the 2 of the bold mark: %q", got, searchTTY.String())
	}
	if !strings.Contains(searchTTY.String(), "\x1b[1mmatch\x1b[0m") || !strings.Contains(searchTTY.String(), `\x1b[5mblink`) {
		t.Errorf("search on a terminal: %q", searchTTY.String())
	}
}

// TestJSONIndent: every --json output is indented by two spaces and ends
// with a newline, and empty lists are [] rather than null.
func TestJSONIndent(t *testing.T) {
	var b bytes.Buffer
	if err := LogJSON(&b, nil); err != nil {
		t.Fatal(err)
	}
	if b.String() != "[]\n" {
		t.Errorf("LogJSON(nil) = %q", b.String())
	}
	b.Reset()
	if err := DaemonJSON(&b, client.DaemonState{Running: true, PID: 7, URL: "http://127.0.0.1:1"}); err != nil {
		t.Fatal(err)
	}
	want := "{\n  \"running\": true,\n  \"pid\": 7,\n  \"url\": \"http://127.0.0.1:1\"\n}\n"
	if b.String() != want {
		t.Errorf("DaemonJSON = %q, want %q", b.String(), want)
	}
}
