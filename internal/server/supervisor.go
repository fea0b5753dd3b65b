package server

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"runtime/debug"
	"sync"
	"time"
)

// A Service is a long-running part of the daemon. Serve runs it until ctx
// is done and then returns nil (or ctx's error). Returning nil before that
// means the part has nothing more to do; returning an error, or
// panicking, is a failure, and the Supervisor runs it again.
type Service interface {
	Serve(ctx context.Context) error
}

// ServiceFunc makes a function a Service.
type ServiceFunc func(ctx context.Context) error

// Serve calls f(ctx).
func (f ServiceFunc) Serve(ctx context.Context) error { return f(ctx) }

// A Part is a Service with the name the daemon log gives it.
type Part struct {
	Name    string
	Service Service
}

// Backoff is how long a failed part waits before it runs again: Min after
// its first failure, twice as long after each further failure in a row,
// never more than Max. A run that lasted Max or longer counts as healthy,
// so its failure waits Min again. Zero fields mean 1s and 1 minute.
type Backoff struct {
	Min, Max time.Duration
}

const (
	defaultMinBackoff = time.Second
	defaultMaxBackoff = time.Minute
)

func (b Backoff) min() time.Duration {
	if b.Min > 0 {
		return b.Min
	}
	return defaultMinBackoff
}

func (b Backoff) max() time.Duration {
	if b.Max > 0 {
		return max(b.Max, b.min())
	}
	return max(defaultMaxBackoff, b.min())
}

// wait returns the wait after the nth failure in a row (n >= 1).
func (b Backoff) wait(n int) time.Duration {
	w, limit := b.min(), b.max()
	for i := 1; i < n && w < limit; i++ {
		w *= 2
	}
	return min(w, limit)
}

// A Supervisor runs parts side by side and runs each failed one again
// after a backoff, so that one failing part is logged and retried, not
// the end of the daemon (syncthing's services, with suture, work so).
type Supervisor struct {
	Parts   []Part
	Log     *slog.Logger
	Backoff Backoff
}

// Serve runs every part until ctx is done and returns once all of them
// have returned. A part that returns nil, or any part once ctx is done,
// is not run again. Errors of parts while they stop are logged: by then
// there is nothing left to retry.
func (s *Supervisor) Serve(ctx context.Context) error {
	log := s.Log
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	var wg sync.WaitGroup
	for _, p := range s.Parts {
		wg.Go(func() { s.supervise(ctx, log.With("part", p.Name), p) })
	}
	wg.Wait()
	return nil
}

// supervise runs p until it stops for good.
func (s *Supervisor) supervise(ctx context.Context, log *slog.Logger, p Part) {
	failures := 0
	for {
		start := time.Now()
		err := serveProtected(ctx, p.Service)
		if ctx.Err() != nil {
			if err != nil && !errors.Is(err, ctx.Err()) {
				log.Warn("part failed while stopping", "err", err)
			}
			return
		}
		if err == nil {
			log.Info("part finished")
			return
		}
		if time.Since(start) >= s.Backoff.max() {
			failures = 0
		}
		failures++
		wait := s.Backoff.wait(failures)
		attrs := []any{"err", err, "failures", failures, "restart_in", wait}
		if pe, ok := errors.AsType[*panicError](err); ok {
			attrs = append(attrs, "stack", string(pe.stack))
		}
		log.Error("part failed; restarting it after a backoff", attrs...)
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return
		case <-t.C:
		}
	}
}

// serveProtected runs svc, turning a panic into a *panicError: a part's
// bug must not take down the daemon's other parts with it.
func serveProtected(ctx context.Context, svc Service) (err error) {
	defer func() {
		if v := recover(); v != nil {
			err = &panicError{value: v, stack: debug.Stack()}
		}
	}()
	return svc.Serve(ctx)
}

// panicError is a panic recovered from a part, with the stack it was
// raised on.
type panicError struct {
	value any
	stack []byte
}

func (e *panicError) Error() string { return fmt.Sprintf("panic: %v", e.value) }
