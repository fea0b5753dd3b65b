package client

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// ErrNoDaemon is wrapped by the errors of a Client that found no daemon
// to talk to: none was started, it does not answer, or it went away
// before it finished its answer (a connection refused, reset or closed:
// EOF). The caller can do the work itself. An error the daemon answered
// is an *APIError instead: a real answer, not to be tried again here.
var ErrNoDaemon = errors.New("no cairn daemon answers")

// DefaultWait is how long a command waits for the daemon's health answer
// before it does the work itself: a daemon that cannot answer that fast
// would slow the agent more than working here does.
const DefaultWait = 100 * time.Millisecond

// MaxWait bounds a wait set by hand.
const MaxWait = 10 * time.Second

// ParseWait reads a wait for the daemon (CAIRN_DAEMON_WAIT): a duration
// ("300ms", "2s") or seconds ("0.5"), positive and at most MaxWait.
func ParseWait(v string) (time.Duration, error) {
	d, err := time.ParseDuration(v)
	if err != nil {
		s, ferr := strconv.ParseFloat(v, 64)
		if ferr != nil {
			return 0, fmt.Errorf("%q is neither a duration (300ms, 2s) nor seconds", v)
		}
		d = time.Duration(s * float64(time.Second))
	}
	if d <= 0 || d > MaxWait {
		return 0, fmt.Errorf("%q is not between 0 and %v", v, MaxWait)
	}
	return d, nil
}

// EnvWait is how long a command waits for the daemon's health answer:
// CAIRN_DAEMON_WAIT as getenv gives it, for a machine so loaded that a
// live daemon misses DefaultWait; a bad value is told to warn and left.
func EnvWait(getenv func(string) string, warn func(string)) time.Duration {
	v := getenv("CAIRN_DAEMON_WAIT")
	if v == "" {
		return DefaultWait
	}
	d, err := ParseWait(v)
	if err != nil {
		warn(fmt.Sprintf("CAIRN_DAEMON_WAIT: %v; waiting %v", err, DefaultWait))
		return DefaultWait
	}
	return d
}

// Client calls a daemon's search API. It is a Searcher.
type Client struct {
	BaseURL string // http://127.0.0.1:PORT
	Token   string
	HTTP    *http.Client // nil means http.DefaultClient
}

// Discover returns a client of the daemon serving the memory whose state
// folder is stateDir, from the address and token it wrote there, if it
// answers GET /api/health within timeout. Otherwise the error wraps
// ErrNoDaemon.
func Discover(ctx context.Context, stateDir string, timeout time.Duration) (*Client, error) {
	addr, err := os.ReadFile(filepath.Join(stateDir, AddrFile))
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrNoDaemon, err)
	}
	token, err := os.ReadFile(filepath.Join(stateDir, TokenFile))
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrNoDaemon, err)
	}
	c := &Client{BaseURL: strings.TrimSpace(string(addr)), Token: strings.TrimSpace(string(token))}
	if u, err := url.Parse(c.BaseURL); err != nil || u.Scheme != "http" || u.Host == "" {
		return nil, fmt.Errorf("%w: %s holds %q, not an http address", ErrNoDaemon, filepath.Join(stateDir, AddrFile), c.BaseURL)
	}
	hctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	if err := c.Health(hctx); err != nil {
		return nil, err
	}
	return c, nil
}

// Health checks that the daemon answers.
func (c *Client) Health(ctx context.Context) error {
	return c.Get(ctx, "/api/health", nil, nil)
}

// APIError is an error the daemon answered with.
type APIError struct {
	Status  int
	Message string
}

func (e *APIError) Error() string {
	return fmt.Sprintf("cairn daemon: %s (HTTP %d)", e.Message, e.Status)
}

// Checkpoint asks the daemon to checkpoint what changed. Its stat cache
// is warm and its monitor knows what changed, so this costs what changed.
// Commit is empty in the answer when there was nothing to checkpoint.
func (c *Client) Checkpoint(ctx context.Context, req CheckpointRequest) (*CheckpointResponse, error) {
	body, err := json.Marshal(req)
	if err != nil {
		return nil, err
	}
	var resp CheckpointResponse
	if err := c.do(ctx, http.MethodPost, "/api/checkpoint", nil, body, &resp); err != nil {
		return nil, err
	}
	return &resp, nil
}

