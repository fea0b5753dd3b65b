package mcpserve

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/cairn-mem/cairn/indexer"
	"github.com/cairn-mem/cairn/internal/capture"
	"github.com/cairn-mem/cairn/internal/client"
	"github.com/cairn-mem/cairn/internal/memory"
	"github.com/cairn-mem/cairn/internal/metrics"
	"github.com/cairn-mem/cairn/internal/model"
	"github.com/cairn-mem/cairn/internal/outdate"
	"github.com/cairn-mem/cairn/internal/recall"
	"github.com/cairn-mem/cairn/internal/server"
	"github.com/cairn-mem/cairn/watcher"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// MaxToolTokens is the most the tools/list answer may cost an agent's
// context, by indexer.EstimateTokens: it is paid in every session.
const MaxToolTokens = 1500

// Limits on what one tool call returns.
const (
	maxGetIDs     = 20
	maxGetChars   = 8000 // of one file that is not an item
	maxTimeline   = 50
	defaultWindow = 8
)

// MCP serves a memory's tools over the Model Context Protocol: search,
// get, timeline, remember, checkpoint, context and session_status. The
// answers are compact text for a model to read.
//
// Search and context go to the daemon when one answers, so that no two
// processes fight over the search index; without one, the index is
// opened here and kept open while calls come (IndexIdle), until a daemon
// answers: then it is let go for the daemon to open. Remember and
// checkpoint go to the daemon too, which serialises them with its
// worker; without one, they take the memory's lock like any command.
// The rest reads files and history directly.
type MCP struct {
	Mem     *memory.Memory
	Version string
	Log     *slog.Logger // nil discards
	// Searcher, if set, answers search and context instead (tests).
	Searcher recall.Searcher
	// StateDir is where the daemon's address and token are; "" means the
	// memory's state folder.
	StateDir string
	// IndexIdle is how long an index opened here stays open after its
	// last use; 0 means 3 seconds. Closing it lets a daemon or a command
	// have it.
	IndexIdle time.Duration

	// wmu serialises this process's own writes: the memory's lock is
	// reentrant within a process, so it keeps out other processes only.
	wmu    sync.Mutex
	mu     sync.Mutex
	client *client.Client
	x      *recall.Index
	users  int
	idle   *time.Timer
	queue  *watcher.Queue
	// unwatch stops listening for other processes' requests for the
	// index (recall.OnRelease) once it is closed here.
	unwatch func()
}

// closeIndex closes the index opened here; s.mu is held.
func (s *MCP) closeIndex() error {
	if s.idle != nil {
		s.idle.Stop()
	}
	if s.unwatch != nil {
		s.unwatch()
		s.unwatch = nil
	}
	if s.x == nil {
		return nil
	}
	err := s.x.Close()
	s.x = nil
	return err
}

// Server returns an MCP server with the tools.
func (s *MCP) Server() *mcp.Server {
	v := s.Version
	if v == "" {
		v = "devel"
	}
	srv := mcp.NewServer(&mcp.Implementation{Name: "cairn", Version: v}, &mcp.ServerOptions{
		Logger:       s.Log,
		Capabilities: &mcp.ServerCapabilities{},
		Instructions: "cairn is this project's memory. Search it before re-deciding; remember what a later session needs; when a line of the memory no longer holds, give it to outdated.",
	})
	// Hints let a client run the reading tools without asking; none of
	// the tools reaches beyond the memory.
	no := false
	read := &mcp.ToolAnnotations{ReadOnlyHint: true, OpenWorldHint: &no}
	write := &mcp.ToolAnnotations{DestructiveHint: &no, OpenWorldHint: &no}
	mcp.AddTool(srv, &mcp.Tool{Name: "search", Annotations: read, Description: "Search project memory: decisions, facts, past sessions. Ranked hits with ids; read them with get."}, s.search)
	mcp.AddTool(srv, &mcp.Tool{Name: "get", Annotations: read, Description: "Fetch memory items in full by id or path."}, s.get)
	mcp.AddTool(srv, &mcp.Tool{Name: "timeline", Annotations: read, Description: "Checkpoints and items around an item or in a session, oldest first. Neither: the latest."}, s.timeline)
	mcp.AddTool(srv, &mcp.Tool{Name: "remember", Annotations: write, Description: "Save a durable memory, phrased as a fact. Prints its id."}, s.remember)
	mcp.AddTool(srv, &mcp.Tool{Name: "outdated", Annotations: write, Description: "Take back a line of the context pack that no longer holds, given word for word; later packs leave it out."}, s.outdated)
	mcp.AddTool(srv, &mcp.Tool{Name: "checkpoint", Annotations: write, Description: "Commit what changed in memory."}, s.checkpoint)
	mcp.AddTool(srv, &mcp.Tool{Name: "context", Annotations: read, Description: "The context pack: core memory, current session, and what query retrieves."}, s.context)
	mcp.AddTool(srv, &mcp.Tool{Name: "session_status", Annotations: read, Description: "A session's status, prompt count and capture queue. Default: the latest session."}, s.sessionStatus)
	return srv
}

