package watcher

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

func TestDecodeJob(t *testing.T) {
	tests := []struct {
		name    string
		in      string
		notJob  bool   // the error wraps ErrNotJob
		wantErr string // part of the error; "" means success
	}{
		{name: "minimal", in: `{"kind":"hook"}`},
		{name: "bom and space", in: "\xEF\xBB\xBF \n{\"kind\":\"hook\"}\n"},
		{name: "pointer", in: `{"kind":"transcript-delta","pointer":{"path":"/a/b.jsonl","from":3,"to":9}}`},
		{name: "payload", in: `{"schema":1,"kind":"hook","payload":{"x":[1,2]},"agent_session":"s"}`},
		{name: "null payload", in: `{"kind":"hook","payload":null,"pointer":{"path":"/a","from":0,"to":0}}`},
		{name: "unknown field", in: `{"kind":"hook","later":true}`},
		{name: "empty", in: ``, notJob: true, wantErr: "not a JSON object"},
		{name: "array", in: `[{"kind":"hook"}]`, notJob: true},
		{name: "text", in: `# notes`, notJob: true},
		{name: "no kind", in: `{"role":"user","content":"hi"}`, notJob: true, wantErr: `no "kind"`},
		{name: "truncated", in: `{"kind":"ho`, notJob: true, wantErr: "line 1"},
		{name: "two objects", in: "{\"kind\":\"a\"}\n{\"kind\":\"b\"}\n", notJob: true, wantErr: "line 2"},
		{name: "kind not a string", in: `{"kind":5}`, wantErr: "line 1, column"},
		{name: "empty kind", in: `{"kind":""}`, wantErr: `empty "kind"`},
		{name: "bad kind", in: `{"kind":"a/b"}`, wantErr: `contains '/'`},
		{name: "newer schema", in: `{"schema":2,"kind":"hook"}`, wantErr: "schema 2"},
		{name: "both", in: `{"kind":"k","payload":1,"pointer":{"path":"/a","from":0,"to":1}}`, wantErr: "both"},
		{name: "relative path", in: `{"kind":"k","pointer":{"path":"../../etc/passwd","from":0,"to":1}}`, wantErr: "not absolute"},
		{name: "unclean path", in: `{"kind":"k","pointer":{"path":"/a/../etc/passwd","from":0,"to":1}}`, wantErr: "not clean"},
		{name: "backwards range", in: `{"kind":"k","pointer":{"path":"/a","from":5,"to":1}}`, wantErr: "not a range"},
		{name: "negative attempts", in: `{"kind":"k","attempts":-1}`, wantErr: "negative"},
		{name: "bad time", in: `{"kind":"k","created":"yesterday"}`, wantErr: "decode job"},
		{name: "session with newline", in: `{"kind":"k","agent_session":"a\nb"}`, wantErr: "agent_session"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			j, err := DecodeJob([]byte(tt.in))
			if tt.wantErr == "" && !tt.notJob {
				if err != nil {
					t.Fatalf("DecodeJob: %v", err)
				}
				if j.Schema != Schema {
					t.Errorf("schema %d, want %d", j.Schema, Schema)
				}
				return
			}
			if err == nil {
				t.Fatalf("DecodeJob(%q) = %+v, want an error", tt.in, j)
			}
			if got := errors.Is(err, ErrNotJob); got != tt.notJob {
				t.Errorf("errors.Is(%v, ErrNotJob) = %v, want %v", err, got, tt.notJob)
			}
			if !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("error %q does not say %q", err, tt.wantErr)
			}
		})
	}
}

func TestJobKey(t *testing.T) {
	a := &Job{Kind: "hook", AgentSession: "s", Payload: json.RawMessage(`{"a": 1, "b": [1, 2]}`)}
	b := &Job{Kind: "hook", AgentSession: "s", Payload: json.RawMessage("{\"a\":1,\n\"b\":[1,2]}"), Attempts: 3, ID: "other"}
	if a.Key() != b.Key() {
		t.Errorf("same payload, different spacing: keys %q and %q differ", a.Key(), b.Key())
	}
	c := &Job{Kind: "hook", AgentSession: "t", Payload: a.Payload}
	if a.Key() == c.Key() {
		t.Error("different sessions give one key")
	}
	r := Range{Path: "/p/s.jsonl", From: 10, To: 20, Inode: 7, Device: 1}
	p1 := &Job{Kind: KindTranscriptDelta, Pointer: &r}
	r2 := r
	r2.FirstUUID = "u"
	p2 := &Job{Kind: "other", Pointer: &r2, Attempts: 2}
	if p1.Key() != p2.Key() || p1.Key() != "/p/s.jsonl@1:7#10-20" {
		t.Errorf("pointer keys %q, %q; want both /p/s.jsonl@1:7#10-20", p1.Key(), p2.Key())
	}
}

// FuzzJob decodes arbitrary bytes as a job: it must never panic, and a job
// it accepts must survive an encode and decode unchanged and have a key.
func FuzzJob(f *testing.F) {
	for _, s := range []string{
		`{"kind":"hook"}`,
		`{"schema":1,"id":"01JDXK3V9M2Q7Y8Z4T6R5W1HBC","kind":"transcript-delta","pointer":{"path":"/a/b","from":1,"to":2,"first_uuid":"x"},"attempts":2,"last_error":"e","not_before":"2026-01-02T03:04:05Z","created":"2026-01-02T03:04:05Z","updated":"2026-01-02T03:04:05Z"}`,
		`{"kind":"k","payload":{"deep":[[[[]]]]}}`,
		`{"kind":"k","payload":"\u0000"}`,
		`{"kind":"k","pointer":{"path":"/a/../b","from":-1,"to":2}}`,
		"\xEF\xBB\xBF{\"kind\":\"k\"}",
		`{"kind":5}`, `{`, `[]`, `null`, "",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		j, err := DecodeJob(data)
		if err != nil {
			if j != nil {
				t.Fatal("a job and an error")
			}
			return
		}
		_ = j.Key()
		enc, err := j.encode()
		if err != nil {
			t.Fatalf("encode an accepted job: %v", err)
		}
		k, err := DecodeJob(enc)
		if err != nil {
			t.Fatalf("decode an encoded job: %v\n%s", err, enc)
		}
		if j.Key() != k.Key() {
			t.Fatalf("key changed across encode: %q, %q", j.Key(), k.Key())
		}
		again, err := k.encode()
		if err != nil || !bytes.Equal(enc, again) {
			t.Fatalf("job changed across encode and decode:\n%s\n%s", enc, again)
		}
	})
}
