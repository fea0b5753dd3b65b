package web

import (
	"bytes"
	"context"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"html/template"
	"io/fs"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/cairn-mem/cairn/internal/capture"
	"github.com/cairn-mem/cairn/internal/client"
	"github.com/cairn-mem/cairn/internal/doctor"
	"github.com/cairn-mem/cairn/internal/memory"
	"github.com/cairn-mem/cairn/watcher"
)

//go:embed assets
var assets embed.FS

// LoginPath is the API route `cairn ui` calls, with the bearer token, for
// a login code (client.UILogin).
const LoginPath = "/api/ui/login-code"

// Options say what the viewer shows and how it reaches the daemon.
type Options struct {
	Mem *memory.Memory
	// Doctor is what the overview checks; nil leaves the alerts out.
	Doctor *doctor.Options
	// Log gets the errors pages answer with 500.
	Log *slog.Logger
	// Now is the clock; nil means time.Now.
	Now func() time.Time
}

// Viewer serves the pages. Make one with New; Mount hands it to the
// daemon.
type Viewer struct {
	mem    *memory.Memory
	log    *slog.Logger
	now    func() time.Time
	auth   *sessions
	tmpl   *template.Template
	static http.Handler
	queue  *watcher.Queue
	qerr   error
	doctor *doctor.Options

	// Set by Mount.
	api http.Handler
	do  func(func())

	checks checkCache
	packs  packCache
	// lastSeen is when a logged-in browser last asked for a page (unix
	// nanoseconds); wake tells Serve that one came back.
	lastSeen atomic.Int64
	wake     chan struct{}
}

// New makes a viewer of opts.Mem.
func New(opts Options) (*Viewer, error) {
	v := &Viewer{mem: opts.Mem, log: opts.Log, now: opts.Now, doctor: opts.Doctor, wake: make(chan struct{}, 1)}
	if v.now == nil {
		v.now = time.Now
	}
	if v.log == nil {
		v.log = slog.New(slog.DiscardHandler)
	}
	v.auth = newSessions(v.now)
	t, err := template.New("").Funcs(funcs).ParseFS(assets, "assets/*.html")
	if err != nil {
		return nil, fmt.Errorf("web: templates: %w", err)
	}
	v.tmpl = t
	static, err := fs.Sub(assets, "assets/static")
	if err != nil {
		return nil, fmt.Errorf("web: static files: %w", err)
	}
	v.static = http.StripPrefix("/ui/static/", http.FileServerFS(static))
	v.queue, v.qerr = capture.Queue(opts.Mem, watcher.QueueOptions{})
	return v, nil
}

// Mount is the daemon's hook (server.Daemon.UI): it adds LoginPath to
// the API's mux, behind the bearer token, and returns the handler of
// /ui/. api answers the viewer's searches (the daemon holds the index);
// do runs a memory write under the daemon's lock of its operations.
func (v *Viewer) Mount(api *http.ServeMux, do func(func())) http.Handler {
	v.api, v.do = api, do
	api.HandleFunc("POST "+LoginPath, v.loginCode)
	mux := http.NewServeMux()
	mux.HandleFunc("GET /ui/login", v.login)
	mux.Handle("GET /ui/static/", v.static)
	for path, page := range map[string]func(*http.Request) (*page, error){
		"GET /ui/{$}":           v.overview,
		"GET /ui/timeline":      v.timeline,
		"GET /ui/diff":          v.diff,
		"GET /ui/sessions":      v.sessionList,
		"GET /ui/sessions/{id}": v.sessionPage,
		"GET /ui/memory":        v.memoryList,
		"GET /ui/memory/{id}":   v.itemPage,
		"GET /ui/search":        v.search,
		"GET /ui/context":       v.nextContext,
		"GET /ui/queue":         v.queuePage,
		"GET /ui/metrics":       v.metrics,
	} {
		mux.Handle(path, v.read(page))
	}
	for path, act := range map[string]func(*http.Request) (string, error){
		"POST /ui/queue/retry":        v.retry,
		"POST /ui/queue/drop":         v.drop,
		"POST /ui/memory/{id}/pin":    v.pin,
		"POST /ui/memory/{id}/forget": v.forget,
		"POST /ui/memory/{id}/edit":   v.edit,
	} {
		mux.Handle(path, v.write(act))
	}
	mux.HandleFunc("/ui/", func(w http.ResponseWriter, r *http.Request) {
		v.fail(w, r, http.StatusNotFound, "no such page")
	})
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		setSecurityHeaders(w.Header())
		if r.URL.Path == "/ui" {
			http.Redirect(w, r, "/ui/", http.StatusFound)
			return
		}
		mux.ServeHTTP(w, r)
	})
}

