package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/cairn-mem/cairn/internal/capture"
	"github.com/cairn-mem/cairn/internal/client"
	"github.com/cairn-mem/cairn/internal/memory"
	"github.com/cairn-mem/cairn/internal/model"
	"github.com/cairn-mem/cairn/internal/recall"
	"github.com/cairn-mem/cairn/internal/transcript"
	"github.com/cairn-mem/cairn/watcher"
)

// MaxBody is the largest request body the API reads. A hook's tool
// response can be large; capture cuts it down anyway.
const MaxBody = 1 << 20

// The session endpoints take what a Claude Code hook gets on stdin, under
// the same names, and queue it as a hook job, like a capture hook that
// drops its payload into the inbox. They do not call the memory
// directly: the queue is on disk before the answer (202), so an
// observation survives a daemon that dies the next moment; the caller
// never waits behind a summary that holds the writer lock; and there is
// one way in for hook data (the worker, with its retries, backoff and
// dedupe by payload), whichever road it took.

// registerAPI mounts the session and memory endpoints on mux, a JSON 405
// for a wrong method on every endpoint, and a JSON 404 for the rest. When
// the daemon did not open the search index at start (it was never
// built), the first search opens (and builds) it. The returned function
// releases what was opened; call it after the server stopped.
func (d *Daemon) registerAPI(mux *http.ServeMux) func() {
	q, qerr := capture.Queue(d.Mem, watcher.QueueOptions{})
	a := &api{d: d, q: q, qerr: qerr}
	mux.HandleFunc("POST /api/sessions/init", a.sessionInit)
	mux.HandleFunc("POST /api/sessions/observations", a.observation)
	mux.HandleFunc("POST /api/sessions/summarize", a.summarize)
	mux.HandleFunc("GET /sessions/{id}/status", a.sessionStatus)
	mux.HandleFunc("GET /api/sessions/{id}/status", a.sessionStatus)
	mux.HandleFunc("POST /api/memories", a.remember)
	mux.HandleFunc("POST /api/capture/catch-up", a.catchUp)
	lazy := &lazySearch{d: d}
	for _, p := range []string{"/api/search", "/api/context"} {
		if !registered(mux, http.MethodGet, p) {
			mux.Handle("GET "+p, lazy)
		}
	}
	for p, allow := range map[string]string{
		"/api/health": "GET", "/api/checkpoint": "POST", "/api/search": "GET", "/api/context": "GET",
		"/api/sessions/init": "POST", "/api/sessions/observations": "POST", "/api/sessions/summarize": "POST",
		"/sessions/{id}/status": "GET", "/api/sessions/{id}/status": "GET", "/api/memories": "POST",
		"/api/capture/catch-up": "POST",
	} {
		mux.HandleFunc(p, func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Allow", allow)
			replyError(w, http.StatusMethodNotAllowed, fmt.Sprintf("%s %s: method not allowed (use %s)", r.Method, r.URL.Path, allow))
		})
	}
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		replyError(w, http.StatusNotFound, fmt.Sprintf("no endpoint %s %s (see docs/http-api.md)", r.Method, r.URL.Path))
	})
	return lazy.close
}

// registered reports whether mux has a route for method and path.
func registered(mux *http.ServeMux, method, path string) bool {
	r, err := http.NewRequest(method, path, nil)
	if err != nil {
		return false
	}
	_, pat := mux.Handler(r)
	return pat != ""
}

// lazySearch serves the search API from an index it opens at the first
// request.
type lazySearch struct {
	d  *Daemon
	mu sync.Mutex
	x  *recall.Index
	h  http.Handler // the SearchAPI on x
}

func (l *lazySearch) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	l.mu.Lock()
	if l.h == nil {
		// Wait little: the caller can search without the daemon.
		x, err := recall.OpenIndex(r.Context(), l.d.Mem, recall.IndexOptions{LockTimeout: 500 * time.Millisecond, BuildGC: l.d.BuildGC})
		if err != nil {
			l.mu.Unlock()
			replyError(w, http.StatusServiceUnavailable, "the daemon cannot open the search index: "+err.Error())
			return
		}
		mux := http.NewServeMux()
		(&SearchAPI{Index: x}).Register(mux)
		l.x, l.h = x, mux
	}
	h := l.h
	l.mu.Unlock()
	h.ServeHTTP(w, r)
}