// Get calls path and decodes the JSON answer into v (nil: discard it).
func (c *Client) Get(ctx context.Context, path string, q url.Values, v any) error {
	return c.do(ctx, http.MethodGet, path, q, nil, v)
}

// do sends a request with an optional JSON body and decodes the JSON
// answer into v (nil: discard it).
func (c *Client) do(ctx context.Context, method, path string, q url.Values, body []byte, v any) error {
	u := strings.TrimRight(c.BaseURL, "/") + path
	if len(q) > 0 {
		u += "?" + q.Encode()
	}
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, method, u, rd)
	if err != nil {
		return err
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if c.Token != "" {
		req.Header.Set("Authorization", "Bearer "+c.Token)
	}
	hc := c.HTTP
	if hc == nil {
		hc = http.DefaultClient
	}
	resp, err := hc.Do(req)
	if err != nil {
		if ctx.Err() != nil && errors.Is(err, ctx.Err()) && !errors.Is(ctx.Err(), context.DeadlineExceeded) {
			return ctx.Err()
		}
		return fmt.Errorf("%w at %s: %v", ErrNoDaemon, c.BaseURL, err)
	}
	defer resp.Body.Close()
	answer, err := io.ReadAll(io.LimitReader(resp.Body, 64<<20))
	if err != nil {
		// It died while answering: as good as no answer.
		return fmt.Errorf("%w at %s: read answer: %v", ErrNoDaemon, c.BaseURL, err)
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		var e struct{ Error string }
		if json.Unmarshal(answer, &e) != nil || e.Error == "" {
			e.Error = strings.TrimSpace(string(answer))
		}
		return &APIError{Status: resp.StatusCode, Message: e.Error}
	}
	if v == nil {
		return nil
	}
	if err := json.Unmarshal(answer, v); err != nil {
		return fmt.Errorf("cairn daemon at %s: bad answer to %s: %w", c.BaseURL, path, err)
	}
	return nil
}

// InitSession queues the start of a session (and its first prompt, if
// given) with the daemon.
func (c *Client) InitSession(ctx context.Context, req SessionInit) (*Queued, error) {
	return post[Queued](ctx, c, "/api/sessions/init", req)
}

// Observe queues a tool call and its result with the daemon.
func (c *Client) Observe(ctx context.Context, req Observation) (*Queued, error) {
	return post[Queued](ctx, c, "/api/sessions/observations", req)
}

// Summarize queues the end of a turn: the daemon summarises what is
// pending.
func (c *Client) Summarize(ctx context.Context, req SummarizeRequest) (*Queued, error) {
	return post[Queued](ctx, c, "/api/sessions/summarize", req)
}

// CatchUp asks the daemon to capture now what is pending for the
// sessions before req.Except (the inbox, the due jobs, the sessions whose
// end hooks never wrote) and waits for it: a session start calls it
// before it packs the context.
func (c *Client) CatchUp(ctx context.Context, req CatchUpRequest) (*CaughtUp, error) {
	return post[CaughtUp](ctx, c, "/api/capture/catch-up", req)
}

// Remember asks the daemon to add a memory item.
func (c *Client) Remember(ctx context.Context, req RememberRequest) (*Remembered, error) {
	return post[Remembered](ctx, c, "/api/memories", req)
}

// UILogin asks the daemon for a one-time login to its web viewer.
func (c *Client) UILogin(ctx context.Context) (*UILogin, error) {
	return post[UILogin](ctx, c, "/api/ui/login-code", struct{}{})
}

// SessionStatus asks the daemon about a session and the queue.
func (c *Client) SessionStatus(ctx context.Context, id string) (*SessionStatus, error) {
	var st SessionStatus
	if err := c.Get(ctx, "/sessions/"+url.PathEscape(id)+"/status", nil, &st); err != nil {
		return nil, err
	}
	return &st, nil
}

func post[T any](ctx context.Context, c *Client, path string, req any) (*T, error) {
	body, err := json.Marshal(req)
	if err != nil {
		return nil, err
	}
	var v T
	if err := c.do(ctx, http.MethodPost, path, nil, body, &v); err != nil {
		return nil, err
	}
	return &v, nil
}