var errTooMany = errors.New("too many login codes not yet used; wait a minute")

// loginCode answers LoginPath: a new one-time code.
func (v *Viewer) loginCode(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	c, err := v.auth.newCode()
	if err != nil {
		w.WriteHeader(http.StatusServiceUnavailable)
		json.NewEncoder(w).Encode(map[string]string{"error": err.Error()})
		return
	}
	json.NewEncoder(w).Encode(client.UILogin{Code: c, Path: "/ui/login?code=" + c})
}

// login trades a code for a session cookie and sends the browser on to a
// URL without the code, so that history does not keep it.
func (v *Viewer) login(w http.ResponseWriter, r *http.Request) {
	sec, err := v.auth.login(r.URL.Query().Get("code"))
	if err != nil {
		v.fail(w, r, http.StatusInternalServerError, err.Error())
		return
	}
	if sec == "" {
		v.fail(w, r, http.StatusUnauthorized, "this login code is unknown, used or expired: run cairn ui again")
		return
	}
	v.seen()
	http.SetCookie(w, &http.Cookie{
		Name: cookieName, Value: sec, Path: "/ui", MaxAge: int(SessionTTL / time.Second),
		HttpOnly: true, SameSite: http.SameSiteStrictMode,
	})
	http.Redirect(w, r, "/ui/", http.StatusSeeOther)
}

// page is what a read handler found: a template and its data.
type page struct {
	Name  string // template
	Title string
	Nav   string // the nav entry to mark
	Data  any

	// Set by read.
	CSRF string
}

// httpError is an error with the status it answers.
type httpError struct {
	code int
	msg  string
}

func (e *httpError) Error() string { return e.msg }

func notFound(format string, args ...any) error {
	return &httpError{http.StatusNotFound, fmt.Sprintf(format, args...)}
}

func badRequest(format string, args ...any) error {
	return &httpError{http.StatusBadRequest, fmt.Sprintf(format, args...)}
}

// maxQuery bounds a page's query string.
const maxQuery = 8 << 10

// read serves a page to a logged-in browser.
func (v *Viewer) read(f func(*http.Request) (*page, error)) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		se := v.auth.get(r)
		if se == nil {
			v.fail(w, r, http.StatusUnauthorized, "not logged in: run cairn ui for a login link")
			return
		}
		if len(r.URL.RawQuery) > maxQuery {
			v.fail(w, r, http.StatusRequestURITooLong, "query string too long")
			return
		}
		v.seen()
		p, err := f(r)
		if err != nil {
			v.failErr(w, r, err)
			return
		}
		p.CSRF = se.csrf
		v.render(w, r, http.StatusOK, p)
	})
}

// write serves a form's POST: logged in, same origin, with the CSRF
// token. The action returns where to go next.
func (v *Viewer) write(f func(*http.Request) (string, error)) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		se := v.auth.get(r)
		if se == nil {
			v.fail(w, r, http.StatusUnauthorized, "not logged in: run cairn ui for a login link")
			return
		}
		if !sameOrigin(r) {
			v.fail(w, r, http.StatusForbidden, "cross-site request refused")
			return
		}
		r.Body = http.MaxBytesReader(w, r.Body, 1<<20)
		if err := r.ParseForm(); err != nil {
			v.fail(w, r, http.StatusBadRequest, "bad form: "+err.Error())
			return
		}
		if !checkCSRF(r, se) {
			v.fail(w, r, http.StatusForbidden, "missing or wrong CSRF token: reload the page")
			return
		}
		next, err := f(r)
		if err != nil {
			v.failErr(w, r, err)
			return
		}
		http.Redirect(w, r, next, http.StatusSeeOther)
	})
}

