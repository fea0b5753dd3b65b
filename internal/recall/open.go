package recall

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"sync"
	"time"

	"github.com/cairn-mem/cairn/indexer"
	"github.com/cairn-mem/cairn/internal/client"
	"github.com/cairn-mem/cairn/internal/memory"
	"github.com/cairn-mem/cairn/internal/recall/handoff"
	"github.com/cairn-mem/cairn/internal/safefile"
)

// DefaultIndexWait is how long Open waits by default for another process
// that has the index open (a command, briefly); a daemon must answer its
// health check within client.DefaultWait to be used.
const DefaultIndexWait = 3 * time.Second

// OpenOptions tune Open.
type OpenOptions struct {
	// Open opens the memory when no daemon answers. Required.
	Open func(ctx context.Context) (*memory.Memory, error)
	// DaemonWait and IndexWait: zero means the defaults.
	DaemonWait, IndexWait time.Duration
	// ForContext: the caller packs context, which can do without the
	// index; when it cannot be had, core memory and the session are
	// still packed, with a warning, and nothing is retrieved.
	ForContext bool
	// Progress is shown while a missing index is built.
	Progress func(done, total int)
	// Warn receives the one-line warnings; nil discards them.
	Warn func(string)
}

// Open returns what searches the memory in dir (a .cairn folder): the
// daemon when one answers, otherwise the index opened here. Bleve lets one
// process at a time open an index, so when another process has it Open
// waits up to IndexWait for it to let go or for a daemon to answer. done
// releases what was opened.
//
// This is the one place that chooses between a daemon and a local index
// for the command line; the MCP server, which lives long, holds an index
// between calls but makes the same choice with Remote and ContextOnly.
func Open(ctx context.Context, dir string, opts OpenOptions) (s Searcher, done func(), err error) {
	if opts.DaemonWait <= 0 {
		opts.DaemonWait = client.DefaultWait
	}
	if opts.IndexWait <= 0 {
		opts.IndexWait = DefaultIndexWait
	}
	if opts.Warn == nil {
		opts.Warn = func(string) {}
	}
	state := filepath.Join(dir, memory.StateDir)
	if c, err := client.Discover(ctx, state, opts.DaemonWait); err == nil {
		f := &fallback{remote: Remote{Client: c}, opts: opts, state: state}
		return f, f.close, nil
	}
	return openLocal(ctx, state, opts)
}

