package transcript

import (
	"fmt"
	"strings"
	"testing"
)

// turns renders a parse's dialogue turns as "part|time|role|speaker|text".
func turns(evs []Event) []string {
	var out []string
	for _, e := range evs {
		role := "user"
		if e.Kind == KindAssistantText {
			role = "assistant"
		}
		ts := ""
		if !e.Time.IsZero() {
			ts = e.Time.UTC().Format("2006-01-02 15:04")
		}
		out = append(out, fmt.Sprintf("%d|%s|%s|%s|%s", e.Part, ts, role, e.Speaker, e.Text))
	}
	return out
}

func TestMarkdownDialogue(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, in string
		want     []string
	}{
		{"convo format", "# Maya and Tom\n<!-- speakers: Tom, Maya -->\n\n## Session 1 — 2025-03-02 14:10\n\n**Maya:** Moved to Porto.\n**Tom:** Nice!\n**Maya:** A greyhound,\nmaybe.\n\n## Session 2 — 2025-03-09 19:45\n\n**Tom:** Hi.\n",
			[]string{"1|2025-03-02 14:10|assistant|Maya|Moved to Porto.", "1|2025-03-02 14:10|user|Tom|Nice!", "1|2025-03-02 14:10|assistant|Maya|A greyhound,\nmaybe.", "2|2025-03-09 19:45|user|Tom|Hi."}},
		{"numbered with a date in parentheses", "## Session 3 (2025-03-09)\nMaya: hi there\nTom: hello\n",
			[]string{"3|2025-03-09 00:00|user|Maya|hi there", "3|2025-03-09 00:00|assistant|Tom|hello"}},
		{"date headings count", "# Log\n## 2025-03-09\nMaya: one\n### March 16, 2025\nTom Lee: two\n## Sunday, 23 March 2025, 7:45 pm\n**Maya**: three\n",
			[]string{"1|2025-03-09 00:00|user|Maya|one", "2|2025-03-16 00:00|assistant|Tom Lee|two", "3|2025-03-23 19:45|user|Maya|three"}},
		{"role names keep their roles", "## Session 1 — 2025-01-05 10:00\nAssistant: hello\nUser: hi\n",
			[]string{"1|2025-01-05 10:00|assistant||hello", "1|2025-01-05 10:00|user||hi"}},
		{"no sessions", "Maya: hi\n**Tom:** yo\nNote: not a speaker\n",
			[]string{"0||user|Maya|hi", "0||assistant|Tom|yo\nNote: not a speaker"}},
		{"a heading about a date is text", "## Session 1\nMaya: see\n## Plans for 2025-04-01\nTom: ok\n",
			[]string{"1||user|Maya|see\n## Plans for 2025-04-01", "1||assistant|Tom|ok"}},
		{"named turns inside a role section are text", "## User\nFix it.\n\n## Assistant\n**Note:** done.\nMaya: said so\n",
			[]string{"0||user||Fix it.", "0||assistant||**Note:** done.\nMaya: said so"}},
		{"role sections in dated sessions", "## Session 2 — 2025-02-01 09:00\n## User\nhi\n## Assistant\nhello\n",
			[]string{"2|2025-02-01 09:00|user||hi", "2|2025-02-01 09:00|assistant||hello"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := ParseMarkdown([]byte(tt.in), Options{Final: true})
			if got := turns(p.Events); strings.Join(got, "\n--\n") != strings.Join(tt.want, "\n--\n") {
				t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n--\n"), strings.Join(tt.want, "\n--\n"))
			}
		})
	}
}

func TestChatDialogue(t *testing.T) {
	t.Parallel()
	in := `{"speaker":"Caroline","dia_id":"D1:1","text":"Hey Mel!","date":"1:56 pm on 8 May, 2023"}
{"speaker":"Melanie","dia_id":"D1:2","text":"Hi!"}
{"speaker":"Melanie","session":"session_2","text":"Back again","time":"2023-05-25T13:14:00Z"}
{"name":"Caroline","session":2,"message":"Yes"}
{"speaker":"Caroline","session":2,"text":""}
{"author":"Bob"}
`
	p := ParseChat([]byte(in), Options{Name: "d.jsonl", Final: true})
	want := []string{
		"1|2023-05-08 13:56|user|Caroline|Hey Mel!",
		"1|2023-05-08 13:56|assistant|Melanie|Hi!",
		"2|2023-05-25 13:14|assistant|Melanie|Back again",
		"2|2023-05-25 13:14|user|Caroline|Yes",
	}
	if got := turns(p.Events); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if len(p.Errors) != 0 {
		t.Errorf("errors: %v", p.Errors)
	}
	if p.Events[0].ID != "D1:1" {
		t.Errorf("id %q, want the turn id D1:1", p.Events[0].ID)
	}
}
