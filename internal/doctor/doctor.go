package doctor

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"
	"time"

	"github.com/cairn-mem/cairn/hooks"
	"github.com/cairn-mem/cairn/internal/anchor"
	"github.com/cairn-mem/cairn/internal/capture"
	"github.com/cairn-mem/cairn/internal/client"
	"github.com/cairn-mem/cairn/internal/memory"
	"github.com/cairn-mem/cairn/internal/memsync"
	"github.com/cairn-mem/cairn/internal/recall"
	"github.com/cairn-mem/cairn/watcher"
)

// The statuses of a finding.
const (
	OK   = "ok"
	Warn = "warn" // works, but less well than it could
	Fail = "fail" // broken: cairn doctor exits 1
)

// Check is one finding.
type Check struct {
	Name   string `json:"name"`
	Status string `json:"status"`
	Detail string `json:"detail"`
	Fix    string `json:"fix,omitempty"`
}

// Report is what Run found; cairn doctor --json prints it.
type Report struct {
	OK     bool    `json:"ok"`
	Checks []Check `json:"checks"`
}

// Add records a finding.
func (r *Report) Add(name, status, detail, fix string) {
	r.Checks = append(r.Checks, Check{name, status, detail, fix})
}

// Fails counts the findings that are failures, and sets OK.
func (r *Report) Fails() int {
	n := 0
	for _, c := range r.Checks {
		if c.Status == Fail {
			n++
		}
	}
	r.OK = n == 0
	return n
}

// Options are what Run checks in, given by the caller: doctor neither
// reads the process's environment nor its working directory.
type Options struct {
	// Find says which memory to check (CAIRN_DIR, or the folder the
	// command works in and its parents); its error is the first finding.
	Find func() (string, error)
	// Open opens the memory Find named.
	Open func(ctx context.Context, dir string) (*memory.Memory, error)
	// Getenv is the command's environment (HOME for the global settings,
	// PATH for the cairn binary, credentials for remotes).
	Getenv func(string) string
}

// StaleBacklog is how old a pending job may get before doctor says the
// queue is not being worked.
const StaleBacklog = 10 * time.Minute

// Run checks everything, in order, and returns the findings with OK set.
// A memory that cannot be found or opened is the one finding.
func Run(ctx context.Context, opts Options) *Report {
	r := &Report{}
	run(ctx, opts, r)
	r.Fails()
	return r
}

func run(ctx context.Context, opts Options, r *Report) {
	dir, err := opts.Find()
	if err != nil {
		r.Add("memory", Fail, err.Error(), "cairn init --claude (in the project's folder)")
		return
	}
	m, err := opts.Open(ctx, dir)
	if err != nil {
		r.Add("memory", Fail, err.Error(), "see the error; cairn init repairs a missing skeleton")
		return
	}
	defer m.Close()
	r.Add("memory", OK, m.Dir, "")
	project := filepath.Dir(m.Dir)
	checkHooks(m, project, opts.Getenv, r)
	checkMCP(project, opts.Getenv, r)
	daemon := client.Status(ctx, m.StatePath(""))
	if daemon.Running {
		r.Add("daemon", OK, fmt.Sprintf("running, pid %d, %s", daemon.PID, daemon.URL), "")
	} else {
		r.Add("daemon", Warn, "not running: captured events wait in the inbox until the next session start (or cairn queue run)", "cairn daemon start")
	}
	checkQueue(ctx, m, daemon.Running, r)
	checkIndex(m, daemon.Running, r)
	checkFUSE(r)
	checkRemotes(ctx, m, opts.Getenv, r)
	checkConflicts(ctx, m, r)
	checkLinks(ctx, m, r)
	checkStale(ctx, m, r)
}