// openLocal is Open when no daemon answered at first: the index opened
// here, or a daemon that answers while another process has the index.
func openLocal(ctx context.Context, state string, opts OpenOptions) (s Searcher, done func(), err error) {
	m, err := opts.Open(ctx)
	if err != nil {
		return nil, nil, err
	}
	without := func(why error) (Searcher, func(), error) {
		opts.Warn(fmt.Sprintf("%v; the context leaves out what a search would retrieve", why))
		return ContextOnly{M: m, Why: why, warned: true}, func() { m.Close() }, nil
	}
	deadline := time.Now().Add(opts.IndexWait)
	withdraw, asked := func() {}, false
	defer func() { withdraw() }()
	for {
		x, err := OpenIndex(ctx, m, IndexOptions{Progress: opts.Progress})
		if err == nil {
			return x, func() { x.Close(); m.Close() }, nil
		}
		if !errors.Is(err, indexer.ErrLocked) {
			if opts.ForContext && ctx.Err() == nil {
				return without(err)
			}
			m.Close()
			return nil, nil, err
		}
		// Another process has the index: a command that will soon be
		// done, an MCP server between calls (asked to let go), or a
		// daemon starting up.
		if !asked {
			withdraw, asked = handoff.Ask(m.StatePath(indexDir)), true
		}
		if c, err := client.Discover(ctx, state, opts.DaemonWait); err == nil {
			m.Close()
			return Remote{Client: c}, func() {}, nil
		}
		if time.Now().After(deadline) {
			why := fmt.Errorf("the search index is in use by another process%s and no cairn daemon answers; try again in a moment", holder(state))
			if opts.ForContext {
				return without(why)
			}
			m.Close()
			return nil, nil, why
		}
		select {
		case <-ctx.Done():
			m.Close()
			return nil, nil, ctx.Err()
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// holder names the process holding the index, as its lock file says.
func holder(state string) string {
	if h := safefile.Holder(filepath.Join(state, indexDir, "lock")); h != "" {
		return " (" + h + ")"
	}
	return ""
}

// ContextOnly packs context without an index: core memory and the
// session, and nothing retrieved. Why says why there is no index.
type ContextOnly struct {
	M   *memory.Memory
	Why error

	warned bool // Open said why already
}

// Search fails: there is no index to search.
func (c ContextOnly) Search(context.Context, string, SearchOptions) (*SearchResults, error) {
	if c.Why == nil {
		return nil, errors.New("no search index")
	}
	return nil, c.Why
}

// Context packs without retrieval; a query is ignored, with a warning
// when there was a reason not to have the index.
func (c ContextOnly) Context(ctx context.Context, o ContextOptions) (*Pack, error) {
	asked := o.Query != ""
	o.Query = ""
	p, err := Context(ctx, c.M, o)
	if p != nil && asked && c.Why != nil && !c.warned {
		p.Warnings = append(p.Warnings, fmt.Sprintf("no search index (%v): nothing retrieved for the query", c.Why))
	}
	return p, err
}

// fallback asks the daemon, and does the work here when the daemon went
// away (it died mid-request, or stopped since Open found it): the error
// wraps client.ErrNoDaemon. An error the daemon answered (an
// *client.APIError) is its answer, not tried again here.
type fallback struct {
	remote Remote
	opts   OpenOptions
	state  string

	mu    sync.Mutex
	local Searcher // opened at the first call that found the daemon gone
	done  func()
}

func (f *fallback) Search(ctx context.Context, query string, opts SearchOptions) (*SearchResults, error) {
	if l := f.opened(); l != nil {
		return l.Search(ctx, query, opts)
	}
	res, err := f.remote.Search(ctx, query, opts)
	if err == nil || !errors.Is(err, client.ErrNoDaemon) {
		return res, err
	}
	l, err := f.open(ctx, err)
	if err != nil {
		return nil, err
	}
	return l.Search(ctx, query, opts)
}

func (f *fallback) Context(ctx context.Context, opts ContextOptions) (*Pack, error) {
	if l := f.opened(); l != nil {
		return l.Context(ctx, opts)
	}
	p, err := f.remote.Context(ctx, opts)
	if err == nil || !errors.Is(err, client.ErrNoDaemon) {
		return p, err
	}
	l, err := f.open(ctx, err)
	if err != nil {
		return nil, err
	}
	return l.Context(ctx, opts)
}

func (f *fallback) opened() Searcher {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.local
}

// open opens what searches here, once, saying why.
func (f *fallback) open(ctx context.Context, why error) (Searcher, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.local != nil {
		return f.local, nil
	}
	if f.opts.Warn != nil {
		f.opts.Warn(fmt.Sprintf("the cairn daemon went away (%v); doing the work here", why))
	}
	s, done, err := openLocal(ctx, f.state, f.opts)
	if err != nil {
		return nil, err
	}
	f.local, f.done = s, done
	return s, nil
}

func (f *fallback) close() {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.done != nil {
		f.done()
		f.local, f.done = nil, nil
	}
}

// OnDemand searches through Open for each call: the daemon when one
// runs, otherwise the index opened for that call alone. A caller that
// lives long without searching much (a mount may stay for days) uses it,
// since holding the index would keep every other cairn command from it.
type OnDemand struct {
	Dir  string
	Opts OpenOptions // ForContext is set per call
}

func (o OnDemand) Search(ctx context.Context, q string, opts SearchOptions) (*SearchResults, error) {
	oo := o.Opts
	oo.ForContext = false
	s, done, err := Open(ctx, o.Dir, oo)
	if err != nil {
		return nil, err
	}
	defer done()
	return s.Search(ctx, q, opts)
}

func (o OnDemand) Context(ctx context.Context, opts ContextOptions) (*Pack, error) {
	oo := o.Opts
	oo.ForContext = true
	s, done, err := Open(ctx, o.Dir, oo)
	if err != nil {
		return nil, err
	}
	defer done()
	return s.Context(ctx, opts)
}
