package watcher_test

import (
	"context"
	"fmt"
	"log"
	"os"
	"path/filepath"

	"github.com/cairn-mem/cairn/watcher"
)

// The wiring of a daemon: the watcher turns transcript growth into jobs in
// the queue, and a worker claims them, processes the range, commits the
// cursor and marks the job done.
func Example() {
	mem, _ := os.MkdirTemp("", "memory")
	defer os.RemoveAll(mem)
	projects := filepath.Join(mem, "projects") // ~/.claude/projects/<project> in real life

	q, err := watcher.OpenQueue(filepath.Join(mem, "inbox"), filepath.Join(mem, ".state", "queue"), watcher.QueueOptions{})
	if err != nil {
		log.Fatal(err)
	}
	cursors, err := watcher.OpenCursors(filepath.Join(mem, ".state", "cursors"))
	if err != nil {
		log.Fatal(err)
	}
	wake := make(chan struct{}, 1)
	w, err := watcher.New(watcher.Config{
		Globs:   []string{filepath.Join(projects, "*.jsonl"), filepath.Join(projects, "*", "subagents", "*.jsonl")},
		Cursors: cursors,
		OnDelta: func(ctx context.Context, d watcher.Delta) error {
			_, err := q.Enqueue(ctx, d.Job())
			return err
		},
		Inbox: q.Dir(watcher.Pending),
		OnInbox: func(context.Context) {
			select {
			case wake <- struct{}{}:
			default:
			}
		},
		Ignore: []string{filepath.Join(mem, ".state")},
	})
	if err != nil {
		log.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error)
	go func() { done <- w.Serve(ctx) }()

	// A session starts writing its transcript, the last line half written.
	_ = os.MkdirAll(projects, 0o700)
	_ = os.WriteFile(filepath.Join(projects, "7f3c2a10.jsonl"),
		[]byte(`{"type":"user","uuid":"u1"}`+"\n"+`{"type":"assistant","uu`), 0o600)

	// The worker.
	for {
		<-wake
		j, err := q.Claim(ctx)
		if err != nil {
			continue // nothing due yet
		}
		p := j.Pointer
		fmt.Printf("%s %s [%d, %d) lines %s..%s\n", j.Kind, filepath.Base(p.Path), p.From, p.To, p.FirstUUID, p.LastUUID)
		// ... parse, write memory, checkpoint; then:
		if err := cursors.Commit(*p); err != nil {
			log.Fatal(err)
		}
		if err := q.Done(j); err != nil {
			log.Fatal(err)
		}
		break
	}
	cancel()
	<-done
	st, _ := q.Status(context.Background())
	fmt.Printf("pending %d, processing %d, failed %d\n", st.Pending, st.Processing, st.Failed)
	// Output:
	// transcript-delta 7f3c2a10.jsonl [0, 28) lines u1..u1
	// pending 0, processing 0, failed 0
}
