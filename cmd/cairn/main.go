// Command cairn is a memory sidecar for AI coding agents: it keeps a
// project's agent memory as Markdown files in a git repository (.cairn/)
// and makes every checkpoint a commit.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"runtime/pprof"
	"slices"
	"strings"
	"syscall"

	"github.com/cairn-mem/cairn/internal/memory"
	"github.com/cairn-mem/cairn/internal/memory/catalog"
	"github.com/cairn-mem/cairn/internal/model"
	"github.com/cairn-mem/cairn/internal/server"
	"github.com/cairn-mem/cairn/internal/service"
	"github.com/cairn-mem/cairn/internal/ui"
	"github.com/spf13/cobra"
)

func main() {
	// CAIRN_CPUPROFILE=FILE writes a CPU profile, for finding where a slow
	// command spends its time.
	if name := os.Getenv("CAIRN_CPUPROFILE"); name != "" {
		if f, err := os.Create(name); err == nil {
			pprof.StartCPUProfile(f)
			defer pprof.StopCPUProfile()
		}
	}
	shortGC()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	proc := process{getwd: os.Getwd, getenv: os.Getenv, stdin: os.Stdin, stdout: os.Stdout, stderr: os.Stderr}
	proc.self, _ = os.Executable()
	code := run(ctx, proc, os.Args[1:])
	stop()
	pprof.StopCPUProfile()
	os.Exit(code)
}

// A command lives for milliseconds and allocates most of what it needs up
// front (a stat cache of 100,000 entries is 10 MB): collecting garbage
// less often is cheaper than collecting it at all. The daemon lives for
// hours: `cairn daemon run` sets its own (server.DaemonGC), as does an
// index build (indexer.GCForBuild).
const (
	// shortGCPercent is the GC percent until the first collection: the
	// runtime's first goal is 4 MB times it over 100, so 64 MB, which a
	// pack at 100,000 files stays under (its one collection, at 16 MB,
	// cost a cold pack 3-5 ms of CPU). A command that grows past it
	// collects then and from there on at commandGCPercent.
	shortGCPercent = 1600
	// commandGCPercent is the GC percent of a command once it collected:
	// its heap may grow to five times what it keeps.
	commandGCPercent = 400
)

// shortGC sets the collector of a short command: none until the heap
// reaches 64 MB, then at commandGCPercent. The first collection runs a
// cleanup that lowers the percent, unless something set its own since
// (a daemon, an index build), which it leaves; it is held off until the
// command is known (settleHeap), whose heap may be put in huge pages by
// a collection of its own.
func shortGC() {
	debug.SetGCPercent(shortGCPercent)
	firstGC = new([64]byte) // not a tiny allocation, whose cleanup may never run
	runtime.AddCleanup(firstGC, func(struct{}) { settleGC() }, struct{}{})
}

// firstGC is the object whose collection settles a short command's GC
// percent, kept reachable until settleHeap; nil in tests, which run
// commands without main.
var firstGC *[64]byte

// settleHeap puts the heap of a short command (cmd with args) on a
// large memory in huge pages, then lets the first collection settle the
// GC percent.
func settleHeap(g *globals, cmd *cobra.Command, args []string) {
	if firstGC == nil {
		return
	}
	if shortCommand(cmd, args) && largeMemory(g) {
		hugeHeap()
	}
	firstGC = nil
}

// largeCore is the size of the core items' catalogue from which a
// command's heap is worth putting in huge pages: about 2,000 core items.
// A pack at 10,000 files (500 core items, 150 KB) lost 2.4 ms of CPU by
// it, one at 100,000 (5,000, 1.4 MB) won 11.
const largeCore = 512 << 10

// largeMemory tells whether the project's memory is large: its
// catalogue of core items is, as the last command left it.
func largeMemory(g *globals) bool {
	dir, err := g.memoryDir()
	if err != nil {
		return false
	}
	fi, err := os.Stat(filepath.Join(dir, memory.StateDir, catalog.FileName(string(model.LayerCore))))
	return err == nil && fi.Size() >= largeCore
}

// hugeHeapCommands are the commands whose heap is put in huge pages on
// a large memory: those that read the catalogue, the packs' caches or
// the index and exit; of the hooks, those that make a pack. Not a
// long-running one (a daemon, the MCP server, the web viewer, the
// mounted view, an index build): the kernel's khugepaged would fill its
// sparse regions, and the daemon's memory is measured (issue 15).
var hugeHeapCommands = map[string]bool{"context": true, "search": true, "list": true, "session": true, "stale": true, "stats": true}

// packHooks are the hook events that make a pack.
var packHooks = []string{"session-start", "user-prompt-submit"}

// shortCommand tells whether cmd, or the command it is a subcommand of,
// is one of hugeHeapCommands, or cmd is a hook of packHooks (args).
func shortCommand(cmd *cobra.Command, args []string) bool {
	if !cmd.HasParent() {
		return false
	}
	for cmd.Parent().HasParent() {
		cmd = cmd.Parent()
	}
	if cmd.Name() == "hook" {
		return slices.ContainsFunc(args, func(a string) bool { return slices.Contains(packHooks, a) })
	}
	return hugeHeapCommands[cmd.Name()]
}