// checkStale counts the memories the project's code changed under since
// they were written (package anchor): a warning, as most will still be
// true, and a person has to look.
func checkStale(ctx context.Context, m *memory.Memory, r *Report) {
	rep, err := anchor.Check(ctx, m)
	switch {
	case err != nil:
		r.Add("stale", Warn, "checking memories against the code: "+err.Error(), "")
		return
	case rep.Head == "":
		r.Add("stale", OK, "the project is in no git repository: no memory is anchored to its code", "")
		return
	}
	ids := make(map[string]bool)
	for _, s := range append(rep.Stale, rep.Gone...) {
		ids[s.ID] = true
	}
	if len(ids) == 0 {
		r.Add("stale", OK, fmt.Sprintf("%s anchored to the code, none changed under since", countOf(rep.Anchored, "memory", "memories")), "")
		return
	}
	r.Add("stale", Warn, fmt.Sprintf("%s of %d anchored to the code may be stale: %d where the code changed, %d naming code that no longer exists",
		countOf(len(ids), "memory", "memories"), rep.Anchored, len(rep.Stale), len(rep.Gone)),
		"cairn stale (lists them); cairn stale --confirm ID once checked, or edit the item")
}

// checkLinks names the symbolic links in the memory: cairn does not
// follow them (a link to /proc/self/environ would leak the environment)
// nor commit them, so their content is not memory; a link HEAD records
// would be made by every clone.
func checkLinks(ctx context.Context, m *memory.Memory, r *Report) {
	work, committed, err := m.Links(ctx)
	if err != nil {
		r.Add("links", Fail, err.Error(), "")
		return
	}
	if len(work)+len(committed) == 0 {
		r.Add("links", OK, "no symbolic links in the memory", "")
		return
	}
	var parts []string
	if len(work) > 0 {
		parts = append(parts, "in the work tree (not followed, not checkpointed): "+strings.Join(work, ", "))
	}
	if len(committed) > 0 {
		parts = append(parts, "recorded in HEAD: "+strings.Join(committed, ", "))
	}
	fix := "remove them (rm " + filepath.Join(m.Dir, filepath.FromSlash(append(work, committed...)[0]))
	if len(work)+len(committed) > 1 {
		fix += " ..."
	}
	fix += "), then cairn checkpoint"
	r.Add("links", Fail, countOf(len(work)+len(committed), "symbolic link", "symbolic links")+" "+strings.Join(parts, "; "), fix)
}

// checkConflicts lists the conflict copies syncs left: both versions of
// a memory are kept until someone chooses.
func checkConflicts(ctx context.Context, m *memory.Memory, r *Report) {
	cs, err := memsync.Conflicts(ctx, m)
	if err != nil {
		r.Add("conflicts", Fail, err.Error(), "")
		return
	}
	if len(cs) == 0 {
		r.Add("conflicts", OK, "no conflict copies", "")
		return
	}
	var names []string
	for _, c := range cs[:min(3, len(cs))] {
		names = append(names, c.Path)
	}
	if len(cs) > 3 {
		names = append(names, fmt.Sprintf("and %d more", len(cs)-3))
	}
	r.Add("conflicts", Warn, fmt.Sprintf("%s from syncs, each beside the version kept: %s", countOf(len(cs), "conflict copy", "conflict copies"), strings.Join(names, ", ")),
		"cairn resolve (lists them); cairn resolve PATH --keep original|copy|both")
}

// levels are the statuses of hooks' findings.
var levels = map[hooks.Level]string{hooks.OK: OK, hooks.Warn: Warn, hooks.Fail: Fail}

func checkHooks(m *memory.Memory, project string, getenv func(string) string, r *Report) {
	for _, f := range hooks.Check(project, hooks.CheckOptions{MemoryDir: m.Dir, PromptContext: m.Config.Hooks.PromptContext, Getenv: getenv}) {
		r.Add("hooks", levels[f.Level], f.Detail, f.Fix)
	}
}

func checkMCP(project string, getenv func(string) string, r *Report) {
	f := hooks.CheckMCP(project, getenv)
	r.Add("mcp", levels[f.Level], f.Detail, f.Fix)
}

