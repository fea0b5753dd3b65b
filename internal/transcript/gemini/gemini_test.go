package gemini

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/cairn-mem/cairn/internal/transcript"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/golden")

const (
	chat   = "testdata/session-2026-12-01T23-55-3f2a9c1e.jsonl"
	legacy = "testdata/session-2025-11-20T09-12-8c1d2e3f.json"
)

func read(t testing.TB, name string) []byte {
	t.Helper()
	data, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// Both kinds of chat file are told apart from the other agents'
// transcripts, and name their session in their first bytes.
func TestDetect(t *testing.T) {
	t.Parallel()
	for name, id := range map[string]string{chat: "3f2a9c1e-7b4d-4e2a-9c1e-5d6f7a8b9c0d", legacy: "8c1d2e3f-4a5b-4c6d-8e7f-9a0b1c2d3e4f"} {
		data := read(t, name)
		if f, err := transcript.Detect(name, data); f != transcript.FormatGemini || err != nil {
			t.Errorf("%s: detected %q, %v", name, f, err)
		}
		if got := SessionID(data); got != id {
			t.Errorf("%s: session %q", name, got)
		}
		if got := transcript.SessionIDFromPath(name); got != "" {
			t.Errorf("%s: the file name gives session %q", name, got)
		}
	}
}

// The events of each sample, finished and as a tailer sees it, are those
// of its golden file.
func TestGolden(t *testing.T) {
	t.Parallel()
	for _, name := range []string{chat, legacy} {
		data := read(t, name)
		tail := Parse(data, transcript.Options{Name: filepath.Base(name)})
		p := Parse(data, transcript.Options{Name: filepath.Base(name), Final: true})
		g := struct {
			TailConsumed int64              `json:"tail_consumed"`
			TailEvents   int                `json:"tail_events"`
			Consumed     int64              `json:"consumed"`
			Lines        int                `json:"lines"`
			Errors       int                `json:"errors"`
			Events       []transcript.Event `json:"events"`
		}{tail.Consumed, len(tail.Events), p.Consumed, p.Lines, len(p.Errors), p.Events}
		got, err := json.MarshalIndent(g, "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, '\n')
		path := filepath.Join("testdata", "golden", filepath.Base(name)+".json")
		if *update {
			os.MkdirAll(filepath.Dir(path), 0o755)
			if err := os.WriteFile(path, got, 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if want := read(t, path); !bytes.Equal(got, want) {
			t.Errorf("parse of %s differs from %s (run go test -update and review the diff):\n%s", name, path, got)
		}
	}
}

// What the events say, checked by hand once (the golden file keeps it).
func TestEvents(t *testing.T) {
	t.Parallel()
	p := Parse(read(t, chat), transcript.Options{Final: true})
	var kinds []string
	for _, e := range p.Events {
		kinds = append(kinds, string(e.Kind))
		if e.SessionID != "3f2a9c1e-7b4d-4e2a-9c1e-5d6f7a8b9c0d" {
			t.Errorf("%s event of session %q", e.Kind, e.SessionID)
		}
	}
	want := "session_start user_prompt tool_call tool_result tool_call tool_result assistant_text command user_prompt tool_call tool_result"
	if got := strings.Join(kinds, " "); got != want {
		t.Fatalf("kinds:\n got %s\nwant %s", got, want)
	}
	// Gemini's shell tool works when the command exits 1: the exit code
	// says it failed. An edit that found nothing to replace failed itself.
	if r := p.Events[3].Result; !r.IsError || r.ExitCode == nil || *r.ExitCode != 1 || !strings.Contains(r.Output, "queue not drained after 10ms") {
		t.Errorf("test run: %+v", r)
	}
	if r := p.Events[5].Result; !r.IsError || !strings.Contains(r.Output, "0 occurrences found") || r.Summary != "replace: /home/dev/queue-service/queue/drain_test.go" {
		t.Errorf("failed edit: %+v", r)
	}
	if c := p.Events[2].Call; c.Summary != "run_shell_command: go test ./queue/" {
		t.Errorf("summary %q", c.Summary)
	}
	// The last copy of a message counts: the one with the token count.
	if u := p.Events[2].Usage; u == nil || u.Input != 18422 || u.CacheRead != 12288 {
		t.Errorf("usage %+v", u)
	}
	if !strings.Contains(p.Events[6].Text, "q.Done()") || p.Events[6].Model != "gemini-2.5-pro" {
		t.Errorf("answer %+v", p.Events[6])
	}
	if p.Events[7].Command != "/stats" {
		t.Errorf("command %+v", p.Events[7])
	}
}

// A tailer holds the last message back, as Gemini may append it again;
// resuming where it stopped gives the events of one pass, and a message
// cut short by a half-written line is taken once it is whole.
func TestTail(t *testing.T) {
	t.Parallel()
	data := read(t, chat)
	whole := Parse(data, transcript.Options{Final: true})
	var got []transcript.Event
	var off int64
	line := 1
	for _, k := range []int{300, 1200, 2500, 2600, 4400, len(data)} {
		k = min(k, len(data))
		// As capture does: the session is named by the file's first line.
		p := Parse(data[off:k], transcript.Options{Offset: off, Line: line, SessionID: SessionID(data), Final: k == len(data)})
		got = append(got, p.Events...)
		off, line = p.Consumed, line+p.Lines
	}
	if off != int64(len(data)) || !reflect.DeepEqual(got, whole.Events) {
		t.Errorf("tailing took up to %d with %d events; one pass %d events", off, len(got), len(whole.Events))
	}
	tail := Parse(data, transcript.Options{})
	if last := whole.Events[len(whole.Events)-1]; tail.Consumed != last.Offset {
		t.Errorf("tail consumed %d, want the last message's start %d", tail.Consumed, last.Offset)
	}
}

// A legacy chat file is read once it is whole.
func TestLegacyWhileWritten(t *testing.T) {
	t.Parallel()
	data := read(t, legacy)
	if p := Parse(data[:len(data)/2], transcript.Options{}); p.Consumed != 0 || len(p.Events) != 0 {
		t.Errorf("half a legacy file: %+v", p)
	}
	p := Parse(data, transcript.Options{})
	if p.Consumed != int64(len(data)) || len(p.Events) != 5 {
		t.Errorf("whole legacy file: consumed %d, %d events", p.Consumed, len(p.Events))
	}
	if c := p.Events[2].Call; c == nil || c.Summary != "read_file: /home/dev/shop/vite.config.ts" {
		t.Errorf("call %+v", p.Events[2])
	}
}

func FuzzParse(f *testing.F) {
	for _, name := range []string{chat, legacy} {
		data := read(f, name)
		f.Add(data, uint16(len(data)/2), true)
		f.Add(data[:len(data)/3], uint16(17), false)
	}
	f.Add([]byte(`{"id":"a","type":"gemini","content":{"text":1}}`+"\n"+`{"sessionId":"../x","projectHash":"h"}`+"\nnot json\n"), uint16(9), false)
	f.Add([]byte(`{"id":"a","type":"user","content":[{"text":"/x y"}]}`+"\n"+`{"$rewindTo":"a"}`+"\n"+`{"id":"a","type":"gemini","toolCalls":[{"status":"error","result":{}}]}`), uint16(3), true)
	f.Fuzz(func(t *testing.T, data []byte, split uint16, final bool) {
		base := int64(0)
		if split%2 == 1 {
			base = 1000
		}
		opts := transcript.Options{Name: "fuzz", Offset: base, Final: final}
		p := Parse(data, opts)
		c := p.Consumed - base
		if c < 0 || c > int64(len(data)) {
			t.Fatalf("consumed %d outside the input", p.Consumed)
		}
		for _, e := range p.Events {
			if e.Offset < base || e.Offset >= p.Consumed && !(e.Offset == 0 && base == 0) {
				t.Fatalf("event at %d outside the range taken [%d, %d)", e.Offset, base, p.Consumed)
			}
		}
		for _, e := range p.Errors {
			if e.Offset < base || e.Offset >= p.Consumed && e.Offset != 0 {
				t.Fatalf("error %v outside the range taken", e)
			}
		}
		if _, err := json.Marshal(p.Events); err != nil {
			t.Fatal(err)
		}
		if again := Parse(data, opts); !reflect.DeepEqual(p, again) {
			t.Fatal("two parses of the same range differ")
		}
		if base > 0 {
			// Resuming where a parse of a prefix stopped takes as much.
			k := int(split) % (len(data) + 1)
			first := Parse(data[:k], transcript.Options{Offset: base})
			rest := Parse(data[first.Consumed-base:], transcript.Options{Offset: first.Consumed, Final: final})
			if rest.Consumed != p.Consumed || len(first.Events)+len(rest.Events) != len(p.Events) {
				t.Fatalf("resumed at %d: took up to %d (%d events), one pass %d (%d events)",
					first.Consumed, rest.Consumed, len(first.Events)+len(rest.Events), p.Consumed, len(p.Events))
			}
		}
	})
}

// ToolText reads every shape of content an AfterTool hook's llmContent or
// returnDisplay comes in; contentText, on the same decoding, leaves
// thoughts out and joins with nothing.
func TestToolText(t *testing.T) {
	for _, tc := range []struct {
		raw, tool, content string
		ok                 bool
	}{
		{``, "", "", true},
		{`null`, "", "", true},
		{`"plain"`, "plain", "plain", true},
		{` {"text":"one"} `, "one", "one", true},
		{`[{"text":"a"},{"text":"b","thought":true}]`, "a\nb", "a", true},
		{`[{"functionResponse":{"response":{"output":"out","error":"err"}}},{"text":"t"}]`, "out\nerr\nt", "t", true},
		{`{"functionResponse":{"response":{"output":""}}}`, "", "", true},
		{`42`, "", "", false},
		{`{"text":`, "", "", false},
	} {
		got, ok := ToolText(json.RawMessage(tc.raw))
		if got != tc.tool || ok != tc.ok {
			t.Errorf("ToolText(%s) = %q, %v; want %q, %v", tc.raw, got, ok, tc.tool, tc.ok)
		}
		if got := contentText(json.RawMessage(tc.raw)); got != tc.content {
			t.Errorf("contentText(%s) = %q; want %q", tc.raw, got, tc.content)
		}
	}
}
