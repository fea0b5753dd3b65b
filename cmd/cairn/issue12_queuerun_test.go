package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cairn-mem/cairn/internal/ui"
)

// dropFailing puts into the inbox of the memory of p, settled, a file the
// queue rejects as it takes it (binary) and a hook payload whose session
// id can never be a folder name: two jobs that fail.
func dropFailing(t *testing.T, p string) {
	t.Helper()
	inbox := filepath.Join(p, ".cairn", "inbox")
	if err := os.MkdirAll(inbox, 0o700); err != nil {
		t.Fatal(err)
	}
	files := map[string]string{
		"photo.bin":     "\x00\x01binary",
		"bad-hook.json": fmt.Sprintf(`{"session_id":"../../etc","cwd":%q,"hook_event_name":"UserPromptSubmit","prompt":"hi"}`, p),
	}
	old := time.Now().Add(-time.Minute)
	for name, data := range files {
		f := filepath.Join(inbox, name)
		if err := os.WriteFile(f, []byte(data), 0o600); err != nil {
			t.Fatal(err)
		}
		os.Chtimes(f, old, old) // settled
	}
}

func failedJobs(t *testing.T, p string) []ui.Job {
	t.Helper()
	var jobs []ui.Job
	if err := json.Unmarshal([]byte(ok(t, p, "queue", "list", "--state", "failed", "--json")), &jobs); err != nil {
		t.Fatal(err)
	}
	return jobs
}

// Issue 12, item 16: queue run counts every job that failed, the inbox
// files it rejected included, and a job that can never succeed goes to
// failed/ at its first attempt.
func TestQueueRunCountsEveryFailure(t *testing.T) {
	t.Parallel()
	p := project(t)
	ok(t, p, "init")
	dropFailing(t, p)
	r := cairn(t, p, "", "queue", "run")
	if r.code != 1 || !strings.Contains(r.stdout, "0 job(s) done, 2 failed") || !strings.Contains(r.stderr, "2 job(s) failed") {
		t.Errorf("queue run: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	jobs := failedJobs(t, p)
	if len(jobs) != 2 {
		t.Fatalf("failed jobs: %+v", jobs)
	}
	for _, j := range jobs {
		if j.Origin == "bad-hook.json" && (j.Attempts != 1 || !strings.Contains(j.LastError, "invalid session id")) {
			t.Errorf("a job that can never succeed: %d attempts, %q", j.Attempts, j.LastError)
		}
	}
	if out := ok(t, p, "queue", "status"); !strings.Contains(out, "pending 0, processing 0, failed 2") {
		t.Errorf("status: %s", out)
	}
}
