package observe

import (
	"slices"
	"testing"

	"github.com/cairn-mem/cairn/internal/transcript"
)

func TestTool(t *testing.T) {
	exit := func(n int) *int { return &n }
	l := New()
	l.Tool("Read", "Read: internal/queue.go", &transcript.ToolResult{Output: "package queue"})
	l.Tool("Read", "Read: internal/queue.go", &transcript.ToolResult{Output: "package queue"})
	l.Tool("Bash", "Bash: go test ./internal/queue", &transcript.ToolResult{Output: "Exit code 1\n--- FAIL: TestClaim\nqueue_test.go:12: got 2 claims", ExitCode: exit(1), IsError: true})
	l.Tool("Edit", "Edit: internal/queue.go", &transcript.ToolResult{Output: "ok"})
	l.Tool("Bash", "Bash: go test ./internal/queue", &transcript.ToolResult{Output: "ok", ExitCode: exit(0)})
	want := []string{
		"read `internal/queue.go`",
		"test `go test ./internal/queue` → failed (exit 1)",
		"error in `Bash: go test ./internal/queue`: `--- FAIL: TestClaim`",
		"changed `internal/queue.go` (Edit)",
		"test `go test ./internal/queue` → passed",
		"fixed `Bash: go test ./internal/queue` after changing `internal/queue.go`",
	}
	if got := l.Lines(); !slices.Equal(got, want) {
		t.Errorf("lines:\n%q\nwant\n%q", got, want)
	}
}

func TestErrorText(t *testing.T) {
	if got := ErrorText("Exit code 2\n\nno such file"); got != "no such file" {
		t.Errorf("ErrorText = %q", got)
	}
	if got := Outcome(&transcript.ToolResult{Interrupted: true}); got != "**interrupted**" {
		t.Errorf("Outcome = %q", got)
	}
}