// Run serves the tools over t (mcp.StdioTransport for cairn mcp) until
// the client goes away or ctx is done.
func (s *MCP) Run(ctx context.Context, t mcp.Transport) error {
	defer s.Close()
	return s.Server().Run(ctx, t)
}

// Close releases an index opened here.
func (s *MCP) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.closeIndex()
}

func (s *MCP) stateDir() string {
	if s.StateDir != "" {
		return s.StateDir
	}
	return s.Mem.StatePath("")
}

// daemon returns a client of the running daemon, or nil.
func (s *MCP) daemon(ctx context.Context) *client.Client {
	s.mu.Lock()
	c := s.client
	s.mu.Unlock()
	if c != nil {
		return c
	}
	c, err := client.Discover(ctx, s.stateDir(), 200*time.Millisecond)
	if err != nil {
		return nil
	}
	s.mu.Lock()
	s.client = c
	s.mu.Unlock()
	return c
}

// viaDaemon calls f with the daemon's client if one answers. It reports
// false when there is none, or it went away (then the caller does the
// work itself); an error the daemon answered is f's. A daemon restarted
// since the last call (another address) is found again.
func (s *MCP) viaDaemon(ctx context.Context, f func(c *client.Client) error) (bool, error) {
	for range 2 {
		c := s.daemon(ctx)
		if c == nil {
			return false, nil
		}
		err := f(c)
		if !errors.Is(err, client.ErrNoDaemon) {
			return true, err
		}
		s.mu.Lock()
		if s.client == c {
			s.client = nil
		}
		s.mu.Unlock()
	}
	return false, nil
}

// withSearcher calls f with what answers searches: s.Searcher, the
// daemon, or the index opened here. An index held here is let go when a
// daemon answers, so that the daemon can open it; a daemon that cannot
// search (another process has the index) is passed over. With
// forContext, a memory whose index cannot be opened still packs
// context, without retrieval.
func (s *MCP) withSearcher(ctx context.Context, forContext bool, f func(recall.Searcher) error) error {
	if s.Searcher != nil {
		return f(s.Searcher)
	}
	var passed bool
	done, err := s.viaDaemon(ctx, func(c *client.Client) error {
		s.letGo()
		err := f(recall.Remote{Client: c})
		var ae *client.APIError
		passed = errors.As(err, &ae) && (ae.Status == 503 || ae.Status == 404)
		return err
	})
	if done && !passed {
		return err
	}
	return s.withIndex(ctx, forContext, f)
}

// letGo closes the index opened here unless a call is using it.
func (s *MCP) letGo() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.x != nil && s.users == 0 {
		s.closeIndex()
	}
}

// withIndex calls f with the index opened here.
func (s *MCP) withIndex(ctx context.Context, forContext bool, f func(recall.Searcher) error) error {
	x, release, err := s.index(ctx)
	if err != nil {
		if forContext && ctx.Err() == nil {
			return f(recall.ContextOnly{M: s.Mem, Why: err})
		}
		return err
	}
	defer release()
	return f(x)
}

