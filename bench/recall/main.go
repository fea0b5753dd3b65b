package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strings"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	err := run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	stop()
	if err != nil {
		var u usageError
		if errors.As(err, &u) {
			fmt.Fprintln(os.Stderr, "recall:", err)
			os.Exit(2)
		}
		fmt.Fprintln(os.Stderr, "recall:", err)
		os.Exit(1)
	}
}

type usageError struct{ error }

func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	if len(args) > 0 {
		switch args[0] {
		case "hook-record": // the recording hook, run by Claude Code
			if len(args) != 2 {
				return usageError{errors.New("usage: recall hook-record LOG")}
			}
			return hookRecord(args[1], stdin)
		case "record":
			return runRecord(ctx, args[1:], stderr)
		case "trial":
			return runTrial(ctx, args[1:], stdout, stderr)
		}
	}
	return runBench(ctx, args, stdout, stderr)
}

func runRecord(ctx context.Context, args []string, stderr io.Writer) error {
	fs := flag.NewFlagSet("record", flag.ContinueOnError)
	fs.SetOutput(stderr)
	tools := toolFlags(fs)
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: recall record [-claude CLI] [-fake fake_anthropic.py] testdata/recall/PROJECT...")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return usageError{err}
	}
	if fs.NArg() == 0 {
		fs.Usage()
		return usageError{errors.New("record: name the projects to record")}
	}
	self, err := os.Executable()
	if err != nil {
		return err
	}
	r := &recorder{self: self,
		warn: func(s string) { fmt.Fprintln(stderr, "warning:", s) },
		log:  func(s string) { fmt.Fprintln(stderr, s) },
	}
	if err := tools(r); err != nil {
		return err
	}
	for _, dir := range fs.Args() {
		sc, err := LoadScenario(filepath.Clean(dir), r.warn)
		if err != nil {
			return err
		}
		if err := r.record(ctx, sc); err != nil {
			return err
		}
		fmt.Fprintf(stderr, "%s: recorded into %s\n", sc.Project, filepath.Join(dir, "recorded"))
	}
	return nil
}

// toolFlags registers -claude and -fake on fs; the function it returns,
// called once fs is parsed, finds the two for r.
func toolFlags(fs *flag.FlagSet) func(r *recorder) error {
	claude := fs.String("claude", "", "the Claude Code CLI (default: $CLAUDE_BIN, then claude on $PATH)")
	fake := fs.String("fake", "", "fake_anthropic.py (default: ../shared/tools/fake-anthropic/ beside the module)")
	return func(r *recorder) (err error) {
		if r.claude, err = findClaude(*claude); err != nil {
			return err
		}
		r.fake, err = findFake(*fake)
		return err
	}
}

func findClaude(flagged string) (string, error) {
	for _, c := range []string{flagged, os.Getenv("CLAUDE_BIN")} {
		if c == "" {
			continue
		}
		if _, err := os.Stat(c); err == nil {
			return c, nil
		} else if c == flagged {
			return "", fmt.Errorf("-claude %s: %w", c, err)
		}
	}
	if p, err := exec.LookPath("claude"); err == nil {
		return p, nil
	}
	return "", errors.New("no Claude Code CLI: install it (npm install @anthropic-ai/claude-code in a temporary folder) and pass -claude node_modules/.bin/claude")
}

func findFake(flagged string) (string, error) {
	if flagged != "" {
		if _, err := os.Stat(flagged); err != nil {
			return "", fmt.Errorf("-fake: %w", err)
		}
		return flagged, nil
	}
	root, err := moduleRoot()
	if err != nil {
		return "", err
	}
	c := filepath.Join(root, "..", "shared", "tools", "fake-anthropic", "fake_anthropic.py")
	if _, err := os.Stat(c); err == nil {
		return c, nil
	}
	return "", errors.New("no fake_anthropic.py beside the module (../shared/tools/fake-anthropic/): pass -fake PATH")
}

// moduleRoot is the folder of go.mod, found from the working directory up.
func moduleRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for d := dir; ; d = filepath.Dir(d) {
		if data, err := os.ReadFile(filepath.Join(d, "go.mod")); err == nil && strings.Contains(string(data), "module github.com/cairn-mem/cairn\n") {
			return d, nil
		}
		if filepath.Dir(d) == d {
			return "", fmt.Errorf("%s is not inside cairn's module: run from the checkout", dir)
		}
	}
}
