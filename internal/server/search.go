package server

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/cairn-mem/cairn/indexer"
	"github.com/cairn-mem/cairn/internal/memory"
	"github.com/cairn-mem/cairn/internal/model"
	"github.com/cairn-mem/cairn/internal/recall"
)

// Limits on requests to the search API.
const (
	MaxQueryBytes = 16 << 10 // a query longer than this is refused
	MaxK          = 200      // hits a search may ask for
	MaxBudget     = 100000   // tokens a context may ask for
)

// SearchAPI serves GET /api/search and GET /api/context with JSON
// bodies: the shapes `cairn search --json` and `cairn context --format
// json` print, plus "warnings" when something went less well than asked.
// The query parameters mirror the command line's flags:
//
//	/api/search?q=QUERY&k=N&mode=hybrid|keyword|vector&kind=K&layer=L&session=ID&tag=T&since=T&until=T
//	/api/context?q=QUERY&budget_tokens=N&session=ID
//
// kind, layer and tag may repeat. Errors are {"error": "..."} with 400
// for a bad request, 401 without the bearer token, 503 when too many
// searches run at once, 504 when one takes too long, 500 otherwise.
type SearchAPI struct {
	Index recall.Searcher
	// Token, if set, is the bearer token every request must carry. The
	// daemon checks it before the API sees a request and leaves it empty.
	Token string
	// MaxConcurrent bounds the searches that run at once; 0 means 4.
	// A request waits for a turn for half its timeout.
	MaxConcurrent int
	// Timeout bounds each request; 0 means 10 seconds.
	Timeout time.Duration

	once sync.Once
	sem  chan struct{}
}

// Register mounts the API's routes on mux.
func (a *SearchAPI) Register(mux *http.ServeMux) {
	mux.Handle("GET /api/search", a.handle(a.search))
	mux.Handle("GET /api/context", a.handle(a.context))
}

// ServeHTTP serves the API on its own.
func (a *SearchAPI) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	mux := http.NewServeMux()
	a.Register(mux)
	mux.ServeHTTP(w, r)
}

// apiError is an error with the status it answers.
type apiError struct {
	code int
	msg  string
}

func (e *apiError) Error() string { return e.msg }

func badRequest(format string, args ...any) error {
	return &apiError{http.StatusBadRequest, fmt.Sprintf(format, args...)}
}

// handle wraps an endpoint with the token check, the concurrency limit,
// the timeout and the error replies.
func (a *SearchAPI) handle(f func(ctx context.Context, q url.Values) (any, error)) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		a.once.Do(func() {
			n := a.MaxConcurrent
			if n <= 0 {
				n = 4
			}
			a.sem = make(chan struct{}, n)
		})
		if a.Token != "" {
			if !authorized(r, a.Token) {
				w.Header().Set("WWW-Authenticate", "Bearer")
				replyError(w, http.StatusUnauthorized, "missing or wrong bearer token (see .cairn/.state/token)")
				return
			}
		}
		if len(r.URL.RawQuery) > 4*MaxQueryBytes {
			replyError(w, http.StatusRequestURITooLong, "query string too long")
			return
		}
		timeout := a.Timeout
		if timeout <= 0 {
			timeout = 10 * time.Second
		}
		ctx, cancel := context.WithTimeout(r.Context(), timeout)
		defer cancel()
		// Wait for a turn for half the time at most, so that a request
		// that gets one still has time to run.
		wait := time.NewTimer(timeout / 2)
		select {
		case a.sem <- struct{}{}:
			wait.Stop()
			defer func() { <-a.sem }()
		case <-wait.C:
			replyError(w, http.StatusServiceUnavailable, "too many searches at once; try again")
			return
		case <-ctx.Done():
			wait.Stop()
			return // the client went away
		}
		q, err := url.ParseQuery(r.URL.RawQuery)
		if err != nil {
			replyError(w, http.StatusBadRequest, "bad query string: "+err.Error())
			return
		}
		v, err := f(ctx, q)
		var ae *apiError
		switch {
		case err == nil:
			reply(w, http.StatusOK, v)
		case errors.As(err, &ae):
			replyError(w, ae.code, ae.msg)
		case errors.Is(err, memory.ErrAmbiguous):
			replyError(w, http.StatusBadRequest, err.Error())
		case errors.Is(err, context.DeadlineExceeded) && r.Context().Err() == nil:
			replyError(w, http.StatusGatewayTimeout, "search took longer than "+timeout.String())
		case r.Context().Err() != nil:
			// The client went away; nobody reads the answer.
		default:
			replyError(w, http.StatusInternalServerError, err.Error())
		}
	})
}

