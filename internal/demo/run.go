package demo

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/cairn-mem/cairn/internal/memory"
)

// Cairn runs one cairn command line (without the program's name) in the
// demo's project, writing what it prints to stdout. cmd/cairn gives it:
// the demo's steps are cairn's own commands.
type Cairn func(ctx context.Context, stdout io.Writer, args ...string) error

// Options are where the demo writes and how it runs cairn.
type Options struct {
	Stdout, Stderr io.Writer
	Cairn          Cairn
	Keep           bool // the project stays after the demo: say where
}

// Run runs the demo's steps on the project p: each step's title, the
// command line a person would type, and what it printed.
func Run(ctx context.Context, p *Project, opts Options) error {
	items, err := Items()
	if err != nil {
		return err
	}
	out := opts.Stdout
	project := p.Dir
	step := func(title, cmdline string) {
		fmt.Fprintf(out, "\n== %s\n$ %s\n", title, cmdline)
	}
	cairn := func(args ...string) error { return opts.Cairn(ctx, out, args...) }
	fmt.Fprintf(out, "A temporary project with a git repository (code at %s): %s\n", short(p.Commit), project)

	step("Create the memory repository", "cairn init")
	if err := cairn("init"); err != nil {
		return err
	}
	step("Remember what the agent learned", "cairn remember --kind KIND --tag TAG ... TEXT")
	var ids []string
	for _, it := range items {
		args := []string{"remember", "--kind", it.Kind, "--title", it.Title, "--importance", strconv.FormatFloat(it.Importance, 'g', -1, 64)}
		for _, t := range it.Tags {
			args = append(args, "--tag", t)
		}
		fmt.Fprintf(out, "%-10s %q -> ", it.Kind, it.Title)
		var idb strings.Builder
		if err := opts.Cairn(ctx, &idb, append(args, "--", it.Body)...); err != nil {
			return err
		}
		id := strings.TrimSpace(idb.String())
		ids = append(ids, id)
		fmt.Fprintln(out, id)
	}
	step("List the memory", "cairn list")
	if err := cairn("list"); err != nil {
		return err
	}
	step("Name this point in time", "cairn tag baseline")
	if err := cairn("tag", "baseline"); err != nil {
		return err
	}
	fmt.Fprintln(out, "tagged HEAD as baseline")

	step("A person edits a file by hand, and forgets another item", "$EDITOR .cairn/core/facts/...; cairn forget ID")
	var shown bytes.Buffer
	if err := opts.Cairn(ctx, &shown, "show", "--json", ids[1]); err != nil {
		return err
	}
	var it struct {
		Path string `json:"path"`
	}
	if err := json.Unmarshal(shown.Bytes(), &it); err != nil {
		return fmt.Errorf("demo: cairn show --json: %w", err)
	}
	if err := EditByHand(filepath.Join(project, memory.DirName, filepath.FromSlash(it.Path))); err != nil {
		return err
	}
	if err := cairn("forget", ids[3]); err != nil {
		return err
	}
	step("What the next checkpoint will commit", "cairn status")
	if err := cairn("status"); err != nil {
		return err
	}
	step("Checkpoint it", `cairn checkpoint -m "note: integration database moved"`)
	if err := cairn("checkpoint", "-m", "note: integration database moved"); err != nil {
		return err
	}
	step("The history, with the code commit of each checkpoint", "cairn log")
	if err := cairn("log"); err != nil {
		return err
	}
	step("What changed since the baseline", "cairn diff baseline --stat && cairn diff baseline")
	if err := cairn("diff", "--stat", "--color", "never", "baseline"); err != nil {
		return err
	}
	if err := cairn("diff", "--color", "never", "baseline"); err != nil {
		return err
	}
	step("Bring the baseline back, as a new checkpoint", "cairn restore baseline")
	if err := cairn("restore", "baseline"); err != nil {
		return err
	}
	if err := cairn("log", "-n", "2"); err != nil {
		return err
	}
	step("An agent session is captured: prompts, transcript, observations, summary, decisions", "cairn ingest ~/.claude/projects/.../3f1c9a52-....jsonl")
	if err := cairn("ingest", p.Transcript); err != nil {
		return err
	}
	step("Search the whole memory", `cairn search "why was the retry test flaky"`)
	if err := cairn("search", "-k", "3", "--mode", "hybrid", "why was the retry test flaky"); err != nil {
		return err
	}
	step("What an agent receives when its next session starts", "cairn context --budget-tokens 800")
	if err := cairn("context", "--budget-tokens", "800", "--format", "markdown"); err != nil {
		return err
	}
	step("Any git client reads it", "git -C .cairn log --oneline && git -C .cairn status --short")
	if gitPath, err := exec.LookPath("git"); err == nil {
		cmd := exec.CommandContext(ctx, gitPath, "-C", memory.DirName, "log", "--oneline")
		cmd.Dir = project
		cmd.Stdout, cmd.Stderr = out, opts.Stderr
		if err := cmd.Run(); err != nil {
			return fmt.Errorf("git log: %w", err)
		}
		cmd = exec.CommandContext(ctx, gitPath, "-C", memory.DirName, "status", "--short")
		cmd.Dir = project
		cmd.Stdout, cmd.Stderr = out, opts.Stderr
		if err := cmd.Run(); err != nil {
			return fmt.Errorf("git status: %w", err)
		}
		fmt.Fprintln(out, "(git status: clean)")
	} else {
		fmt.Fprintln(out, "(git is not installed here; the memory is a plain git repository all the same)")
	}
	if opts.Keep {
		fmt.Fprintf(out, "\nThe demo project is kept at %s\n", project)
	} else {
		fmt.Fprintln(out, "\nDone. Run `cairn demo --keep` to keep the project and explore it with git.")
	}
	return nil
}

// short is a commit's id as the demo prints it (internal/ui's Short).
func short(h string) string {
	if len(h) > 10 {
		return h[:10]
	}
	return h
}