// index returns the index, opening it if needed, and a function to call
// when done with it; it closes after IndexIdle without use.
func (s *MCP) index(ctx context.Context) (*recall.Index, func(), error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.x == nil {
		x, err := recall.OpenIndex(ctx, s.Mem, recall.IndexOptions{LockTimeout: 3 * time.Second})
		if errors.Is(err, indexer.ErrLocked) {
			err = fmt.Errorf("the search index is in use by another process and no cairn daemon answers; try again: %w", err)
		}
		if err != nil {
			return nil, nil, err
		}
		s.x = x
		// Another reader that finds the index held asks for it: let it
		// go when no call here is using it, rather than at IndexIdle.
		wctx, cancel := context.WithCancel(context.Background())
		s.unwatch = cancel
		go recall.OnRelease(wctx, s.Mem, s.letGo)
	}
	if s.idle != nil {
		s.idle.Stop()
	}
	s.users++
	x := s.x
	return x, func() {
		s.mu.Lock()
		defer s.mu.Unlock()
		s.users--
		if s.users > 0 || s.x != x {
			return
		}
		idle := s.IndexIdle
		if idle <= 0 {
			idle = 3 * time.Second
		}
		s.idle = time.AfterFunc(idle, func() {
			s.mu.Lock()
			defer s.mu.Unlock()
			if s.users == 0 && s.x == x {
				s.closeIndex()
			}
		})
	}, nil
}

// text is a tool's answer.
func text(s string) *mcp.CallToolResult {
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: s}}}
}

// The tools' arguments. Descriptions are short: the whole tool list is
// paid for in every session's context (MaxToolTokens).

type searchArgs struct {
	Query   string `json:"query"`
	K       int    `json:"k,omitempty" jsonschema:"hits, default 10"`
	Kind    string `json:"kind,omitempty" jsonschema:"e.g. decision, fact, summary"`
	Session string `json:"session,omitempty"`
	Since   string `json:"since,omitempty" jsonschema:"date or age: 7d"`
}

func (s *MCP) search(ctx context.Context, _ *mcp.CallToolRequest, a searchArgs) (*mcp.CallToolResult, any, error) {
	if strings.TrimSpace(a.Query) == "" {
		return nil, nil, errors.New("query is empty: say what to look for")
	}
	if len(a.Query) > server.MaxQueryBytes {
		a.Query = strings.ToValidUTF8(a.Query[:server.MaxQueryBytes], "")
	}
	opts := recall.SearchOptions{K: a.K, Session: a.Session}
	if opts.K <= 0 {
		opts.K = 10
	}
	opts.K = min(opts.K, server.MaxK)
	if a.Kind != "" {
		opts.Kinds = []string{a.Kind}
	}
	if a.Since != "" {
		t, err := model.ParseSince(a.Since, time.Now())
		if err != nil {
			return nil, nil, fmt.Errorf("since: %w", err)
		}
		opts.Since = t
	}
	if err := recall.CheckSearchOptions(opts); err != nil {
		return nil, nil, err
	}
	var res *recall.SearchResults
	err := s.withSearcher(ctx, false, func(x recall.Searcher) error {
		var err error
		res, err = x.Search(ctx, a.Query, opts)
		return err
	})
	if err != nil {
		return nil, nil, err
	}
	return text(formatHits(res)), nil, nil
}