func (l *lazySearch) close() {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.x != nil {
		l.x.Close()
		l.x, l.h = nil, nil
	}
}

// api serves the endpoints of this file.
type api struct {
	d    *Daemon
	q    *watcher.Queue
	qerr error
}

// decode reads a JSON body into v, refusing unknown fields and trailing
// data, and answers the error itself. The Content-Type is not checked:
// the body is JSON or refused, and curl -d sends a form's type.
func decode(w http.ResponseWriter, r *http.Request, v any) bool {
	r.Body = http.MaxBytesReader(w, r.Body, MaxBody)
	dec := json.NewDecoder(r.Body)
	dec.DisallowUnknownFields()
	err := dec.Decode(v)
	if err == nil && dec.More() {
		err = errors.New("more than one JSON value")
	}
	if err == nil {
		_, err = io.Copy(io.Discard, r.Body) // a body over the limit errs here
	}
	var mbe *http.MaxBytesError
	switch {
	case err == nil:
		return true
	case errors.As(err, &mbe):
		replyError(w, http.StatusRequestEntityTooLarge, fmt.Sprintf("request body over %d bytes", mbe.Limit))
	case errors.Is(err, io.EOF):
		replyError(w, http.StatusBadRequest, "empty request body: want a JSON object")
	default:
		replyError(w, http.StatusBadRequest, "bad request body: "+err.Error())
	}
	return false
}

// checkSession answers 400 for a missing or unsafe session id.
func checkSession(w http.ResponseWriter, id string) bool {
	if err := transcript.ValidateSessionID(id); err != nil {
		replyError(w, http.StatusBadRequest, "session_id: "+err.Error())
		return false
	}
	return true
}

// enqueue queues hook payloads as hook jobs of one session and answers
// 202 with their ids.
func (a *api) enqueue(w http.ResponseWriter, r *http.Request, session string, hooks ...transcript.Hook) {
	if a.qerr != nil {
		replyError(w, http.StatusInternalServerError, "queue: "+a.qerr.Error())
		return
	}
	res := client.Queued{SessionID: session, Jobs: []string{}, Status: "queued"}
	for _, h := range hooks {
		payload, err := json.Marshal(h)
		if err == nil {
			_, err = transcript.ParseHook(payload) // what the worker will do
		}
		if err != nil {
			replyError(w, http.StatusBadRequest, err.Error())
			return
		}
		j, err := a.q.Enqueue(r.Context(), watcher.Job{Kind: capture.JobHook, AgentSession: session, Payload: payload})
		if err != nil {
			replyError(w, http.StatusInternalServerError, err.Error())
			return
		}
		res.Jobs = append(res.Jobs, j.ID)
	}
	reply(w, http.StatusAccepted, res)
}

func (a *api) sessionInit(w http.ResponseWriter, r *http.Request) {
	var req client.SessionInit
	if !decode(w, r, &req) || !checkSession(w, req.SessionID) {
		return
	}
	base := transcript.Hook{SessionID: req.SessionID, CWD: req.CWD, TranscriptPath: req.TranscriptPath}
	start := base
	start.Event, start.Source, start.Model = model.HookSessionStart, req.Source, req.Model
	hooks := []transcript.Hook{start}
	if strings.TrimSpace(req.Prompt) != "" {
		p := base
		p.Event, p.Prompt = model.HookUserPromptSubmit, req.Prompt
		hooks = append(hooks, p)
	}
	a.enqueue(w, r, req.SessionID, hooks...)
}

