package capture

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/cairn-mem/cairn/internal/model"
	"github.com/cairn-mem/cairn/internal/transcript"
)

// An agent that reads back the memory it was given at its start ("From
// memory: …") does not make the recap its session's news: the summary
// keeps what the session did, not the old facts it repeated, which would
// outlive them when they change.
func TestRecapNotNews(t *testing.T) {
	m := testMemory(t)
	ctx := context.Background()
	pack := "# Project memory (cairn)\n\n## Latest sessions\n\n### Slow redirects — Dec 7 (session 6354a06a)\n" +
		"- Decision: The dev server now listens on port 8181 instead of 8085, since the node exporter has 8085.\n" +
		"- Decision: The rate limiter uses Redis: INCR on a key per client IP and minute, 30 requests a minute.\n" +
		"- The TLS certificate for sho.rt is still renewed by hand and should get a certbot timer.\n"
	if err := Tell(m, "s1", pack); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(toldPath(m, "s1")); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("told record: %v, %v", fi, err)
	}
	if err := Tell(m, "../x", pack); err == nil {
		t.Error("a path in a session id was taken")
	}
	at := func(i int) transcript.Meta { return transcript.Meta{Time: time.Date(2026, 1, 2, 3, 4, i, 0, time.UTC)} }
	events := []transcript.Event{
		{Kind: transcript.KindUserPrompt, Text: "Where do things stand? Then add a certbot timer.", Meta: at(0)},
		{Kind: transcript.KindAssistantText, Meta: at(1), Text: "From memory: the dev server listens on 8181, the rate limiter uses Redis with 30 requests a minute, " +
			"and the certificate for sho.rt is renewed by hand.\n\nI added deploy/certbot-renew.timer, which renews the certificate twice a day; the dev server now listens on 8282."},
	}
	if _, err := Capture(ctx, m, Batch{Session: "s1", Key: "k1", Trigger: "stop", Events: events}); err != nil {
		t.Fatal(err)
	}
	if _, err := Capture(ctx, m, Batch{Session: "s1", Key: "end", Trigger: "session-end", Final: true, Status: model.StatusSuspended,
		Events: []transcript.Event{{Kind: transcript.KindSessionEnd}}}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(toldPath(m, "s1")); !os.IsNotExist(err) {
		t.Errorf("the told record outlived the session's end: %v", err)
	}
	e, _ := m.Sessions().Get(ctx, "s1")
	sum := readRepo(t, m, e.File(model.SummaryFile))
	if strings.Contains(sum, "8181") || strings.Contains(sum, "From memory") {
		t.Errorf("the summary holds the recap:\n%s", sum)
	}
	if !strings.Contains(sum, "certbot-renew.timer") || !strings.Contains(sum, "8282") {
		t.Errorf("the summary lost what the session did:\n%s", sum)
	}
	// The transcript keeps what the agent said.
	if tr := readRepo(t, m, e.File(model.TranscriptFile)); !strings.Contains(tr, "From memory") {
		t.Errorf("transcript.md lost the recap:\n%s", tr)
	}
}

// A question answered only with a recap of the memory was answered: it
// is not listed as open.
func TestRecapAnswers(t *testing.T) {
	m := testMemory(t)
	ctx := context.Background()
	pack := "## Latest sessions\n\n### Slow redirects — Dec 7 (session 6354a06a)\n" +
		"- Decision: The dev server now listens on port 8181 instead of 8085, since the node exporter has 8085.\n" +
		"- Decision: The rate limiter uses Redis: INCR on a key per client IP and minute, 30 requests a minute.\n"
	if err := Tell(m, "s2", pack); err != nil {
		t.Fatal(err)
	}
	at := func(i int) transcript.Meta { return transcript.Meta{Time: time.Date(2026, 1, 2, 3, 4, i, 0, time.UTC)} }
	events := []transcript.Event{
		{Kind: transcript.KindUserPrompt, Text: "Quick check before I start: what do you remember about this service?", Meta: at(0)},
		{Kind: transcript.KindAssistantText, Meta: at(1), Text: "From memory: the dev server listens on 8181, and the rate limiter uses Redis with 30 requests a minute."},
	}
	if _, err := Capture(ctx, m, Batch{Session: "s2", Key: "k1", Trigger: "stop", Events: events}); err != nil {
		t.Fatal(err)
	}
	if _, err := Capture(ctx, m, Batch{Session: "s2", Key: "end", Trigger: "session-end", Final: true, Status: model.StatusSuspended,
		Events: []transcript.Event{{Kind: transcript.KindSessionEnd}}}); err != nil {
		t.Fatal(err)
	}
	e, _ := m.Sessions().Get(ctx, "s2")
	sum := readRepo(t, m, e.File(model.SummaryFile))
	if strings.Contains(sum, "Not yet answered") || strings.Contains(sum, "8181") || strings.Contains(sum, "Read back") {
		t.Errorf("summary:\n%s", sum)
	}
}
