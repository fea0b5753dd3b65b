package main

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/cairn-mem/cairn/hooks"
	"github.com/cairn-mem/cairn/internal/capture"
	"github.com/cairn-mem/cairn/internal/client"
	"github.com/cairn-mem/cairn/internal/memory"
	"github.com/cairn-mem/cairn/internal/memsync"
	"github.com/cairn-mem/cairn/internal/recall"
	"github.com/cairn-mem/cairn/internal/ui"
	"github.com/cairn-mem/cairn/watcher"
	"github.com/spf13/cobra"
)

func newDoctorCommand(g *globals) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "doctor",
		Short: "Check the whole setup and say how to fix what is wrong",
		Long: `Check the memory and everything around it: the Claude Code hooks (installed,
and pointing at scripts and a cairn binary that exist), the MCP server, the
daemon, the capture queue (backlog and failed jobs), the search index
against HEAD, FUSE for cairn mount, and the git remotes of the memory.
Each problem comes with the command that fixes it.

Exit 0 when nothing is wrong (warnings allowed), 1 otherwise.`,
		Args: exactArgs(0),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runDoctor(cmd.Context(), g, asJSON)
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	return cmd
}

// staleBacklog is how old a pending job may get before doctor says the
// queue is not being worked.
const staleBacklog = 10 * time.Minute

func runDoctor(ctx context.Context, g *globals, asJSON bool) error {
	r := &ui.DoctorReport{}
	doctor(ctx, g, r)
	fails := r.Fails()
	if asJSON {
		if err := ui.DoctorJSON(g.stdout, r); err != nil {
			return err
		}
	} else {
		ui.DoctorText(g.stdout, r)
	}
	if fails > 0 {
		return fmt.Errorf("doctor: %s", ui.CountOf(fails, "problem", "problems"))
	}
	return nil
}

func doctor(ctx context.Context, g *globals, r *ui.DoctorReport) {
	dir, err := g.memoryDir()
	if err != nil {
		r.Add("memory", ui.CheckFail, err.Error(), "cairn init --claude (in the project's folder)")
		return
	}
	m, err := g.openDir(ctx, dir)
	if err != nil {
		r.Add("memory", ui.CheckFail, err.Error(), "see the error; cairn init repairs a missing skeleton")
		return
	}
	defer m.Close()
	r.Add("memory", ui.CheckOK, m.Dir, "")
	project := filepath.Dir(m.Dir)
	doctorHooks(m, project, g.getenv, r)
	doctorMCP(project, g.getenv, r)
	daemon := client.Status(ctx, m.StatePath(""))
	if daemon.Running {
		r.Add("daemon", ui.CheckOK, fmt.Sprintf("running, pid %d, %s", daemon.PID, daemon.URL), "")
	} else {
		r.Add("daemon", ui.CheckWarn, "not running: captured events wait in the inbox until the next session start (or cairn queue run)", "cairn daemon start")
	}
	doctorQueue(ctx, m, daemon.Running, r)
	doctorIndex(m, daemon.Running, r)
	doctorFUSE(r)
	doctorRemotes(ctx, m, g.getenv, r)
	doctorConflicts(ctx, m, r)
	doctorLinks(ctx, m, r)
}