// searchReply is the search endpoint's body.
type searchReply struct {
	*recall.SearchResults
	Warnings []string `json:"warnings,omitempty"`
}

// contextReply is the context endpoint's body.
type contextReply struct {
	*recall.Pack
	Warnings []string `json:"warnings,omitempty"`
}

func (a *SearchAPI) search(ctx context.Context, q url.Values) (any, error) {
	query, opts, err := SearchParams(q, time.Now())
	if err != nil {
		return nil, err
	}
	res, err := a.Index.Search(ctx, query, opts)
	if err != nil {
		return nil, err
	}
	return searchReply{res, res.Warnings}, nil
}

func (a *SearchAPI) context(ctx context.Context, q url.Values) (any, error) {
	if err := known(q, "q", "budget_tokens", "session"); err != nil {
		return nil, err
	}
	if err := single(q, "q", "budget_tokens", "session"); err != nil {
		return nil, err
	}
	opts := recall.ContextOptions{Query: q.Get("q"), Session: q.Get("session")}
	if len(opts.Query) > MaxQueryBytes {
		return nil, badRequest("q is longer than %d bytes", MaxQueryBytes)
	}
	if s := q.Get("budget_tokens"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 || n > MaxBudget {
			return nil, badRequest("budget_tokens %q: want a number of tokens from 1 to %d", s, MaxBudget)
		}
		opts.Budget = n
	}
	p, err := a.Index.Context(ctx, opts)
	if err != nil {
		return nil, err
	}
	return contextReply{p, p.Warnings}, nil
}

// SearchParams reads a search's query parameters, checking them as the
// command line checks its flags.
func SearchParams(q url.Values, now time.Time) (string, recall.SearchOptions, error) {
	var opts recall.SearchOptions
	if err := known(q, "q", "k", "mode", "kind", "layer", "session", "tag", "since", "until", "all"); err != nil {
		return "", opts, err
	}
	if err := single(q, "q", "k", "mode", "session", "since", "until", "all"); err != nil {
		return "", opts, err
	}
	query := q.Get("q")
	if strings.TrimSpace(query) == "" {
		return "", opts, badRequest("q is empty: say what to search for")
	}
	if len(query) > MaxQueryBytes {
		return "", opts, badRequest("q is longer than %d bytes", MaxQueryBytes)
	}
	if s := q.Get("k"); s != "" {
		k, err := strconv.Atoi(s)
		if err != nil || k < 1 || k > MaxK {
			return "", opts, badRequest("k %q: want a number from 1 to %d", s, MaxK)
		}
		opts.K = k
	}
	opts.Mode = indexer.Mode(q.Get("mode"))
	opts.Kinds, opts.Layers, opts.Tags = q["kind"], q["layer"], q["tag"]
	opts.Session = q.Get("session")
	switch a := q.Get("all"); a {
	case "", "0", "false":
	case "1", "true":
		opts.All = true
	default:
		return "", opts, badRequest("all %q: want true or false", a)
	}
	for _, t := range []struct {
		key string
		dst *time.Time
	}{{"since", &opts.Since}, {"until", &opts.Until}} {
		if s := q.Get(t.key); s != "" {
			v, err := model.ParseSince(s, now)
			if err != nil {
				return "", opts, badRequest("%s: %v", t.key, err)
			}
			*t.dst = v
		}
	}
	if err := recall.CheckSearchOptions(opts); err != nil {
		return "", opts, badRequest("%v", err)
	}
	return query, opts, nil
}

// known refuses parameters the endpoint does not take: a misspelt
// filter would otherwise be ignored in silence.
func known(q url.Values, keys ...string) error {
	for k := range q {
		ok := false
		for _, want := range keys {
			ok = ok || k == want
		}
		if !ok {
			return badRequest("unknown parameter %q (want %s)", k, strings.Join(keys, ", "))
		}
	}
	return nil
}

// single refuses a parameter given twice where it takes one value.
func single(q url.Values, keys ...string) error {
	for _, k := range keys {
		if len(q[k]) > 1 {
			return badRequest("parameter %q given %d times", k, len(q[k]))
		}
	}
	return nil
}
