package server

import (
	"cmp"
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/cairn-mem/cairn/internal/capture"
	"github.com/cairn-mem/cairn/internal/client"
	"github.com/cairn-mem/cairn/internal/memory"
	"github.com/cairn-mem/cairn/internal/metrics"
	"github.com/cairn-mem/cairn/internal/recall"
	"github.com/cairn-mem/cairn/internal/safefile"
)

// ErrRunning means a daemon already serves this memory.
var ErrRunning = errors.New("a cairn daemon is already running for this memory")

// Daemon is the sidecar: it watches the memory's work tree so checkpoints
// find hand edits cheaply, captures what agents write, and serves the
// HTTP API on loopback. Its long-running parts (the API server, the
// monitor, the capture worker, and Parts) run under a Supervisor: one that
// fails is logged and run again after a backoff, and the daemon goes on.
type Daemon struct {
	Mem  *memory.Memory
	Log  *slog.Logger
	Addr string // listen address; default 127.0.0.1:0

	// Handlers mounts more of the API on the daemon's mux, behind the
	// bearer token.
	Handlers func(mux *http.ServeMux)
	// UI, if set, serves /ui/ with an auth of its own (internal/web); it
	// may add routes to mux, the API behind the token, and is given the
	// lock of the daemon's memory operations for its writes.
	UI func(mux *http.ServeMux, do func(func())) http.Handler
	// Parts run beside the daemon's own parts, supervised like them, until
	// ctx is done.
	Parts []Part
	// Backoff is how long a failed part waits before it runs again; the
	// zero value waits 1s, doubling up to a minute.
	Backoff Backoff
	// BuildGC, if set, sets the process's garbage collector for an index
	// build the daemon does (its first search's, a rebuild) and returns
	// what puts back the daemon's own (recall.IndexOptions.BuildGC;
	// `cairn daemon run` passes indexer.GCForBuild, as `cairn reindex`
	// does).
	BuildGC func() (restore func())
	// Exe, if set, is the program file the daemon runs from: once it is
	// replaced the daemon stops with ErrReplaced, so that an upgrade
	// takes effect at the next start.
	Exe string

	exeEvery time.Duration // how often Exe is looked at; exeInterval if 0
	started  time.Time
	token    string
	ops      opLock
}

// opLock serialises the memory operations of one process: gitstore's lock
// is per process.
type opLock struct{ mu sync.Mutex }

// do runs f holding the lock, and lets it go even when f panics, so that a
// part's panic does not leave every later operation waiting.
func (l *opLock) do(f func()) {
	l.mu.Lock()
	defer l.mu.Unlock()
	f()
}

