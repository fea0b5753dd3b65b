package web

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/cairn-mem/cairn/internal/doctor"
	"github.com/cairn-mem/cairn/internal/memory"
	"github.com/cairn-mem/cairn/internal/memory/catalog"
	"github.com/cairn-mem/cairn/internal/metrics"
	"github.com/cairn-mem/cairn/internal/model"
	"github.com/cairn-mem/cairn/internal/recall"
	"github.com/cairn-mem/cairn/watcher"
)

// PerPage is how many rows a list page shows.
const PerPage = 50

// pager is a list's place.
type pager struct {
	Page, Pages, Total int
	Prev, Next         string // URLs, "" at the ends
}

// paginate cuts n rows into pages and returns the range of the asked one.
func paginate(r *http.Request, n int) (lo, hi int, p pager, err error) {
	p.Page, p.Total = 1, n
	if s := r.URL.Query().Get("page"); s != "" {
		if p.Page, err = strconv.Atoi(s); err != nil || p.Page < 1 || p.Page > 1e6 {
			return 0, 0, p, badRequest("page %q: want a number from 1", trim(s, 40))
		}
	}
	p.Pages = max(1, (n+PerPage-1)/PerPage)
	if p.Page > p.Pages {
		return 0, 0, p, notFound("page %d of %d", p.Page, p.Pages)
	}
	at := func(n int) string {
		q := r.URL.Query()
		q.Set("page", strconv.Itoa(n))
		return r.URL.Path + "?" + q.Encode()
	}
	if p.Page > 1 {
		p.Prev = at(p.Page - 1)
	}
	if p.Page < p.Pages {
		p.Next = at(p.Page + 1)
	}
	lo = (p.Page - 1) * PerPage
	return lo, min(n, lo+PerPage), p, nil
}

// rows returns the catalogue's rows of type t under roots.
func (v *Viewer) rows(ctx context.Context, t catalog.Type, roots ...string) ([]*catalog.Row, error) {
	all, err := v.mem.Catalog(ctx, roots...)
	if err != nil {
		return nil, err
	}
	var out []*catalog.Row
	for _, r := range all {
		if r.Type == t {
			out = append(out, r)
		}
	}
	return out, nil
}

var sessionRoots = []string{"sessions", "archive"}

type overviewData struct {
	Items, Sessions, Active int
	Kinds                   []kindCount
	Queue                   watcher.Status
	QueueErr                string
	PID                     int
	Checkpoints             []memory.LogEntry
	Report                  *doctor.Report
	Checked                 time.Time
	Fails                   int
}

type kindCount struct {
	Kind string
	N    int
}

func (v *Viewer) overview(r *http.Request) (*page, error) {
	ctx := r.Context()
	d := overviewData{PID: os.Getpid()}
	items, err := v.rows(ctx, catalog.Item)
	if err != nil {
		return nil, err
	}
	d.Items = len(items)
	counts := map[string]int{}
	for _, it := range items {
		counts[it.Kind]++
	}
	for k, n := range counts {
		d.Kinds = append(d.Kinds, kindCount{k, n})
	}
	slices.SortFunc(d.Kinds, func(a, b kindCount) int { return cmp.Compare(a.Kind, b.Kind) })
	ss, err := v.rows(ctx, catalog.Session, sessionRoots...)
	if err != nil {
		return nil, err
	}
	d.Sessions = len(ss)
	for _, s := range ss {
		if s.Status == string(model.StatusActive) {
			d.Active++
		}
	}
	if v.qerr != nil {
		d.QueueErr = v.qerr.Error()
	} else if d.Queue, err = v.queue.Status(ctx); err != nil {
		d.QueueErr = err.Error()
	}
	if d.Checkpoints, err = v.mem.History().Log(ctx, memory.LogOptions{N: 8}); err != nil {
		return nil, err
	}
	d.Report, d.Checked = v.alerts()
	if d.Report != nil {
		d.Fails = d.Report.Fails()
	}
	return &page{Name: "overview", Title: "Overview", Nav: "overview", Data: d}, nil
}