func (v *Viewer) failErr(w http.ResponseWriter, r *http.Request, err error) {
	var he *httpError
	switch {
	case errors.As(err, &he):
		v.fail(w, r, he.code, he.msg)
	case errors.Is(err, memory.ErrLocked):
		v.fail(w, r, http.StatusConflict, err.Error())
	case errors.Is(err, fs.ErrNotExist):
		v.fail(w, r, http.StatusNotFound, err.Error())
	default:
		v.log.Error("ui", "path", r.URL.Path, "err", err)
		v.fail(w, r, http.StatusInternalServerError, err.Error())
	}
}

// fail answers an error page.
func (v *Viewer) fail(w http.ResponseWriter, r *http.Request, code int, msg string) {
	v.render(w, r, code, &page{Name: "error", Title: http.StatusText(code), Data: errorData{code, msg}})
}

type errorData struct {
	Code int
	Msg  string
}

// render executes p into a buffer first, so that a template error is a
// 500 and not half a page.
func (v *Viewer) render(w http.ResponseWriter, r *http.Request, code int, p *page) {
	var b bytes.Buffer
	if err := v.tmpl.ExecuteTemplate(&b, p.Name, p); err != nil {
		v.log.Error("ui: template", "page", p.Name, "err", err)
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		w.WriteHeader(http.StatusInternalServerError)
		fmt.Fprintln(w, "template error:", err)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(code)
	w.Write(b.Bytes())
}

// checkCache keeps doctor's last report: its checks reach remotes and
// the index, too slow for every overview.
type checkCache struct {
	mu      sync.Mutex
	report  *doctor.Report
	at      time.Time
	running bool
	// life is Serve's context, which runs end with; stopped is set when
	// Serve returns, after which none starts. runs counts those going.
	life    context.Context
	stopped bool
	runs    sync.WaitGroup
}

// serve ties the runs to ctx: it returns when ctx is done and the runs
// started have ended, so that none reads the memory after the daemon
// closed it.
func (c *checkCache) serve(ctx context.Context) {
	c.mu.Lock()
	c.life = ctx
	c.mu.Unlock()
	<-ctx.Done()
	c.mu.Lock()
	c.stopped = true
	c.mu.Unlock()
	c.runs.Wait()
}

// checkTTL is how long a doctor's report stands; checkDelay is how long
// a run waits before it starts.
const (
	checkTTL   = time.Minute
	checkDelay = time.Second
)

// alerts returns the last report (nil before the first ends) and starts
// a new run when it is older than checkTTL.
func (v *Viewer) alerts() (*doctor.Report, time.Time) {
	if v.doctor == nil {
		return nil, time.Time{}
	}
	c := &v.checks
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.running && !c.stopped && (c.report == nil || v.now().Sub(c.at) > checkTTL) {
		c.running = true
		c.runs.Add(1)
		life := c.life
		if life == nil {
			life = context.Background() // a viewer not run by a daemon (tests)
		}
		go func() {
			defer c.runs.Done()
			// A moment after the page that asked: the checks read the
			// memory too, and should not slow that page's paint.
			select {
			case <-time.After(checkDelay):
			case <-life.Done():
				c.mu.Lock()
				c.running = false
				c.mu.Unlock()
				return
			}
			ctx, cancel := context.WithTimeout(life, 30*time.Second)
			defer cancel()
			r := doctor.Run(ctx, *v.doctor)
			c.mu.Lock()
			c.report, c.at, c.running = r, v.now(), false
			c.mu.Unlock()
		}()
	}
	return c.report, c.at
}

// trim cuts s to n bytes at a rune boundary, marking the cut.
func trim(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}

func utf8RuneStart(b byte) bool { return b&0xC0 != 0x80 }

// clean refuses a parameter with control characters (NUL, newlines) or
// over max bytes; an empty one is fine.
func clean(name, s string, max int) (string, error) {
	if len(s) > max {
		return "", badRequest("%s is longer than %d bytes", name, max)
	}
	if strings.ContainsFunc(s, func(r rune) bool { return r < 0x20 || r == 0x7f }) {
		return "", badRequest("%s holds control characters", name)
	}
	return s, nil
}
