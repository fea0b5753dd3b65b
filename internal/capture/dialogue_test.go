package capture

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cairn-mem/cairn/internal/model"
)

// A chat log divided into sessions becomes one cairn session per session
// heading, dated by it, each turn naming its speaker; ingesting it again
// adds nothing, and a session appended later adds only itself.
func TestIngestDialogue(t *testing.T) {
	ctx := context.Background()
	m := testMemory(t)
	dir := filepath.Join(t.TempDir(), "ana-ben")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	name := fixture(t, "markdown/dialogue.md", dir)
	res, err := Ingest(ctx, m, name, IngestOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Sessions) != 2 || res.Session != "ana-ben-dialogue-s01" || res.Sessions[1].Session != "ana-ben-dialogue-s02" || res.Events != 6 {
		t.Fatalf("sessions %+v, sum %+v", res.Sessions, res.CaptureResult)
	}
	for _, tt := range []struct {
		id      string
		started string
		says    []string
	}{
		{"ana-ben-dialogue-s01", "2025-03-02 14:10", []string{"## Session 1 · 2025-03-02 14:10:00 UTC", "**Ana:** Finally unpacked", "**Ben:** Nice!"}},
		{"ana-ben-dialogue-s02", "2025-03-20 19:45", []string{"**Ben:** Any news", "**Ana:** He said yes", "**Ben:** I started the pottery class"}},
	} {
		e, err := m.Sessions().Find(tt.id)
		if err != nil {
			t.Fatal(err)
		}
		if got := e.Started.Format("2006-01-02 15:04"); got != tt.started || !e.LastActivity.Equal(e.Started) {
			t.Errorf("%s: started %s, last activity %s; want both %s", tt.id, got, e.LastActivity, tt.started)
		}
		tr := readRepo(t, m, e.File(model.TranscriptFile))
		for _, s := range tt.says {
			if !strings.Contains(tr, s) {
				t.Errorf("%s: transcript lacks %q:\n%s", tt.id, s, tr)
			}
		}
		if pr := readRepo(t, m, e.File(model.PromptsFile)); !strings.Contains(pr, "Ana: ") && !strings.Contains(pr, "Ben: ") {
			t.Errorf("%s: prompts without their speaker:\n%s", tt.id, pr)
		}
	}

	head := headOf(t, m)
	again, err := Ingest(ctx, m, name, IngestOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if again.Events != 0 || again.Commit != "" || headOf(t, m) != head {
		t.Fatalf("again: %+v", again.CaptureResult)
	}

	f, err := os.OpenFile(name, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	_, err = f.WriteString("\n## Session 3 — 2025-04-02 08:00\n\n**Ana:** We adopted Pip!\n")
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	grown, err := Ingest(ctx, m, name, IngestOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if grown.Events != 1 || len(grown.Sessions) != 3 || !grown.Sessions[2].Created || grown.Sessions[0].Commit != "" || grown.Sessions[1].Commit != "" {
		t.Fatalf("grown: %+v", grown.Sessions)
	}
	e, err := m.Sessions().Find("ana-ben-dialogue-s03")
	if err != nil || !e.Started.Equal(time.Date(2025, 4, 2, 8, 0, 0, 0, time.UTC)) {
		t.Fatalf("session 3: %+v, %v", e, err)
	}
}

func TestIngestDialogueJSONL(t *testing.T) {
	m := testMemory(t)
	name := fixture(t, "chat/dialogue.jsonl", t.TempDir())
	res, err := Ingest(context.Background(), m, name, IngestOptions{Session: "locomo"})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Sessions) != 2 || res.Sessions[1].Session != "locomo-s02" || res.Events != 5 {
		t.Fatalf("sessions %+v", res.Sessions)
	}
	e, err := m.Sessions().Find("locomo-s02")
	if err != nil {
		t.Fatal(err)
	}
	if !e.Started.Equal(time.Date(2023, 5, 25, 13, 14, 0, 0, time.UTC)) {
		t.Errorf("started %s", e.Started)
	}
	if tr := readRepo(t, m, e.File(model.TranscriptFile)); !strings.Contains(tr, "**Melanie:** I painted a sunrise") {
		t.Errorf("transcript:\n%s", tr)
	}
}