type timelineData struct {
	Entries []memory.LogEntry
	Tags    []memory.Tag
	Pager   pager
	From    string
	To      string
}

// maxLog bounds the checkpoints the timeline pages through.
const maxLog = 5000

func (v *Viewer) timeline(r *http.Request) (*page, error) {
	ctx := r.Context()
	n := PerPage
	if s := r.URL.Query().Get("page"); s != "" {
		p, err := strconv.Atoi(s)
		if err != nil || p < 1 || p > maxLog/PerPage {
			return nil, badRequest("page %q: want a number from 1 to %d", trim(s, 40), maxLog/PerPage)
		}
		n = p * PerPage
	}
	// One more than the page, to know whether there is a next one.
	log, err := v.mem.History().Log(ctx, memory.LogOptions{N: n + 1})
	if err != nil {
		return nil, err
	}
	lo, hi, pg, err := paginate(r, len(log))
	if err != nil {
		return nil, err
	}
	d := timelineData{Entries: log[lo:hi], Pager: pg}
	if len(log) > n {
		d.Pager.Pages, d.Pager.Total = pg.Page+1, 0 // more than we read
	}
	if d.Tags, err = v.mem.History().Tags(ctx); err != nil {
		return nil, err
	}
	if len(d.Entries) > 1 {
		d.From, d.To = d.Entries[1].Commit, d.Entries[0].Commit
	}
	return &page{Name: "timeline", Title: "Timeline", Nav: "timeline", Data: d}, nil
}

type sessionRow struct {
	ID, Title, Status, Path string
	Activity                time.Time
}

type sessionListData struct {
	Rows   []sessionRow
	Pager  pager
	Status string
}

func (v *Viewer) sessionList(r *http.Request) (*page, error) {
	status, err := clean("status", r.URL.Query().Get("status"), 20)
	if err != nil {
		return nil, err
	}
	ss, err := v.rows(r.Context(), catalog.Session, sessionRoots...)
	if err != nil {
		return nil, err
	}
	var rows []sessionRow
	for _, s := range ss {
		if status != "" && s.Status != status {
			continue
		}
		id := s.Path[:strings.LastIndexByte(s.Path, '/')]
		id = id[strings.LastIndexByte(id, '/')+1:]
		rows = append(rows, sessionRow{ID: id, Title: s.Title, Status: s.Status, Path: s.Path, Activity: s.Activity})
	}
	slices.SortStableFunc(rows, func(a, b sessionRow) int { return b.Activity.Compare(a.Activity) })
	lo, hi, pg, err := paginate(r, len(rows))
	if err != nil {
		return nil, err
	}
	return &page{Name: "sessions", Title: "Sessions", Nav: "sessions",
		Data: sessionListData{Rows: rows[lo:hi], Pager: pg, Status: status}}, nil
}

type sessionData struct {
	S     *model.SessionEntry
	Parts []sessionPart
}

type sessionPart struct {
	Name, Text string
	Size       int64
	Cut        bool
}

// maxPart bounds the bytes of a session file a page shows.
const maxPart = 256 << 10

func (v *Viewer) sessionPage(r *http.Request) (*page, error) {
	id := r.PathValue("id")
	if memory.CheckSessionID(id) != nil {
		return nil, notFound("no session %q", trim(id, 80))
	}
	s, err := v.mem.Sessions().Find(id)
	if err != nil {
		return nil, notFound("no session %q", id)
	}
	d := sessionData{S: s}
	for _, name := range []string{model.SummaryFile, model.PromptsFile, model.ObservationsFile, model.TranscriptFile} {
		if !v.mem.StatOK(s.File(name)) {
			continue
		}
		data, size, err := v.mem.ReadFileHead(s.File(name), maxPart)
		if err != nil {
			return nil, err
		}
		d.Parts = append(d.Parts, sessionPart{Name: name, Text: string(data), Size: size, Cut: size > int64(len(data))})
	}
	return &page{Name: "session", Title: "Session " + memory.ShortSession(id), Nav: "sessions", Data: d}, nil
}

