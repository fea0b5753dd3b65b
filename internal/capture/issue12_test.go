package capture

import (
	"context"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cairn-mem/cairn/watcher"
)

// TestStopPayloadSecretRedacted (issue 12, item 4): when a Stop payload's
// last_assistant_message is the record (no transcript cairn may read),
// a password with punctuation in it is redacted whole: no file of the
// memory, committed or in .state, keeps any of it. Before, the redactor's
// value ended at the first byte outside base64, and "!9" survived.
func TestStopPayloadSecretRedacted(t *testing.T) {
	m := testMemory(t)
	ctx := context.Background()
	const pw = "Pw8UxK3mQ7vR2tZ9nL4b…!9"
	const session = "3f1c9a52-7d4e-4b8a-9c61-2e5f0d8b7a14"
	payload, _ := json.Marshal(map[string]any{
		"session_id":             session,
		"cwd":                    "/home/dev/src/tidepool",
		"hook_event_name":        "Stop",
		"last_assistant_message": "Done. The DB password is " + pw + " and the admin token is " + strings.ToUpper(pw[:20]) + "!?x%",
	})
	// The way a hook script hands it over: a queue job, run by the worker.
	q, err := Queue(m, watcher.QueueOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := q.Enqueue(ctx, watcher.Job{Kind: JobHook, Payload: payload}); err != nil {
		t.Fatal(err)
	}
	res, err := Drain(ctx, m, watcher.QueueOptions{}, 0)
	if err != nil || res.Done != 1 {
		t.Fatalf("drain: %+v, %v", res, err)
	}
	tr := readRepo(t, m, "sessions/"+session+"/transcript.md")
	if !strings.Contains(tr, "The DB password is [REDACTED:secret] and the admin token is [REDACTED:secret]") {
		t.Errorf("transcript.md:\n%s", tr)
	}
	// Nothing of either password anywhere in the memory but the queue,
	// which keeps the payload as it came until the job is done.
	bad := []string{"Pw8U", "nL4b", "…!9", "!?x%", "PW8U"}
	filepath.WalkDir(m.Dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(m.Dir, p)
		if strings.HasPrefix(rel, ".git"+string(filepath.Separator)+"objects") {
			return nil // compressed; the files committed are checked above
		}
		b, _ := os.ReadFile(p)
		for _, s := range bad {
			if strings.Contains(string(b), s) && !strings.HasPrefix(rel, filepath.Join(".state", "queue")) {
				t.Errorf("%s keeps %q:\n%s", rel, s, b)
			}
		}
		return nil
	})
}