// Serve runs the daemon until ctx is done. A second daemon on the same
// memory fails with ErrRunning, and an address that cannot be bound fails
// the start; once started, failing parts are run again, and Serve returns
// nil when ctx is done and every part has stopped.
func (d *Daemon) Serve(ctx context.Context) error {
	if d.Log == nil {
		d.Log = slog.New(slog.NewTextHandler(os.Stderr, nil))
	}
	unlock, err := safefile.TryLock(d.Mem.StatePath(client.LockFile))
	if errors.Is(err, safefile.ErrLocked) {
		pid, _ := os.ReadFile(d.Mem.StatePath(client.PIDFile))
		return fmt.Errorf("%w (pid %s); stop it with cairn daemon stop", ErrRunning, strings.TrimSpace(string(pid)))
	}
	if err != nil {
		return fmt.Errorf("daemon: %w", err)
	}
	defer unlock()
	token, err := ensureToken(d.Mem.StatePath(client.TokenFile))
	if err != nil {
		return err
	}
	d.token = token
	addr := d.Addr
	if addr == "" {
		addr = "127.0.0.1:0"
	}
	// Bound here, not in the HTTP part, so that an address in use fails
	// the start instead of being retried.
	l, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("daemon: listen on %s: %w", addr, err)
	}
	url := "http://" + l.Addr().String()
	d.started = time.Now()
	if err := safefile.Write(d.Mem.StatePath(client.PIDFile), []byte(strconv.Itoa(os.Getpid())+"\n"), 0o600); err != nil {
		l.Close()
		return err
	}
	if err := safefile.Write(d.Mem.StatePath(client.AddrFile), []byte(url+"\n"), 0o600); err != nil {
		l.Close()
		return err
	}
	defer os.Remove(d.Mem.StatePath(client.AddrFile))
	defer os.Remove(d.Mem.StatePath(client.PIDFile))

	mux := http.NewServeMux()
	mux.HandleFunc("GET /api/health", d.health)
	mux.HandleFunc("POST /api/checkpoint", d.checkpoint)
	// Bleve lets one process write an index: the daemon holds it and
	// serves searches, which catch up with HEAD before they run. An index
	// never built is left to the first search, which builds it.
	if _, err := os.Stat(d.Mem.StatePath(filepath.Join("index", "meta.json"))); err == nil {
		x, err := recall.OpenIndex(ctx, d.Mem, recall.IndexOptions{LockTimeout: 2 * time.Second, BuildGC: d.BuildGC})
		if err != nil {
			d.Log.Warn("search index not held by the daemon; searches open it themselves", "err", err)
		} else {
			defer x.Close()
			(&SearchAPI{Index: x}).Register(mux)
		}
	}
	defer d.registerAPI(mux)() // after SearchAPI: it serves search only where that did not
	if d.Handlers != nil {
		d.Handlers(mux)
	}
	api := requireToken(token, mux)
	if d.UI != nil {
		api = withUI(d.UI(mux, d.ops.do), api)
	}
	sup := &Supervisor{
		Log:     d.Log,
		Backoff: d.Backoff,
		Parts: append([]Part{
			{"http", &httpServer{handler: checkHost(l.Addr(), limit(api)), l: l, addr: l.Addr().String()}},
			{"monitor", monitor{mem: d.Mem}},
			{"capture", &captureWorker{mem: d.Mem, log: d.Log, ops: &d.ops}},
			{"memory", releaser{}},
			{"derived", deriver{mem: d.Mem, log: d.Log}},
			{"metrics", metrics.Sampler{Log: metrics.Open(d.Mem.StatePath("")), Sample: func(ctx context.Context) (metrics.Event, error) { return capture.Gauges(ctx, d.Mem) }}},
		}, d.Parts...),
	}
	ctx, stop := context.WithCancelCause(ctx)
	defer stop(nil)
	if d.Exe != "" {
		every := cmp.Or(d.exeEvery, exeInterval)
		sup.Parts = append(sup.Parts, Part{"upgrade", exeWatch{path: d.Exe, interval: every, stop: stop, log: d.Log}})
	}
	d.Log.Info("daemon started", "memory", d.Mem.Dir, "url", url, "pid", os.Getpid())
	err = sup.Serve(ctx)
	d.Log.Info("daemon stopped")
	if err == nil && errors.Is(context.Cause(ctx), ErrReplaced) {
		return ErrReplaced
	}
	return err
}

// exeInterval is how often the daemon looks at its program file.
const exeInterval = 15 * time.Second

// health says the daemon is alive. Who it serves and which process it
// is are for the holder of the token only: any local process can reach
// the port.
func (d *Daemon) health(w http.ResponseWriter, r *http.Request) {
	if !authorized(r, d.token) {
		reply(w, http.StatusOK, map[string]any{"status": "ok"})
		return
	}
	reply(w, http.StatusOK, map[string]any{
		"status":  "ok",
		"pid":     os.Getpid(),
		"memory":  d.Mem.Dir,
		"uptime":  time.Since(d.started).Round(time.Second).String(),
		"started": d.started.UTC().Format(time.RFC3339),
	})
}

func (d *Daemon) checkpoint(w http.ResponseWriter, r *http.Request) {
	var req client.CheckpointRequest
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		replyError(w, http.StatusBadRequest, "checkpoint: bad request body: "+err.Error())
		return
	}
	if req.Tag != "" {
		if err := memory.ValidTagName(req.Tag); err != nil {
			replyError(w, http.StatusBadRequest, err.Error())
			return
		}
	}
	var res *client.CheckpointResponse
	var err error
	d.ops.do(func() {
		res, err = Checkpoint(r.Context(), d.Mem, req)
	})
	switch {
	case errors.Is(err, memory.ErrLocked):
		replyError(w, http.StatusConflict, err.Error())
	case err != nil:
		replyError(w, http.StatusInternalServerError, err.Error())
	default:
		reply(w, http.StatusOK, res)
	}
}

