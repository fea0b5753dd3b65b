package llm

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"syscall"
	"time"
)

// Retry bounds how a model provider retries a call that failed for a
// reason that may pass: a timeout, a dropped connection, HTTP 408, 429 or
// 5xx (529 is Anthropic's "overloaded"). Other failures, and invalid
// answers, are not retried.
type Retry struct {
	Attempts   int           // tries in all; 0 means 3
	Backoff    time.Duration // the wait before the second try, doubled before each next; 0 means 1s
	MaxBackoff time.Duration // the longest wait, also for a server's Retry-After; 0 means 30s
}

func (r Retry) attempts() int {
	if r.Attempts > 0 {
		return r.Attempts
	}
	return 3
}

// wait is the pause before try n+1 (n ≥ 1), at least what the server
// asked for, at most MaxBackoff.
func (r Retry) wait(n int, err error) time.Duration {
	b, most := r.Backoff, r.MaxBackoff
	if b <= 0 {
		b = time.Second
	}
	if most <= 0 {
		most = 30 * time.Second
	}
	for i := 1; i < n && b < most; i++ {
		b *= 2
	}
	var he *httpError
	if errors.As(err, &he) && he.RetryAfter > b {
		b = he.RetryAfter
	}
	return min(b, most)
}

// do calls f until it succeeds, fails for good, or the tries are spent.
// The error of the last try is returned, with the number of tries.
func (r Retry) do(ctx context.Context, f func(context.Context) error) error {
	n := r.attempts()
	for try := 1; ; try++ {
		err := f(ctx)
		if err == nil {
			return nil
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if !retryable(err) {
			return err
		}
		if try == n {
			return fmt.Errorf("gave up after %d tries: %w", n, err)
		}
		t := time.NewTimer(r.wait(try, err))
		select {
		case <-ctx.Done():
			t.Stop()
			return ctx.Err()
		case <-t.C:
		}
	}
}

// errTimeout is a try that ran out of its time.
var errTimeout = errors.New("timed out")

// httpError is an HTTP answer other than 200, with what the body said.
type httpError struct {
	Status     int
	Type       string // the API's error type, e.g. overloaded_error
	Message    string
	RetryAfter time.Duration
}

func (e *httpError) Error() string {
	s := fmt.Sprintf("HTTP %d", e.Status)
	if e.Type != "" {
		s += " " + e.Type
	}
	if e.Message != "" {
		s += ": " + e.Message
	}
	return s
}

// transientError marks a failure a later try may not have (a model CLI
// that reported an overload, say).
type transientError struct{ err error }

func (e transientError) Error() string { return e.err.Error() }
func (e transientError) Unwrap() error { return e.err }

func retryable(err error) bool {
	var he *httpError
	if errors.As(err, &he) {
		return he.Status == http.StatusRequestTimeout || he.Status == http.StatusTooManyRequests || he.Status >= 500
	}
	var te transientError
	if errors.As(err, &te) {
		return true
	}
	if errors.Is(err, errTimeout) || errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, syscall.ECONNRESET) || errors.Is(err, syscall.ECONNREFUSED) {
		return true
	}
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout()
}

// retryAfter reads a Retry-After header in seconds (dates are rare from
// APIs and are ignored).
func retryAfter(h http.Header) time.Duration {
	s := h.Get("Retry-After")
	if s == "" {
		return 0
	}
	if n, err := strconv.ParseFloat(s, 64); err == nil && n >= 0 {
		return time.Duration(n * float64(time.Second))
	}
	return 0
}