type memoryData struct {
	Rows  []*catalog.Row
	Pager pager
	Kind  string
	Tag   string
	Kinds []kindCount
	Tags  []kindCount
}

func (v *Viewer) memoryList(r *http.Request) (*page, error) {
	q := r.URL.Query()
	kind, err := clean("kind", q.Get("kind"), 40)
	if err != nil {
		return nil, err
	}
	tag, err := clean("tag", q.Get("tag"), 200)
	if err != nil {
		return nil, err
	}
	items, err := v.rows(r.Context(), catalog.Item)
	if err != nil {
		return nil, err
	}
	kinds, tags := map[string]int{}, map[string]int{}
	var rows []*catalog.Row
	for _, it := range items {
		kinds[it.Kind]++
		if kind != "" && it.Kind != kind {
			continue
		}
		for _, t := range it.Tags {
			tags[t]++
		}
		if tag != "" && !slices.Contains(it.Tags, tag) {
			continue
		}
		rows = append(rows, it)
	}
	slices.SortStableFunc(rows, func(a, b *catalog.Row) int {
		if a.Pinned != b.Pinned {
			if a.Pinned {
				return -1
			}
			return 1
		}
		return b.Updated.Compare(a.Updated)
	})
	lo, hi, pg, err := paginate(r, len(rows))
	if err != nil {
		return nil, err
	}
	return &page{Name: "memory", Title: "Memory", Nav: "memory", Data: memoryData{
		Rows: rows[lo:hi], Pager: pg, Kind: kind, Tag: tag, Kinds: top(kinds, 0), Tags: top(tags, 40),
	}}, nil
}

// top returns the counts, largest first, at most n (0: all).
func top(m map[string]int, n int) []kindCount {
	out := make([]kindCount, 0, len(m))
	for k, c := range m {
		out = append(out, kindCount{k, c})
	}
	slices.SortFunc(out, func(a, b kindCount) int {
		return cmp.Or(cmp.Compare(b.N, a.N), cmp.Compare(a.Kind, b.Kind))
	})
	if n > 0 && len(out) > n {
		out = out[:n]
	}
	return out
}

type itemData struct {
	E          *model.Entry
	Versions   []version
	Walked     int
	Supersedes *catalog.Row
	Replaced   []*catalog.Row
}

// version is an item's file as one checkpoint left it.
type version struct {
	Commit, Subject string
	Time            time.Time
	Diff            []diffLine
}

// maxHistory bounds the checkpoints an item's page looks through.
const maxHistory = 200

func (v *Viewer) item(r *http.Request) (*model.Entry, error) {
	id := r.PathValue("id")
	if len(id) > 200 || strings.ContainsAny(id, "/\\\x00") || strings.Contains(id, "..") {
		return nil, notFound("no item %q", trim(id, 80))
	}
	e, err := v.mem.Get(r.Context(), id)
	if err != nil {
		return nil, notFound("no item %q: %v", id, err)
	}
	return e, nil
}

// itemPage shows an item by its id. It finds the item in the catalogue
// rather than with memory.Get, which walks the item folders for the id:
// the page needs the catalogue anyway, for what superseded what.
func (v *Viewer) itemPage(r *http.Request) (*page, error) {
	ctx := r.Context()
	id := r.PathValue("id")
	items, err := v.rows(ctx, catalog.Item)
	if err != nil {
		return nil, err
	}
	var row *catalog.Row
	for _, it := range items {
		if it.ID == id {
			row = it
		}
	}
	if row == nil {
		return nil, notFound("no item %q", trim(id, 80))
	}
	data, err := v.mem.ReadFile(row.Path)
	if err != nil {
		return nil, err
	}
	it, err := model.Parse(row.Path, data)
	if err != nil {
		return nil, err
	}
	e := &model.Entry{Item: it, Path: row.Path, Layer: model.LayerOf(row.Path)}
	d := itemData{E: e}
	sup := row.Supersedes
	for _, it := range items {
		if it.Supersedes != "" && it.Supersedes == e.Item.ID {
			d.Replaced = append(d.Replaced, it)
		}
	}
	if sup != "" {
		for _, it := range items {
			if it.ID == sup {
				d.Supersedes = it
			}
		}
		if d.Supersedes == nil {
			d.Supersedes = &catalog.Row{ID: sup, Title: "(no longer in the memory)"}
		}
	}
	if d.Versions, d.Walked, err = v.history(ctx, e.Path); err != nil {
		return nil, err
	}
	return &page{Name: "item", Title: e.Item.Title, Nav: "memory", Data: d}, nil
}