func checkQueue(ctx context.Context, m *memory.Memory, daemon bool, r *Report) {
	q, err := capture.Queue(m, watcher.QueueOptions{})
	if err != nil {
		r.Add("queue", Fail, err.Error(), "")
		return
	}
	st, err := q.Status(ctx)
	if err != nil {
		r.Add("queue", Fail, err.Error(), "")
		return
	}
	detail := fmt.Sprintf("pending %d, processing %d, failed %d", st.Pending, st.Processing, st.Failed)
	switch {
	case st.Failed > 0:
		r.Add("queue", Fail, detail+": failed jobs hold captured events that are not in memory", "cairn queue list --state failed; after fixing the cause, cairn queue retry --all (or cairn queue drop --all)")
	case st.Pending+st.Processing > 0 && st.OldestAge > StaleBacklog && daemon:
		r.Add("queue", Fail, fmt.Sprintf("%s, the oldest waiting %s although the daemon runs", detail, st.OldestAge.Round(time.Second)), "see .cairn/.state/daemon.log; cairn daemon stop && cairn daemon start")
	case st.Pending+st.Processing > 0 && st.OldestAge > StaleBacklog:
		r.Add("queue", Warn, fmt.Sprintf("%s, the oldest waiting %s", detail, st.OldestAge.Round(time.Second)), "cairn queue run, or cairn daemon start")
	default:
		r.Add("queue", OK, detail, "")
	}
}

func checkIndex(m *memory.Memory, daemon bool, r *Report) {
	head, err := m.History().Resolve("HEAD")
	if err != nil {
		r.Add("index", Fail, "cannot resolve HEAD: "+err.Error(), "")
		return
	}
	version, err := recall.IndexedVersion(m)
	if errors.Is(err, fs.ErrNotExist) {
		r.Add("index", Warn, "no search index yet (the first search builds it)", "cairn reindex")
		return
	}
	if err != nil {
		r.Add("index", Fail, "the index's meta.json is unreadable", "cairn reindex")
		return
	}
	switch {
	case version == head:
		r.Add("index", OK, "up to date with "+short(head), "")
	case daemon:
		r.Add("index", Warn, fmt.Sprintf("at %s, memory at %s: the daemon catches up at its next search", short(version), short(head)), "")
	default:
		r.Add("index", Warn, fmt.Sprintf("at %s, memory at %s: the next search catches up", short(version), short(head)), "cairn reindex")
	}
}

func checkRemotes(ctx context.Context, m *memory.Memory, getenv func(string) string, r *Report) {
	remotes, err := memsync.Remotes(m)
	if err != nil {
		r.Add("remotes", Fail, err.Error(), "fix it with git config --file .cairn/.git/config")
		return
	}
	if len(remotes) == 0 {
		r.Add("remotes", OK, "none (memory stays on this machine)", "")
		return
	}
	for _, rm := range remotes {
		if err := memsync.Reach(ctx, m, rm.Name, getenv); err != nil {
			r.Add("remotes", Fail, fmt.Sprintf("%s (%s) unreachable: %s", rm.Name, memory.RedactURL(rm.URL), oneLine(err.Error())), "check the network and credentials, or cairn remote remove "+rm.Name)
			continue
		}
		r.Add("remotes", OK, fmt.Sprintf("%s (%s) reachable", rm.Name, memory.RedactURL(rm.URL)), "")
	}
}

// short is a commit's id as the findings name it (internal/ui's Short).
func short(h string) string {
	if len(h) > 10 {
		return h[:10]
	}
	return h
}

// countOf is "1 thing" or "N things" (internal/ui's CountOf).
func countOf(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

// oneLine keeps a message to one line (internal/ui's OneLine).
func oneLine(s string) string {
	return strings.Join(strings.Fields(strings.ReplaceAll(s, "\n", "; ")), " ")
}
