package transcript

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// bigClaude generates a Claude Code transcript of n turns shaped like real
// ones: a prompt with a reminder, streamed assistant messages (thinking,
// text, tool calls on lines of their own), file reads of a few kilobytes,
// edits, shell commands, one failing.
func bigClaude(n int) []byte {
	var buf bytes.Buffer
	env := func(typ, uuid, parent string) string {
		p := "null"
		if parent != "" {
			p = `"` + parent + `"`
		}
		return fmt.Sprintf(`{"parentUuid":%s,"isSidechain":false,"userType":"external","cwd":"/home/dev/src/tidepool","sessionId":"3f1c9a52-7d4e-4b8a-9c61-2e5f0d8b7a14","version":"2.0.76","gitBranch":"main","type":%q,"uuid":%q,"timestamp":"2025-11-28T09:14:05.111Z"`, p, typ, uuid)
	}
	file := strings.Repeat(`     1\u2192func (q *Queue) Push(j Job) error {\n     2\u2192\tq.mu.Lock()\n     3\u2192\tdefer q.mu.Unlock()\n`, 30)
	usage := `"usage":{"input_tokens":4,"cache_creation_input_tokens":2210,"cache_read_input_tokens":14032,"output_tokens":187,"service_tier":"standard"}`
	prev := ""
	line := 0
	next := func() string { line++; return fmt.Sprintf("00000000-0000-4000-8000-%012d", line) }
	for i := range n {
		u := next()
		fmt.Fprintf(&buf, `%s,"message":{"role":"user","content":[{"type":"text","text":"<system-reminder>\nThe user opened internal/queue/queue.go in the IDE.\n</system-reminder>"},{"type":"text","text":"Step %d: make Push return an error when the queue is closed, and test it."}]}}`+"\n", env("user", u, prev), i)
		prev = u
		msg := func(blocks ...string) {
			id := fmt.Sprintf("msg_%024d", line)
			for _, b := range blocks {
				u := next()
				fmt.Fprintf(&buf, `%s,"message":{"model":"claude-sonnet-4-5-20250929","id":%q,"type":"message","role":"assistant","content":[%s],"stop_reason":null,"stop_sequence":null,%s},"requestId":"req_011CVabc"}`+"\n", env("assistant", u, prev), id, b, usage)
				prev = u
			}
		}
		result := func(id, content string, isErr bool) {
			u := next()
			fmt.Fprintf(&buf, `%s,"message":{"role":"user","content":[{"tool_use_id":%q,"type":"tool_result","content":%s,"is_error":%v}]},"toolUseResult":{"stdout":"","stderr":"","interrupted":false,"isImage":false}}`+"\n", env("user", u, prev), id, content, isErr)
			prev = u
		}
		tid := func(k int) string { return fmt.Sprintf("toolu_%06d_%d", i, k) }
		msg(`{"type":"thinking","thinking":"Read the queue first, then change Push and add a test.","signature":"EqQBCkYIBxgCKkAxyz"}`,
			`{"type":"text","text":"I'll read the queue and its test."}`,
			fmt.Sprintf(`{"type":"tool_use","id":%q,"name":"Read","input":{"file_path":"/home/dev/src/tidepool/internal/queue/queue.go"}}`, tid(1)),
			fmt.Sprintf(`{"type":"tool_use","id":%q,"name":"Read","input":{"file_path":"/home/dev/src/tidepool/internal/queue/queue_test.go"}}`, tid(2)))
		result(tid(2), `"`+file+`"`, false)
		result(tid(1), `"`+file+`"`, false)
		msg(fmt.Sprintf(`{"type":"tool_use","id":%q,"name":"Edit","input":{"file_path":"/home/dev/src/tidepool/internal/queue/queue.go","old_string":"\tq.mu.Lock()\n","new_string":"\tq.mu.Lock()\n\tif q.closed {\n\t\treturn ErrClosed\n\t}\n"}}`, tid(3)))
		result(tid(3), `"The file /home/dev/src/tidepool/internal/queue/queue.go has been updated."`, false)
		msg(fmt.Sprintf(`{"type":"tool_use","id":%q,"name":"Bash","input":{"command":"go test ./internal/queue/","description":"Run the queue tests"}}`, tid(4)))
		if i%3 == 0 {
			result(tid(4), `"Exit code 1\n--- FAIL: TestPushClosed (0.00s)\n    queue_test.go:40: err = <nil>, want ErrClosed\nFAIL"`, true)
		} else {
			result(tid(4), `"ok  \tgithub.com/acme/tidepool/internal/queue\t0.015s"`, false)
		}
		msg(`{"type":"text","text":"Push now returns ErrClosed after Close, and TestPushClosed covers it."}`)
	}
	return buf.Bytes()
}

func BenchmarkParseClaude(b *testing.B) {
	data := bigClaude(2000)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		p := ParseClaude(data, Options{Final: true})
		if len(p.Errors) > 0 || p.Consumed != int64(len(data)) {
			b.Fatalf("%d errors, consumed %d of %d", len(p.Errors), p.Consumed, len(data))
		}
	}
}

func TestBigClaude(t *testing.T) {
	t.Parallel()
	data := bigClaude(30)
	p := ParseClaude(data, Options{Final: true})
	if len(p.Errors) > 0 {
		t.Fatal(p.Errors[0])
	}
	// per turn: prompt, text, 2 reads, 2 results, edit, result, bash, result, text
	if got, want := len(p.Events), 30*11+1; got != want {
		t.Errorf("%d events, want %d", got, want)
	}
}

func BenchmarkParseCodex(b *testing.B) {
	one, err := os.ReadFile(filepath.Join(fixtures, "codex", "rollout-2025-12-02T15-20-01-0199a3c2-6f1e-7b20-9d4a-51c8e2f7a3b6.jsonl"))
	if err != nil {
		b.Fatal(err)
	}
	data := bytes.Repeat(one, 5000)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if p := ParseCodex(data, Options{Final: true}); p.Consumed != int64(len(data)) {
			b.Fatalf("consumed %d of %d", p.Consumed, len(data))
		}
	}
}
