package server

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/cairn-mem/cairn/internal/capture"
	"github.com/cairn-mem/cairn/internal/model"
	"github.com/cairn-mem/cairn/watcher"
)

// packBy gives a pack what is left of the hook's deadline but its
// margins: one that stops at its context gives what it has, one that
// does not stop is given up, and without a deadline the pack is made
// whole. No case waits for the pack it gives up.
func TestPackBy(t *testing.T) {
	block := make(chan struct{})
	defer close(block)
	for _, tc := range []struct {
		name     string
		deadline time.Duration // 0: none
		pack     func(context.Context) (string, error)
		text     string
		late     bool
	}{
		{"no deadline", 0, func(context.Context) (string, error) { return "whole", nil }, "whole", false},
		{"in time", time.Hour, func(context.Context) (string, error) { return "whole", nil }, "whole", false},
		{"stops at its deadline", packMargin + 50*time.Millisecond, func(ctx context.Context) (string, error) {
			<-ctx.Done()
			return "what it had", nil
		}, "what it had", true},
		{"never stops", packMargin + 50*time.Millisecond, func(context.Context) (string, error) {
			<-block
			return "too late", nil
		}, "", true},
		{"deadline passed", packWait / 2, func(ctx context.Context) (string, error) {
			<-block
			return "too late", ctx.Err()
		}, "", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx := context.Background()
			if tc.deadline > 0 {
				var cancel context.CancelFunc
				ctx, cancel = context.WithTimeout(ctx, tc.deadline)
				defer cancel()
			}
			text, late, err := packBy(ctx, tc.pack)
			if text != tc.text || late != tc.late || err != nil {
				t.Errorf("packBy = %q, %v, %v; want %q, %v", text, late, err, tc.text, tc.late)
			}
		})
	}
}

// A session start whose deadline leaves no time for the pack still
// answers, with one line saying so, and records the session.
func TestSessionStartPastDeadline(t *testing.T) {
	m := newMemory(t)
	defer m.Close()
	if _, err := m.Remember(context.Background(), &model.Item{Kind: model.Decision, Title: "Use PostgreSQL for the job queue", Body: "It is deployed already."}); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), packMargin/2)
	defer cancel()
	payload := []byte(`{"session_id":"a1b2c3d4-0000-4000-8000-00000000000f","cwd":"/home/dev/src/shop","hook_event_name":"SessionStart","source":"startup"}`)
	out, err := SessionStart(ctx, m, payload, nil)
	if err != nil && !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("SessionStart: %v", err)
	}
	if out == nil || !strings.Contains(out.SystemMessage, "session-start deadline came first") {
		t.Fatalf("output %+v, want a line on the deadline", out)
	}
	q, err := capture.Queue(m, watcher.QueueOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if st, err := q.Status(context.Background()); err != nil || st.Pending != 1 {
		t.Errorf("queue %+v, %v: want the session's record pending", st, err)
	}
}