// formatHits writes hits for a model: one line of what and where, the
// snippet under it.
func formatHits(res *recall.SearchResults) string {
	var b strings.Builder
	for _, w := range res.Warnings {
		fmt.Fprintf(&b, "note: %s\n", w)
	}
	if len(res.Hits) == 0 {
		fmt.Fprintf(&b, "No memory matches %q: nothing stored is about it.\n", res.Query)
		return b.String()
	}
	for i, h := range res.Hits {
		meta := []string{h.Kind}
		if h.Created != nil {
			meta = append(meta, h.Created.UTC().Format(time.DateOnly))
		}
		if h.Session != "" {
			meta = append(meta, "session "+h.Session)
		}
		fmt.Fprintf(&b, "%d. %s [%s] id=%s (%s:%d-%d, score %.2f, match %.2f)\n", i+1, oneLine(h.Title), strings.Join(meta, ", "), h.ID, h.Path, h.StartLine, h.EndLine, h.Score, h.Scores.Match)
		if sn := oneLine(h.Snippet); sn != "" {
			fmt.Fprintf(&b, "   %s\n", sn)
		}
	}
	return b.String()
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

type getArgs struct {
	IDs []string `json:"ids" jsonschema:"ids (or unique prefixes) or paths"`
}

func (s *MCP) get(ctx context.Context, _ *mcp.CallToolRequest, a getArgs) (*mcp.CallToolResult, any, error) {
	if len(a.IDs) == 0 {
		return nil, nil, errors.New("ids is empty: give the ids search printed")
	}
	if len(a.IDs) > maxGetIDs {
		return nil, nil, fmt.Errorf("%d ids: ask for at most %d at once", len(a.IDs), maxGetIDs)
	}
	var b strings.Builder
	failed := false
	for i, ref := range a.IDs {
		if i > 0 {
			b.WriteString("\n---\n\n")
		}
		out, ok := s.getOne(ctx, strings.TrimSpace(ref))
		b.WriteString(out)
		failed = failed || !ok
	}
	res := text(b.String())
	// One that could not be had makes the answer an error, with the
	// others still in it.
	res.IsError = failed
	return res, nil, nil
}

// getOne renders one item, or a file that is not one (a session's
// summary.md, which search also finds; a Markdown file without an id),
// or says why it cannot and reports false: an unknown id, a path
// outside the memory, a file that is not there.
func (s *MCP) getOne(ctx context.Context, ref string) (string, bool) {
	e, err := s.Mem.Get(ctx, ref)
	if err == nil && e.Item.ID != "" {
		return formatItem(e), true
	}
	if p, perr := s.Mem.PathArg("", ref); perr == nil && (err == nil || strings.Contains(ref, "/")) {
		if data, rerr := s.Mem.ReadFile(p); rerr == nil {
			body := string(data)
			if len(body) > maxGetChars {
				body = strings.ToValidUTF8(body[len(body)-maxGetChars:], "") // the end is the latest
				body = "[… earlier part left out]\n" + body
			}
			return fmt.Sprintf("# %s\n\n%s", p, body), true
		} else if err == nil {
			err = rerr
		}
	} else if perr != nil && err == nil {
		err = perr
	}
	return fmt.Sprintf("%s: %v", ref, err), false
}

func formatItem(e *model.Entry) string {
	it := e.Item
	meta := []string{"id=" + it.ID, string(it.Kind), e.Path, fmt.Sprintf("importance %.2g", it.Importance)}
	if len(it.Tags) > 0 {
		meta = append(meta, "tags "+strings.Join(it.Tags, ", "))
	}
	if it.Session != "" {
		meta = append(meta, "session "+it.Session)
	}
	if !it.Created.IsZero() {
		meta = append(meta, "created "+it.Created.UTC().Format(time.RFC3339))
	}
	if it.Pinned {
		meta = append(meta, "pinned")
	}
	return fmt.Sprintf("# %s\n%s\n\n%s\n", it.Title, strings.Join(meta, " · "), strings.TrimSpace(it.Body))
}

type timelineArgs struct {
	ID      string `json:"id,omitempty" jsonschema:"an item id"`
	Session string `json:"session,omitempty"`
	N       int    `json:"n,omitempty" jsonschema:"entries each side, default 8"`
}

// event is one line of a timeline.
type event struct {
	t      time.Time
	line   string
	anchor bool
}

func (s *MCP) timeline(ctx context.Context, _ *mcp.CallToolRequest, a timelineArgs) (*mcp.CallToolResult, any, error) {
	n := a.N
	if n <= 0 {
		n = defaultWindow
	}
	n = min(n, maxTimeline)
	var (
		head   string
		events []event
		err    error
	)
	switch {
	case a.ID != "" && a.Session != "":
		return nil, nil, errors.New("give id or session, not both")
	case a.ID != "":
		head, events, err = s.aroundItem(ctx, a.ID, n)
	case a.Session != "":
		head, events, err = s.inSession(ctx, a.Session, n)
	default:
		head, events, err = s.latest(ctx, n)
	}
	if err != nil {
		return nil, nil, err
	}
	// The lists come newest first; oldest first, an item comes before
	// the commit that made it in the same second.
	slices.Reverse(events)
	sort.SliceStable(events, func(i, j int) bool { return events[i].t.Before(events[j].t) })
	var b strings.Builder
	b.WriteString(head + "\n")
	if len(events) == 0 {
		b.WriteString("(nothing)\n")
	}
	for _, e := range events {
		mark := "  "
		if e.anchor {
			mark = "→ "
		}
		fmt.Fprintf(&b, "%s%s  %s\n", mark, e.t.UTC().Format("2006-01-02 15:04"), e.line)
	}
	return text(b.String()), nil, nil
}

func itemEvent(e model.Entry) event {
	it := e.Item
	return event{t: it.Created, line: fmt.Sprintf("item %s %s %q", it.ID, it.Kind, oneLine(it.Title))}
}

func commitEvent(c memory.LogEntry) event {
	line := fmt.Sprintf("commit %.10s %s", c.Commit, oneLine(c.Subject))
	if len(c.Tags) > 0 {
		line += " (tag " + strings.Join(c.Tags, ", ") + ")"
	}
	return event{t: c.Time, line: line}
}

// aroundItem lists the n items created before and after an item, and
// the n checkpoints on each side of its creation.
func (s *MCP) aroundItem(ctx context.Context, ref string, n int) (string, []event, error) {
	e, err := s.Mem.Get(ctx, ref)
	if err != nil {
		return "", nil, err
	}
	var out []event
	log, err := s.Mem.History().Log(ctx, memory.LogOptions{})
	if err != nil {
		return "", nil, err
	}
	// Both lists are newest first.
	at := sort.Search(len(log), func(i int) bool { return !log[i].Time.After(e.Item.Created) })
	for i := max(at-n, 0); i < min(at+n, len(log)); i++ {
		out = append(out, commitEvent(log[i]))
	}
	items, _, err := s.Mem.List(ctx, memory.Filter{})
	if err != nil {
		return "", nil, err
	}
	at = sort.Search(len(items), func(i int) bool { return !items[i].Item.Created.After(e.Item.Created) })
	for i := max(at-n, 0); i < min(at+n+1, len(items)); i++ {
		ev := itemEvent(items[i])
		ev.anchor = items[i].Item.ID == e.Item.ID
		out = append(out, ev)
	}
	return fmt.Sprintf("Around %s %q (%s):", e.Item.Kind, e.Item.Title, e.Path), out, nil
}

// inSession lists a session's checkpoints and items, the last n of each.
func (s *MCP) inSession(ctx context.Context, ref string, n int) (string, []event, error) {
	e, err := s.Mem.Sessions().Get(ctx, ref)
	if err != nil {
		return "", nil, err
	}
	log, err := s.Mem.History().Log(ctx, memory.LogOptions{Session: e.ID, N: n})
	if err != nil {
		return "", nil, err
	}
	var out []event
	for _, c := range log {
		out = append(out, commitEvent(c))
	}
	items, _, err := s.Mem.List(ctx, memory.Filter{Session: e.ID})
	if err != nil {
		return "", nil, err
	}
	for _, it := range items[:min(n, len(items))] {
		out = append(out, itemEvent(it))
	}
	out = append(out, event{t: e.Started, line: "session started"})
	head := fmt.Sprintf("Session %s (%s, %d prompts, last active %s):", e.ID, e.Status, e.Prompts, e.LastActivity.UTC().Format("2006-01-02 15:04"))
	return head, out, nil
}

// latest lists the last n checkpoints and items.
func (s *MCP) latest(ctx context.Context, n int) (string, []event, error) {
	log, err := s.Mem.History().Log(ctx, memory.LogOptions{N: n})
	if err != nil {
		return "", nil, err
	}
	var out []event
	for _, c := range log {
		out = append(out, commitEvent(c))
	}
	items, _, err := s.Mem.List(ctx, memory.Filter{})
	if err != nil {
		return "", nil, err
	}
	for _, it := range items[:min(n, len(items))] {
		out = append(out, itemEvent(it))
	}
	return "Latest checkpoints and items:", out, nil
}

type rememberArgs struct {
	Text       string   `json:"text" jsonschema:"first line is the title"`
	Kind       string   `json:"kind,omitempty" jsonschema:"decision, fact, pattern, preference or note"`
	Tags       []string `json:"tags,omitempty"`
	Importance float64  `json:"importance,omitempty" jsonschema:"0..1"`
	Pin        bool     `json:"pin,omitempty" jsonschema:"always in context"`
	Session    string   `json:"session,omitempty"`
}

func (s *MCP) remember(ctx context.Context, _ *mcp.CallToolRequest, a rememberArgs) (*mcp.CallToolResult, any, error) {
	req := client.RememberRequest{Text: a.Text, Kind: a.Kind, Tags: a.Tags, Pin: a.Pin, Session: a.Session}
	if a.Importance != 0 {
		req.Importance = &a.Importance
	}
	// Check here first: a bad request is the caller's, whoever would
	// have written it.
	it, err := server.NewRememberItem(req, time.Now())
	if err != nil {
		return nil, nil, err
	}
	var r *client.Remembered
	done, err := s.viaDaemon(ctx, func(c *client.Client) error {
		var err error
		r, err = c.Remember(ctx, req)
		return err
	})
	if !done {
		var cp *memory.Checkpoint
		s.wmu.Lock()
		cp, err = s.Mem.Remember(ctx, it)
		s.wmu.Unlock()
		if err == nil {
			v := server.Remembered(it, cp)
			r = &v
		}
	}
	if err != nil {
		return nil, nil, err
	}
	return text(fmt.Sprintf("Remembered %s %q: id=%s (%s)", r.Kind, r.Title, r.ID, r.Path)), nil, nil
}

type outdatedArgs struct {
	Text string `json:"text" jsonschema:"the line, word for word"`
}

// outdated writes under the memory's lock itself, daemon or not: the
// daemon follows the checkpoint as it follows any other.
func (s *MCP) outdated(ctx context.Context, _ *mcp.CallToolRequest, a outdatedArgs) (*mcp.CallToolResult, any, error) {
	s.wmu.Lock()
	res, err := outdate.Mark(ctx, s.Mem, a.Text)
	s.wmu.Unlock()
	if err != nil {
		return nil, nil, err
	}
	var b strings.Builder
	for _, q := range res.Quoted {
		fmt.Fprintf(&b, "No longer shown: %s\n", q)
	}
	for _, it := range res.Items {
		fmt.Fprintf(&b, "Retired %s %q\n", it.Kind, it.Title)
	}
	return text(b.String()), nil, nil
}

type checkpointArgs struct {
	Message string `json:"message,omitempty"`
	Tag     string `json:"tag,omitempty" jsonschema:"name it"`
}

func (s *MCP) checkpoint(ctx context.Context, _ *mcp.CallToolRequest, a checkpointArgs) (*mcp.CallToolResult, any, error) {
	if a.Tag != "" {
		if err := memory.ValidTagName(a.Tag); err != nil {
			return nil, nil, err
		}
	}
	var r *client.CheckpointResponse
	done, err := s.viaDaemon(ctx, func(c *client.Client) error {
		var err error
		r, err = c.Checkpoint(ctx, client.CheckpointRequest{Message: a.Message, Tag: a.Tag, Event: "mcp"})
		return err
	})
	if !done {
		s.wmu.Lock()
		r, err = server.Checkpoint(ctx, s.Mem, client.CheckpointRequest{Message: a.Message, Tag: a.Tag, Event: "mcp"})
		s.wmu.Unlock()
	}
	if err != nil {
		return nil, nil, err
	}
	if r.Commit == "" && r.Tag != "" {
		return text(fmt.Sprintf("Nothing to checkpoint: memory is committed. Named %.10s %s.", r.Tagged, r.Tag)), nil, nil
	}
	if r.Commit == "" {
		return text("Nothing to checkpoint: memory is committed."), nil, nil
	}
	return text(fmt.Sprintf("Checkpoint %.10s: %s (%d files)", r.Commit, r.Subject, len(r.Changes))), nil, nil
}

type contextArgs struct {
	Query   string `json:"query,omitempty"`
	Session string `json:"session,omitempty"`
	Budget  int    `json:"budget,omitempty" jsonschema:"tokens, default 1500"`
}

func (s *MCP) context(ctx context.Context, _ *mcp.CallToolRequest, a contextArgs) (*mcp.CallToolResult, any, error) {
	if a.Budget < 0 || a.Budget > server.MaxBudget {
		return nil, nil, fmt.Errorf("budget %d: want a number of tokens from 1 to %d", a.Budget, server.MaxBudget)
	}
	if len(a.Query) > server.MaxQueryBytes {
		a.Query = strings.ToValidUTF8(a.Query[:server.MaxQueryBytes], "")
	}
	var p *recall.Pack
	start := time.Now()
	err := s.withSearcher(ctx, true, func(x recall.Searcher) error {
		var err error
		p, err = x.Context(ctx, recall.ContextOptions{Query: a.Query, Session: a.Session, Budget: a.Budget})
		return err
	})
	if err != nil {
		return nil, nil, err
	}
	metrics.Open(s.stateDir()).Record(ctx, p.Metric("mcp", time.Since(start)))
	var b strings.Builder
	for _, w := range p.Warnings {
		fmt.Fprintf(&b, "note: %s\n", w)
	}
	b.WriteString(p.Text)
	return text(b.String()), nil, nil
}

type statusArgs struct {
	Session string `json:"session,omitempty"`
}

func (s *MCP) sessionStatus(ctx context.Context, _ *mcp.CallToolRequest, a statusArgs) (*mcp.CallToolResult, any, error) {
	s.mu.Lock()
	if s.queue == nil {
		q, err := capture.Queue(s.Mem, watcher.QueueOptions{})
		if err != nil {
			s.mu.Unlock()
			return nil, nil, err
		}
		s.queue = q
	}
	q := s.queue
	s.mu.Unlock()
	st, err := server.Status(ctx, s.Mem, q, strings.TrimSpace(a.Session))
	if err != nil {
		return nil, nil, err
	}
	return text(formatStatus(st)), nil, nil
}

func formatStatus(st *client.SessionStatus) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Session %s: %s", st.SessionID, st.Status)
	if st.Known {
		fmt.Fprintf(&b, ", %d prompts, %d turns (%d summarised)", st.Prompts, st.Turns, st.Summarized)
		if st.Progress.Total > 0 {
			fmt.Fprintf(&b, ", progress %d/%d", st.Progress.Done, st.Progress.Total)
		}
		if st.LastActivity != nil {
			fmt.Fprintf(&b, ", last active %s", st.LastActivity.UTC().Format("2006-01-02 15:04"))
		}
	}
	b.WriteString("\n")
	if st.Title != "" {
		fmt.Fprintf(&b, "Title: %s\n", st.Title)
	}
	for _, k := range sortedKeys(st.Variables) {
		fmt.Fprintf(&b, "%s = %s\n", k, st.Variables[k])
	}
	j := st.SessionJobs
	fmt.Fprintf(&b, "Its jobs: %d pending, %d processing, %d failed\n", j.Pending, j.Processing, j.Failed)
	q := st.Queue
	fmt.Fprintf(&b, "Queue: %d pending, %d processing, %d failed", q.Pending, q.Processing, q.Failed)
	if q.Failed > 0 {
		b.WriteString(" (cairn queue list --state failed; cairn queue retry --all)")
	}
	b.WriteString("\n")
	return b.String()
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