// doctorLinks names the symbolic links in the memory: cairn does not
// follow them (a link to /proc/self/environ would leak the environment)
// nor commit them, so their content is not memory; a link HEAD records
// would be made by every clone.
func doctorLinks(ctx context.Context, m *memory.Memory, r *ui.DoctorReport) {
	work, committed, err := m.Links(ctx)
	if err != nil {
		r.Add("links", ui.CheckFail, err.Error(), "")
		return
	}
	if len(work)+len(committed) == 0 {
		r.Add("links", ui.CheckOK, "no symbolic links in the memory", "")
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
	r.Add("links", ui.CheckFail, ui.CountOf(len(work)+len(committed), "symbolic link", "symbolic links")+" "+strings.Join(parts, "; "), fix)
}

// doctorConflicts lists the conflict copies syncs left: both versions of
// a memory are kept until someone chooses.
func doctorConflicts(ctx context.Context, m *memory.Memory, r *ui.DoctorReport) {
	cs, err := memsync.Conflicts(ctx, m)
	if err != nil {
		r.Add("conflicts", ui.CheckFail, err.Error(), "")
		return
	}
	if len(cs) == 0 {
		r.Add("conflicts", ui.CheckOK, "no conflict copies", "")
		return
	}
	var names []string
	for _, c := range cs[:min(3, len(cs))] {
		names = append(names, c.Path)
	}
	if len(cs) > 3 {
		names = append(names, fmt.Sprintf("and %d more", len(cs)-3))
	}
	r.Add("conflicts", ui.CheckWarn, fmt.Sprintf("%s from syncs, each beside the version kept: %s", ui.CountOf(len(cs), "conflict copy", "conflict copies"), strings.Join(names, ", ")),
		"cairn resolve (lists them); cairn resolve PATH --keep original|copy|both")
}

// levels are the statuses of hooks' findings.
var levels = map[hooks.Level]string{hooks.OK: ui.CheckOK, hooks.Warn: ui.CheckWarn, hooks.Fail: ui.CheckFail}

func doctorHooks(m *memory.Memory, project string, getenv func(string) string, r *ui.DoctorReport) {
	for _, f := range hooks.Check(project, hooks.CheckOptions{MemoryDir: m.Dir, PromptContext: m.Config.Hooks.PromptContext, Getenv: getenv}) {
		r.Add("hooks", levels[f.Level], f.Detail, f.Fix)
	}
}

func doctorMCP(project string, getenv func(string) string, r *ui.DoctorReport) {
	f := hooks.CheckMCP(project, getenv)
	r.Add("mcp", levels[f.Level], f.Detail, f.Fix)
}

func doctorQueue(ctx context.Context, m *memory.Memory, daemon bool, r *ui.DoctorReport) {
	q, err := capture.Queue(m, watcher.QueueOptions{})
	if err != nil {
		r.Add("queue", ui.CheckFail, err.Error(), "")
		return
	}
	st, err := q.Status(ctx)
	if err != nil {
		r.Add("queue", ui.CheckFail, err.Error(), "")
		return
	}
	detail := fmt.Sprintf("pending %d, processing %d, failed %d", st.Pending, st.Processing, st.Failed)
	switch {
	case st.Failed > 0:
		r.Add("queue", ui.CheckFail, detail+": failed jobs hold captured events that are not in memory", "cairn queue list --state failed; after fixing the cause, cairn queue retry")
	case st.Pending+st.Processing > 0 && st.OldestAge > staleBacklog && daemon:
		r.Add("queue", ui.CheckFail, fmt.Sprintf("%s, the oldest waiting %s although the daemon runs", detail, st.OldestAge.Round(time.Second)), "see .cairn/.state/daemon.log; cairn daemon stop && cairn daemon start")
	case st.Pending+st.Processing > 0 && st.OldestAge > staleBacklog:
		r.Add("queue", ui.CheckWarn, fmt.Sprintf("%s, the oldest waiting %s", detail, st.OldestAge.Round(time.Second)), "cairn queue run, or cairn daemon start")
	default:
		r.Add("queue", ui.CheckOK, detail, "")
	}
}

func doctorIndex(m *memory.Memory, daemon bool, r *ui.DoctorReport) {
	head, err := m.History().Resolve("HEAD")
	if err != nil {
		r.Add("index", ui.CheckFail, "cannot resolve HEAD: "+err.Error(), "")
		return
	}
	version, err := recall.IndexedVersion(m)
	if errors.Is(err, fs.ErrNotExist) {
		r.Add("index", ui.CheckWarn, "no search index yet (the first search builds it)", "cairn reindex")
		return
	}
	if err != nil {
		r.Add("index", ui.CheckFail, "the index's meta.json is unreadable", "cairn reindex")
		return
	}
	switch {
	case version == head:
		r.Add("index", ui.CheckOK, "up to date with "+ui.Short(head), "")
	case daemon:
		r.Add("index", ui.CheckWarn, fmt.Sprintf("at %s, memory at %s (the daemon is catching up)", ui.Short(version), ui.Short(head)), "")
	default:
		r.Add("index", ui.CheckWarn, fmt.Sprintf("at %s, memory at %s: the next search catches up", ui.Short(version), ui.Short(head)), "cairn reindex")
	}
}

func doctorFUSE(r *ui.DoctorReport) {
	if _, err := os.Stat("/dev/fuse"); err != nil {
		r.Add("fuse", ui.CheckWarn, "no /dev/fuse: cairn mount cannot work here", "load the fuse module (modprobe fuse), or in a container pass --device /dev/fuse")
		return
	}
	if os.Geteuid() == 0 {
		r.Add("fuse", ui.CheckOK, "/dev/fuse, running as root", "")
		return
	}
	for _, name := range []string{"fusermount3", "fusermount"} {
		if p, err := exec.LookPath(name); err == nil {
			r.Add("fuse", ui.CheckOK, "/dev/fuse and "+p, "")
			return
		}
	}
	r.Add("fuse", ui.CheckWarn, "no fusermount3 on PATH: cairn mount needs it when not run as root", "install fuse3 (apt install fuse3, dnf install fuse3)")
}

func doctorRemotes(ctx context.Context, m *memory.Memory, getenv func(string) string, r *ui.DoctorReport) {
	remotes, err := memsync.Remotes(m)
	if err != nil {
		r.Add("remotes", ui.CheckFail, err.Error(), "fix it with git config --file .cairn/.git/config")
		return
	}
	if len(remotes) == 0 {
		r.Add("remotes", ui.CheckOK, "none (memory stays on this machine)", "")
		return
	}
	for _, rm := range remotes {
		if err := memsync.Reach(ctx, m, rm.Name, getenv); err != nil {
			r.Add("remotes", ui.CheckFail, fmt.Sprintf("%s (%s) unreachable: %s", rm.Name, memory.RedactURL(rm.URL), ui.OneLine(err.Error())), "check the network and credentials, or cairn remote remove "+rm.Name)
			continue
		}
		r.Add("remotes", ui.CheckOK, fmt.Sprintf("%s (%s) reachable", rm.Name, memory.RedactURL(rm.URL)), "")
	}
}
