package server

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"
)

// logBuffer is a daemon log that a test reads while parts write to it.
type logBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *logBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *logBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

func (l *logBuffer) logger() *slog.Logger { return slog.New(slog.NewTextHandler(l, nil)) }

// A failing part waits Min, then twice as long each time, up to Max; a
// part that ran Max or longer before it failed waits Min again.
func TestSupervisorBackoff(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		t0 := time.Now()
		var mu sync.Mutex
		var flaky, steady []time.Duration // when each run started
		sup := &Supervisor{
			Backoff: Backoff{Min: time.Second, Max: 4 * time.Second},
			Parts: []Part{
				{"flaky", ServiceFunc(func(ctx context.Context) error {
					mu.Lock()
					flaky = append(flaky, time.Since(t0))
					n := len(flaky)
					mu.Unlock()
					if n <= 4 {
						return fmt.Errorf("run %d failed", n)
					}
					<-ctx.Done()
					return ctx.Err()
				})},
				{"steady", ServiceFunc(func(ctx context.Context) error {
					mu.Lock()
					steady = append(steady, time.Since(t0))
					mu.Unlock()
					time.Sleep(5 * time.Second) // longer than Max: healthy
					return errors.New("failed after a good run")
				})},
			},
		}
		ctx, cancel := context.WithCancel(t.Context())
		done := make(chan error)
		go func() { done <- sup.Serve(ctx) }()
		time.Sleep(20 * time.Second)
		synctest.Wait()
		cancel()
		if err := <-done; err != nil {
			t.Errorf("Serve: %v", err)
		}
		s := time.Second
		if want := []time.Duration{0, 1 * s, 3 * s, 7 * s, 11 * s}; !equal(flaky, want) {
			t.Errorf("flaky part ran at %v, want %v", flaky, want)
		}
		if want := []time.Duration{0, 6 * s, 12 * s, 18 * s}; !equal(steady, want) {
			t.Errorf("steady part ran at %v, want %v", steady, want)
		}
	})
}

func equal(a, b []time.Duration) bool {
	return fmt.Sprint(a) == fmt.Sprint(b)
}

// A panic in a part is recovered, logged with its stack, and the part
// runs again; the other parts never notice.
func TestSupervisorRecoversPanics(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var log logBuffer
		runs, others := 0, 0
		sup := &Supervisor{
			Log: log.logger(),
			Parts: []Part{
				{"panicky", ServiceFunc(func(ctx context.Context) error {
					runs++
					if runs == 1 {
						panic("boom")
					}
					<-ctx.Done()
					return nil
				})},
				{"other", ServiceFunc(func(ctx context.Context) error {
					others++
					<-ctx.Done()
					return nil
				})},
			},
		}
		ctx, cancel := context.WithCancel(t.Context())
		done := make(chan error)
		go func() { done <- sup.Serve(ctx) }()
		time.Sleep(time.Minute)
		synctest.Wait()
		cancel()
		<-done
		if runs != 2 || others != 1 {
			t.Errorf("panicky part ran %d times, want 2; the other %d, want 1", runs, others)
		}
		out := log.String()
		for _, want := range []string{"part=panicky", "panic: boom", "stack=", "TestSupervisorRecoversPanics"} {
			if !strings.Contains(out, want) {
				t.Errorf("log lacks %q:\n%s", want, out)
			}
		}
	})
}

// A part that returns nil has finished and is not run again; cancelling
// ctx stops every part, without restarts, and then Serve returns.
func TestSupervisorDoneAndShutdown(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var log logBuffer
		var mu sync.Mutex
		runs := map[string]int{}
		stopped := map[string]bool{}
		count := func(name string) {
			mu.Lock()
			defer mu.Unlock()
			runs[name]++
		}
		blocking := func(name string, err error) Part {
			return Part{name, ServiceFunc(func(ctx context.Context) error {
				count(name)
				<-ctx.Done()
				mu.Lock()
				stopped[name] = true
				mu.Unlock()
				return err
			})}
		}
		sup := &Supervisor{
			Log: log.logger(),
			Parts: []Part{
				{"done", ServiceFunc(func(ctx context.Context) error { count("done"); return nil })},
				blocking("quiet", nil),
				blocking("canceled", context.Canceled),
				blocking("messy", errors.New("could not flush")),
			},
		}
		ctx, cancel := context.WithCancel(t.Context())
		done := make(chan error)
		go func() { done <- sup.Serve(ctx) }()
		time.Sleep(time.Hour)
		synctest.Wait()
		cancel()
		if err := <-done; err != nil {
			t.Errorf("Serve: %v", err)
		}
		for _, name := range []string{"done", "quiet", "canceled", "messy"} {
			if runs[name] != 1 {
				t.Errorf("part %s ran %d times, want 1", name, runs[name])
			}
		}
		for _, name := range []string{"quiet", "canceled", "messy"} {
			if !stopped[name] {
				t.Errorf("part %s did not see ctx done", name)
			}
		}
		out := log.String()
		if !strings.Contains(out, "part=done") || !strings.Contains(out, "part finished") {
			t.Errorf("log does not say the done part finished:\n%s", out)
		}
		if !strings.Contains(out, "part=messy") || !strings.Contains(out, "could not flush") {
			t.Errorf("log does not say the messy part failed while stopping:\n%s", out)
		}
		if strings.Contains(out, "part=canceled") || strings.Contains(out, "restarting") {
			t.Errorf("log reports a clean stop as a failure:\n%s", out)
		}
	})
}
