package capture

import (
	"strings"
	"testing"
)

// TestGuardedJob: a job whose work panics fails for good, with what went
// wrong, and does not take the worker (or the hook) down with it.
func TestGuardedJob(t *testing.T) {
	res, err := guarded("j1", func() (*CaptureResult, error) {
		var s []string
		_ = s[0] // the summarizer's index out of range
		return nil, nil
	})
	if res != nil || err == nil || !IsPermanent(err) || !strings.Contains(err.Error(), "job j1: internal error: runtime error: index out of range") {
		t.Fatalf("guarded = %v, %v; want a permanent failure that says what went wrong", res, err)
	}
	if res, err := guarded("j2", func() (*CaptureResult, error) { return &CaptureResult{}, nil }); res == nil || err != nil {
		t.Fatalf("guarded = %v, %v; want the job's own result", res, err)
	}
}