// history returns the checkpoints that changed the file at p, newest
// first, each with its diff against the version before, looking through
// the last maxHistory checkpoints. An item whose title changed moved
// its file; its versions under the older name are not followed.
func (v *Viewer) history(ctx context.Context, p string) ([]version, int, error) {
	h := v.mem.History()
	log, err := h.Log(ctx, memory.LogOptions{N: maxHistory})
	if err != nil {
		return nil, 0, err
	}
	var out []version
	var newer []byte
	var newerAt *memory.LogEntry
	for i := range log {
		data, err := h.ReadFileAt(ctx, log[i].Commit, p)
		gone := err != nil
		if gone {
			data = nil
		}
		if newerAt != nil && (gone || string(data) != string(newer)) {
			out = append(out, version{Commit: newerAt.Commit, Subject: newerAt.Subject, Time: newerAt.Time,
				Diff: lineDiff(string(data), string(newer))})
		}
		if gone {
			return out, i + 1, nil
		}
		newer, newerAt = data, &log[i]
	}
	if newerAt != nil && len(log) < maxHistory {
		out = append(out, version{Commit: newerAt.Commit, Subject: newerAt.Subject, Time: newerAt.Time,
			Diff: lineDiff("", string(newer))})
	}
	return out, len(log), nil
}

type searchData struct {
	Q       url.Values
	Query   string
	Hits    []recall.SearchHit
	Warn    []string
	Err     string
	Kinds   []model.Kind
	Modes   []string
	Elapsed time.Duration
}

// search asks the daemon's search API, with the CLI's filters as its
// query parameters (server.SearchParams checks them).
func (v *Viewer) search(r *http.Request) (*page, error) {
	q := r.URL.Query()
	d := searchData{Q: q, Query: q.Get("q"), Kinds: model.Kinds(), Modes: []string{"hybrid", "keyword", "vector"}}
	p := &page{Name: "search", Title: "Search", Nav: "search", Data: &d}
	if strings.TrimSpace(d.Query) == "" {
		return p, nil
	}
	if _, err := clean("q", d.Query, maxQuery); err != nil {
		d.Err = err.Error()
		return p, nil
	}
	api := url.Values{}
	for k, vs := range q {
		for _, s := range vs {
			if s != "" {
				api[k] = append(api[k], s)
			}
		}
	}
	start := time.Now()
	var res struct {
		Hits     []recall.SearchHit `json:"hits"`
		Warnings []string           `json:"warnings"`
	}
	if err := v.callAPI(r.Context(), "/api/search", api, &res); err != nil {
		var he *httpError
		if errors.As(err, &he) && he.code < 500 {
			d.Err = he.msg // a bad filter: said on the page, with the form
			return p, nil
		}
		return nil, err
	}
	d.Hits, d.Warn, d.Elapsed = res.Hits, res.Warnings, time.Since(start)
	return p, nil
}

