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
	"runtime/pprof"
	"slices"
	"strings"
	"syscall"

	"github.com/cairn-mem/cairn/internal/memory"
	"github.com/cairn-mem/cairn/internal/memory/catalog"
	"github.com/cairn-mem/cairn/internal/model"
	_ "github.com/cairn-mem/cairn/internal/prefault" // the heap's first pages in one call: see its doc
	"github.com/cairn-mem/cairn/internal/server"
	"github.com/cairn-mem/cairn/internal/service"
	"github.com/cairn-mem/cairn/internal/shortheap"
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
	settle := shortheap.Start()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	proc := process{getwd: os.Getwd, getenv: os.Getenv, stdin: os.Stdin, stdout: os.Stdout, stderr: os.Stderr, settle: settle}
	proc.self, _ = os.Executable()
	code := run(ctx, proc, os.Args[1:])
	stop()
	pprof.StopCPUProfile()
	os.Exit(code)
}

// hugeHeap tells whether cmd, with args, is worth a heap in huge pages
// (shortheap.Reads) on this memory: a large one, by its core catalogue
// as the last command left it.
func hugeHeap(g *globals, cmd *cobra.Command, args []string) bool {
	path := strings.Fields(cmd.CommandPath()) // cairn, the command, its subcommand
	if len(path) < 2 || !shortheap.Reads(path[1], args) {
		return false
	}
	dir, err := g.memoryDir()
	return err == nil && shortheap.Large(filepath.Join(dir, memory.StateDir, catalog.FileName(string(model.LayerCore))))
}

// bulletArgs takes the bullet off each argument of `cairn outdated` that
// is a line of a list ("- Deploys go out every Monday"), as a pack's line
// is: the flag parser read one as a run of one-letter flags (" ", "D",
// ...). Other commands, -C's folder and what follows "--" are left alone.
func bulletArgs(args []string) []string {
	out, cmd := slices.Clone(args), ""
	for i, a := range out {
		switch {
		case a == "--":
			return out
		case i > 0 && (out[i-1] == "-C" || out[i-1] == "--dir"):
		case cmd == "" && !strings.HasPrefix(a, "-"):
			cmd = a
		case cmd == "outdated" && len(a) > 1 && a[0] == '-' && (a[1] == ' ' || a[1] == '\t'):
			out[i] = strings.TrimLeft(a[1:], " \t")
		}
	}
	return out
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
	// settle ends a short command's opening GC settings once the command
	// is known (shortheap.Start); nil in tests, which run commands in
	// their own process.
	settle func(huge func() bool)
}

// run executes one cairn command line and returns the exit code.
func run(ctx context.Context, p process, args []string) int {
	g := &globals{getwd: p.getwd, getenv: p.getenv, stdin: p.stdin, stdout: p.stdout, stderr: p.stderr, self: p.self, settle: p.settle}
	stderr := p.stderr
	root := newRootCommand(g)
	root.SetArgs(bulletArgs(args))
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
			if g.settle != nil {
				g.settle(func() bool { return hugeHeap(g, cmd, args) })
			}
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
		newOutdatedCommand(g),
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