func (a *api) observation(w http.ResponseWriter, r *http.Request) {
	var req client.Observation
	if !decode(w, r, &req) || !checkSession(w, req.SessionID) {
		return
	}
	if strings.TrimSpace(req.ToolName) == "" {
		replyError(w, http.StatusBadRequest, "tool_name is empty: say which tool ran")
		return
	}
	h := transcript.Hook{
		Event: model.HookPostToolUse, SessionID: req.SessionID, CWD: req.CWD, TranscriptPath: req.TranscriptPath,
		ToolName: req.ToolName, ToolInput: req.ToolInput, ToolResponse: req.ToolResponse,
		ToolUseID: req.ToolUseID, DurationMS: req.DurationMS,
	}
	if req.Error != "" || req.IsInterrupt {
		h.Event, h.ToolResponse, h.Error, h.IsInterrupt = model.HookPostToolUseFailure, nil, req.Error, req.IsInterrupt
	}
	a.enqueue(w, r, req.SessionID, h)
}

func (a *api) summarize(w http.ResponseWriter, r *http.Request) {
	var req client.SummarizeRequest
	if !decode(w, r, &req) || !checkSession(w, req.SessionID) {
		return
	}
	a.enqueue(w, r, req.SessionID, transcript.Hook{
		Event: model.HookStop, SessionID: req.SessionID, CWD: req.CWD, TranscriptPath: req.TranscriptPath,
		LastAssistantMessage: req.LastAssistantMessage,
	})
}

// catchUp captures now what is pending for the sessions before the one
// starting, beside the capture worker (never interleaved with it), and
// answers when done or when the budget ran out: a session start waits for
// it before it packs the context.
func (a *api) catchUp(w http.ResponseWriter, r *http.Request) {
	var req client.CatchUpRequest
	if !decode(w, r, &req) {
		return
	}
	if req.Except != "" && !checkSession(w, req.Except) {
		return
	}
	total := catchUpBudget
	if req.BudgetMS > 0 {
		total = min(total, time.Duration(req.BudgetMS)*time.Millisecond)
	}
	o := workOptions(total, req.Except)
	o.Do, o.Daemon = a.d.ops.do, true
	n, err := capture.WorkFor(r.Context(), a.d.Mem, o)
	if err != nil {
		replyError(w, http.StatusInternalServerError, err.Error())
		return
	}
	reply(w, http.StatusOK, client.CaughtUp{Done: n.Done, Failed: n.Failed, Ended: n.Ended, Left: n.Left, Pending: n.Pending, Waiting: n.Waiting, Swept: n.Swept})
}

func (a *api) sessionStatus(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	if !checkSession(w, id) {
		return
	}
	if a.qerr != nil {
		replyError(w, http.StatusInternalServerError, "queue: "+a.qerr.Error())
		return
	}
	st, err := Status(r.Context(), a.d.Mem, a.q, id)
	switch {
	case errors.Is(err, model.ErrNoSession):
		replyError(w, http.StatusNotFound, err.Error())
	case errors.Is(err, memory.ErrAmbiguous):
		replyError(w, http.StatusBadRequest, err.Error())
	case err != nil:
		replyError(w, http.StatusInternalServerError, err.Error())
	default:
		reply(w, http.StatusOK, st)
	}
}

// Status reports on session id (or a unique prefix of one; "" means the
// session that changed last) and the memory's queue. A session not seen
// yet whose jobs wait in the queue has status "queued"; one with neither
// is an error wrapping model.ErrNoSession.
func Status(ctx context.Context, m *memory.Memory, q *watcher.Queue, id string) (*client.SessionStatus, error) {
	qs, err := q.Status(ctx)
	if err != nil {
		return nil, err
	}
	var e *model.SessionEntry
	if id == "" {
		list, _, err := m.Sessions().List(ctx, memory.SessionFilter{})
		if err != nil {
			return nil, err
		}
		if len(list) == 0 {
			return nil, fmt.Errorf("no session captured yet: %w", model.ErrNoSession)
		}
		e = list[0]
	} else if e, err = m.Sessions().Get(ctx, id); err != nil && !errors.Is(err, model.ErrNoSession) {
		return nil, err
	}
	st := &client.SessionStatus{SessionID: id, Queue: qs, Status: "queued"}
	if e != nil {
		st.SessionID = e.ID
	}
	if st.SessionJobs, err = sessionJobs(ctx, q, st.SessionID); err != nil {
		return nil, err
	}
	if e == nil {
		if st.SessionJobs == (client.JobCounts{}) {
			return nil, fmt.Errorf("session %s: %w (and no job of it is queued)", id, model.ErrNoSession)
		}
		return st, nil
	}
	st.Known, st.Status, st.Dir = true, string(e.Status), e.Dir
	if e.Archived() {
		st.Status = string(model.StatusArchived)
	}
	st.Agent, st.Title, st.Prompts, st.Turns = e.Agent, e.Title, e.Prompts, e.Turns
	st.Summarized, st.Variables = e.Summarized.Turns, e.Variables
	st.Progress = client.Progress{Done: e.Progress.Done, Total: e.Progress.Total}
	if !e.Started.IsZero() {
		st.Started = &e.Started
	}
	if t := e.LastActivity; !t.IsZero() {
		st.LastActivity = &t
	}
	return st, nil
}