// callAPI calls the daemon's API in process and decodes its answer.
func (v *Viewer) callAPI(ctx context.Context, path string, q url.Values, out any) error {
	if v.api == nil {
		return errors.New("the viewer is not mounted on a daemon")
	}
	req := httptest.NewRequestWithContext(ctx, http.MethodGet, path+"?"+q.Encode(), nil)
	rec := httptest.NewRecorder()
	v.api.ServeHTTP(rec, req)
	if rec.Code != http.StatusOK {
		var e struct{ Error string }
		json.Unmarshal(rec.Body.Bytes(), &e)
		return &httpError{rec.Code, cmp.Or(e.Error, rec.Body.String())}
	}
	if err := json.Unmarshal(rec.Body.Bytes(), out); err != nil {
		return fmt.Errorf("web: answer of %s: %w", path, err)
	}
	return nil
}

type contextData struct {
	Q    url.Values
	Pack recall.Pack
	Warn []string
	Err  string
	Pct  int
}

// nextContext shows the pack a session start gets: the daemon's
// /api/context with no query (a new session), or with the session a
// resumed one continues.
func (v *Viewer) nextContext(r *http.Request) (*page, error) {
	q := r.URL.Query()
	d := contextData{Q: q}
	api := url.Values{}
	for _, k := range []string{"q", "session", "budget_tokens"} {
		if s := q.Get(k); s != "" {
			api.Set(k, s)
		}
	}
	p := &page{Name: "context", Title: "Next context", Nav: "context", Data: &d}
	res, err := v.packs.get(v, r.Context(), api)
	if err != nil {
		var he *httpError
		if errors.As(err, &he) && he.code < 500 {
			d.Err = he.msg
			return p, nil
		}
		return nil, err
	}
	d.Pack, d.Warn = res.Pack, res.Warnings
	if d.Pack.BudgetTokens > 0 {
		d.Pct = min(100, 100*d.Pack.UsedTokens/d.Pack.BudgetTokens)
	}
	return p, nil
}

// packed is the daemon's answer to /api/context.
type packed struct {
	recall.Pack
	Warnings []string `json:"warnings"`
}

// packCache keeps the packs the context page showed: packing reads the
// whole memory (hundreds of milliseconds on 10,000 files), and a pack
// changes only with HEAD and, a little, with the clock (recency). It
// keeps the pack of each set of parameters (at most maxPacks), so that a
// page asking for another budget does not push out the one Serve keeps
// ready.
type packCache struct {
	mu    sync.Mutex
	packs map[string]*packEntry // by the parameters
}

type packEntry struct {
	head string
	at   time.Time
	pack *packed
}

const maxPacks = 8

// packTTL is how long a pack stands while HEAD does not move: the clock
// changes it only through the recency of what it ranks, a little in
// minutes.
const packTTL = 10 * time.Minute

// packEvery is how often Serve looks whether HEAD moved under it (a
// checkpoint of another process) while a browser uses the viewer.
const packEvery = 5 * time.Second

// liveFor is how long after its last page a browser counts as using the
// viewer: Serve packs ahead only then.
const liveFor = packTTL

// Serve packs the next context ahead of the page while a browser uses the
// viewer (a page served within liveFor): as soon as it logs in or comes
// back, then whenever HEAD moves, so that the context page's first paint
// does not wait for a pack (hundreds of milliseconds at 10,000 files).
// With nobody on the viewer it packs nothing: a checkpoint does not pay
// for a page no one looks at. The daemon runs it as one of its parts,
// which stop before it closes the search index.
func (v *Viewer) Serve(ctx context.Context) error {
	if v.api == nil {
		return errors.New("web: Serve before Mount")
	}
	checks := make(chan struct{})
	go func() { v.checks.serve(ctx); close(checks) }()
	defer func() { <-checks }() // doctor's runs the overview started end first
	t := time.NewTicker(packEvery)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-t.C:
		case <-v.wake:
		}
		if !v.live() {
			continue
		}
		// An index never built is left to the first search or session
		// start, as the daemon leaves it: building it here would cost
		// a viewer's first page on a memory nobody searched.
		if _, err := os.Stat(v.mem.StatePath(filepath.Join("index", "meta.json"))); err == nil {
			if _, err := v.packs.get(v, ctx, url.Values{}); err != nil && ctx.Err() == nil {
				v.log.Warn("ui: pack the next context", "err", err)
			}
		}
	}
}