// Checkpoint commits what changed in m, as cairn checkpoint does: with
// nothing to commit the answer's Commit is empty, and a tag asked for
// names HEAD.
func Checkpoint(ctx context.Context, m *memory.Memory, req client.CheckpointRequest) (*client.CheckpointResponse, error) {
	cp, err := m.Checkpoint(ctx, memory.CheckpointOptions{
		Message: req.Message, Tag: req.Tag, Session: req.Session, Event: req.Event,
	})
	if errors.Is(err, memory.ErrNothingToDo) {
		res := &client.CheckpointResponse{Changes: []memory.FileChange{}}
		if req.Tag == "" {
			return res, nil
		}
		if err := m.History().Tag(ctx, req.Tag, "HEAD"); err != nil {
			return nil, err
		}
		head, err := m.History().Resolve("HEAD")
		if err != nil {
			return nil, err
		}
		res.Tag, res.Tagged = req.Tag, head
		return res, nil
	}
	if err != nil {
		return nil, err
	}
	res := &client.CheckpointResponse{Commit: cp.Hash, Subject: cp.Subject, Changes: nonNil(cp.Changes)}
	if req.Tag != "" {
		res.Tag, res.Tagged = req.Tag, cp.Hash
	}
	return res, nil
}

func nonNil(c []memory.FileChange) []memory.FileChange {
	if c == nil {
		return []memory.FileChange{}
	}
	return c
}

// ensureToken returns the bearer token in name, creating it (0600) when
// it is missing.
func ensureToken(name string) (string, error) {
	if b, err := os.ReadFile(name); err == nil && len(strings.TrimSpace(string(b))) >= 32 {
		os.Chmod(name, 0o600)
		return strings.TrimSpace(string(b)), nil
	}
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		return "", fmt.Errorf("daemon: make a token: %w", err)
	}
	t := hex.EncodeToString(b)
	if err := safefile.Write(name, []byte(t+"\n"), 0o600); err != nil {
		return "", fmt.Errorf("daemon: token: %w", err)
	}
	return t, nil
}

// requireToken refuses requests without the bearer token, except the
// health check, so that a dead or live daemon can be told apart cheaply
// (it says no more than that without the token).
func requireToken(token string, h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/api/health" && !authorized(r, token) {
			w.Header().Set("WWW-Authenticate", "Bearer")
			replyError(w, http.StatusUnauthorized, "missing or wrong bearer token (see .cairn/.state/token)")
			return
		}
		h.ServeHTTP(w, r)
	})
}

// withUI sends /ui and what is under it to ui, the rest to api.
func withUI(ui, api http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/ui" || strings.HasPrefix(r.URL.Path, "/ui/") {
			ui.ServeHTTP(w, r)
			return
		}
		api.ServeHTTP(w, r)
	})
}

// authorized reports whether r carries "Authorization: Bearer token".
// The scheme is case-insensitive (RFC 7235: "bearer" and "BEARER" are
// Bearer); the token is compared in constant time, since another local
// user may probe the port.
func authorized(r *http.Request, token string) bool {
	scheme, cred, ok := strings.Cut(strings.TrimSpace(r.Header.Get("Authorization")), " ")
	if !ok || token == "" || !strings.EqualFold(scheme, "Bearer") {
		return false
	}
	return subtle.ConstantTimeCompare([]byte(strings.TrimLeft(cred, " ")), []byte(token)) == 1
}

// checkHost refuses, with 403, a request whose Host header is not the
// daemon's own address under a loopback name (127.0.0.1, localhost or
// [::1] with the daemon's port). A web page the user visits can make
// the browser send requests to 127.0.0.1 under a name the page's owner
// points there (DNS rebinding); the browser then sends that name as the
// Host, which this refuses.
func checkHost(addr net.Addr, h http.Handler) http.Handler {
	_, port, _ := net.SplitHostPort(addr.String())
	allowed := map[string]bool{strings.ToLower(addr.String()): true}
	for _, name := range []string{"127.0.0.1", "localhost", "::1"} {
		allowed[net.JoinHostPort(name, port)] = true
		if port == "80" {
			allowed[name] = true
			allowed["["+name+"]"] = true
		}
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !allowed[strings.ToLower(r.Host)] {
			replyError(w, http.StatusForbidden, fmt.Sprintf("Host %q is not this daemon's address: use http://127.0.0.1:%s", r.Host, port))
			return
		}
		h.ServeHTTP(w, r)
	})
}

// limit caps request bodies.
func limit(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		r.Body = http.MaxBytesReader(w, r.Body, 1<<20)
		h.ServeHTTP(w, r)
	})
}

func reply(w http.ResponseWriter, code int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	json.NewEncoder(w).Encode(v)
}

func replyError(w http.ResponseWriter, code int, msg string) {
	reply(w, code, map[string]string{"error": msg})
}