// settleGC lowers a short command's opening GC percent to
// commandGCPercent, and leaves any other setting (a daemon's, a running
// build's) as it is.
func settleGC() {
	if p := debug.SetGCPercent(commandGCPercent); p != shortGCPercent {
		debug.SetGCPercent(p)
	}
}

// Exit codes, decided here and nowhere else.
const (
	exitOK    = 0
	exitError = 1
	exitUsage = 2
)

// usageError marks a mistake in how a command was called.
type usageError struct{ err error }

func (e usageError) Error() string { return e.err.Error() }
func (e usageError) Unwrap() error { return e.err }

func usagef(format string, args ...any) error { return usageError{fmt.Errorf(format, args...)} }

// process is what a command line takes from the process that runs it:
// its working directory, its environment and its standard streams. main
// fills it from package os; tests fill it themselves, so that they can
// run side by side without changing the process's working directory or
// environment. cairn never changes either.
type process struct {
	getwd          func() (string, error) // the working directory, asked once
	getenv         func(string) string
	stdin          io.Reader
	stdout, stderr io.Writer
	self           string // this binary, which hooks start the daemon with; "" (tests) starts none
}

// run executes one cairn command line and returns the exit code.
func run(ctx context.Context, p process, args []string) int {
	g := &globals{getwd: p.getwd, getenv: p.getenv, stdin: p.stdin, stdout: p.stdout, stderr: p.stderr, self: p.self}
	stderr := p.stderr
	root := newRootCommand(g)
	root.SetArgs(args)
	root.SetIn(p.stdin)
	root.SetOut(p.stdout)
	root.SetErr(p.stderr)
	cmd, err := root.ExecuteContextC(ctx)
	if err == nil {
		return exitOK
	}
	var ue usageError
	msg := ui.OneLine(err.Error())
	if errors.As(err, &ue) || strings.HasPrefix(msg, "unknown command") || strings.HasPrefix(msg, "unknown flag") {
		// The help of the command that was misused, not the root's.
		path := "cairn"
		if cmd != nil {
			path = cmd.CommandPath()
		}
		fmt.Fprintf(stderr, "cairn: %s\nRun '%s --help' for usage.\n", msg, path)
		return exitUsage
	}
	fmt.Fprintf(stderr, "cairn: %s\n", msg)
	if errors.Is(err, server.ErrRunning) {
		return service.ExitRunning // a daemon serves the memory already
	}
	return exitError
}

func newRootCommand(g *globals) *cobra.Command {
	root := &cobra.Command{
		Use:   "cairn",
		Short: "Memory for AI coding agents, kept in git",
		Long: `cairn keeps a project's agent memory as Markdown files in a git repository
inside the project (.cairn/). Every checkpoint is a commit: inspect it with
git log, restore any point in time, and sync it like code.`,
		SilenceUsage:  true,
		SilenceErrors: true,
		PersistentPreRunE: func(cmd *cobra.Command, args []string) error {
			if err := g.resolveDir(); err != nil {
				return err
			}
			settleHeap(g, cmd, args)
			return nil
		},
	}
	root.PersistentFlags().StringVarP(&g.chdir, "dir", "C", "", "run as if cairn was started in `DIR`")
	root.SetFlagErrorFunc(func(c *cobra.Command, err error) error { return usageError{err} })
	root.AddCommand(
		newInitCommand(g),
		newRememberCommand(g),
		newShowCommand(g),
		newListCommand(g),
		newForgetCommand(g),
		newPromoteCommand(g),
		newStaleCommand(g),
		newEditCommand(g),
		newCheckpointCommand(g),
		newStatusCommand(g),
		newLogCommand(g),
		newDiffCommand(g),
		newRestoreCommand(g),
		newTagCommand(g),
		newSearchCommand(g),
		newContextCommand(g),
		newReindexCommand(g),
		newIngestCommand(g),
		newSessionCommand(g),
		newQueueCommand(g),
		newStatsCommand(g),
		newDaemonCommand(g),
		newUICommand(g),
		newMCPCommand(g),
		newHookCommand(g),
		newDoctorCommand(g),
		newMountCommand(g),
		newUmountCommand(g),
		newRemoteCommand(g),
		newSyncCommand(g),
		newResolveCommand(g),
		newVerifyCommand(g),
		newGCCommand(g),
		newKeysCommand(g),
		newPurgeCommand(g),
		newMigrateCommand(g),
		newShareCommand(g),
		newDemoCommand(g),
		newVersionCommand(g),
	)
	return root
}

// Argument checks that report usage errors.
func exactArgs(n int) cobra.PositionalArgs { return rangeArgs(n, n) }

func rangeArgs(lo, hi int) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		switch {
		case len(args) >= lo && len(args) <= hi:
			return nil
		case lo == hi:
			return usagef("%s takes %d argument(s), got %d", cmd.CommandPath(), lo, len(args))
		}
		return usagef("%s takes %d to %d arguments, got %d", cmd.CommandPath(), lo, hi, len(args))
	}
}