// seen notes that a logged-in browser asked for a page, and wakes Serve
// when it came after liveFor without one (a login, a return).
func (v *Viewer) seen() {
	now := v.now().UnixNano()
	if prev := v.lastSeen.Swap(now); time.Duration(now-prev) >= liveFor {
		select {
		case v.wake <- struct{}{}:
		default:
		}
	}
}

// live says whether a browser asked for a page within liveFor.
func (v *Viewer) live() bool {
	return time.Duration(v.now().UnixNano()-v.lastSeen.Load()) < liveFor
}

// ready returns the pack of a new session's start, or nil.
func (c *packCache) ready() *packed {
	c.mu.Lock()
	defer c.mu.Unlock()
	if e := c.packs[""]; e != nil {
		return e.pack
	}
	return nil
}

func (c *packCache) get(v *Viewer, ctx context.Context, q url.Values) (*packed, error) {
	head, err := v.mem.History().Resolve("HEAD")
	if err != nil {
		head = "" // a memory without checkpoints: nothing to keep
	}
	key := q.Encode()
	c.mu.Lock()
	defer c.mu.Unlock() // one pack at a time: a second reader waits for the first's
	if e := c.packs[key]; e != nil && head != "" && e.head == head && v.now().Sub(e.at) < packTTL-packEvery {
		return e.pack, nil
	}
	var p packed
	if err := v.callAPI(ctx, "/api/context", q, &p); err != nil {
		return nil, err
	}
	if c.packs == nil {
		c.packs = map[string]*packEntry{}
	}
	if len(c.packs) >= maxPacks {
		for k := range c.packs {
			if k != "" {
				delete(c.packs, k) // any but the one Serve keeps
				break
			}
		}
	}
	c.packs[key] = &packEntry{head: head, at: v.now(), pack: &p}
	return &p, nil
}

type queueData struct {
	States []queueState
	Status watcher.Status
}

type queueState struct {
	State watcher.State
	Jobs  []*watcher.Job
	More  int
}

// maxJobs bounds the jobs of each state the queue page lists.
const maxJobs = 200

func (v *Viewer) queuePage(r *http.Request) (*page, error) {
	if v.qerr != nil {
		return nil, v.qerr
	}
	ctx := r.Context()
	var d queueData
	var err error
	if d.Status, err = v.queue.Status(ctx); err != nil {
		return nil, err
	}
	for _, s := range []watcher.State{watcher.Failed, watcher.Processing, watcher.Pending} {
		jobs, err := v.queue.List(ctx, s)
		if err != nil {
			return nil, err
		}
		qs := queueState{State: s, Jobs: jobs}
		if len(jobs) > maxJobs {
			qs.Jobs, qs.More = jobs[:maxJobs], len(jobs)-maxJobs
		}
		d.States = append(d.States, qs)
	}
	return &page{Name: "queue", Title: "Queue", Nav: "queue", Data: d}, nil
}

// metricsData is the Metrics page: the plots of the last Days days of
// the metrics log, and its totals.
type metricsData struct {
	Days  int
	Plots []metrics.Plot
	Stats metrics.Stats
}

func (v *Viewer) metrics(r *http.Request) (*page, error) {
	days := 30
	if d, err := strconv.Atoi(r.URL.Query().Get("days")); err == nil && d > 0 && d <= 366 {
		days = d
	}
	now := v.now()
	since := now.AddDate(0, 0, -days)
	evs, err := metrics.Read(r.Context(), filepath.Join(v.mem.Dir, memory.StateDir), since)
	if err != nil {
		return nil, err
	}
	d := metricsData{Days: days, Stats: metrics.Summarize(evs, since, now)}
	if len(evs) > 0 {
		d.Plots = metrics.Plots(evs, time.Local)
	}
	return &page{Name: "metrics", Title: "Metrics", Nav: "metrics", Data: d}, nil
}