// sessionJobs counts the jobs of session id by state: jobs that name it
// as their agent session, or carry a hook payload of it.
func sessionJobs(ctx context.Context, q *watcher.Queue, id string) (client.JobCounts, error) {
	var c client.JobCounts
	for _, s := range []struct {
		state watcher.State
		n     *int
	}{{watcher.Pending, &c.Pending}, {watcher.Processing, &c.Processing}, {watcher.Failed, &c.Failed}} {
		jobs, err := q.List(ctx, s.state)
		if err != nil {
			return c, err
		}
		for _, j := range jobs {
			if jobSession(j) == id {
				*s.n++
			}
		}
	}
	return c, nil
}

func jobSession(j *watcher.Job) string {
	if j.AgentSession != "" || len(j.Payload) == 0 {
		return j.AgentSession
	}
	var p struct {
		SessionID string `json:"session_id"`
	}
	json.Unmarshal(j.Payload, &p)
	return p.SessionID
}

func (a *api) remember(w http.ResponseWriter, r *http.Request) {
	var req client.RememberRequest
	if !decode(w, r, &req) {
		return
	}
	it, err := NewRememberItem(req, time.Now())
	if err != nil {
		replyError(w, http.StatusBadRequest, err.Error())
		return
	}
	var cp *memory.Checkpoint
	a.d.ops.do(func() { cp, err = a.d.Mem.Remember(r.Context(), it) })
	switch {
	case errors.Is(err, memory.ErrLocked):
		replyError(w, http.StatusConflict, err.Error())
	case err != nil:
		replyError(w, http.StatusInternalServerError, err.Error())
	default:
		reply(w, http.StatusCreated, Remembered(it, cp))
	}
}

// Remembered is the answer to a remember request: the item made and the
// commit that holds it (the HTTP API and the MCP tool give the same).
func Remembered(it *model.Item, cp *memory.Checkpoint) client.Remembered {
	res := client.Remembered{ID: it.ID, Path: it.Path(), Kind: string(it.Kind), Title: it.Title}
	if cp != nil {
		res.Commit = cp.Hash
	}
	return res
}

// NewRememberItem checks a remember request and makes its item, with
// secrets redacted as capture redacts them: an agent may paste anything,
// and memory is pushed. The title defaults to the text's first line.
func NewRememberItem(req client.RememberRequest, now time.Time) (*model.Item, error) {
	kind := model.Note
	if req.Kind != "" {
		k, err := model.ParseKind(req.Kind)
		if err != nil {
			return nil, err
		}
		kind = k
	}
	// Memory.Remember redacts secrets.
	text := strings.TrimSpace(req.Text)
	title := strings.TrimSpace(req.Title)
	if text == "" && title == "" {
		return nil, errors.New("text is empty: nothing to remember")
	}
	body := text
	if title == "" {
		title, body = model.SplitTitle(text)
	}
	if req.Session != "" {
		if err := transcript.ValidateSessionID(req.Session); err != nil {
			return nil, fmt.Errorf("session: %w", err)
		}
	}
	it := model.NewItem(kind, title, now)
	it.Body = body
	if req.Importance != nil {
		it.Importance = *req.Importance
	}
	it.Tags, it.Pinned, it.Session = req.Tags, req.Pin, req.Session
	if err := it.Validate(); err != nil {
		return nil, err
	}
	return it, nil
}
