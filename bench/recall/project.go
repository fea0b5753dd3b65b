package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// scratch is a temporary home and project folder for one project's run.
type scratch struct {
	root string
	paths
	// binDir, when set, goes first on PATH: a user who installed a
	// program runs it from there.
	binDir string
}

func newScratch(prefix string) (*scratch, error) {
	root, err := os.MkdirTemp("", prefix)
	if err != nil {
		return nil, err
	}
	// Paths are compared as text (placeholders): no symbolic links in them.
	if root, err = filepath.EvalSymlinks(root); err != nil {
		return nil, err
	}
	s := &scratch{root: root, paths: paths{home: filepath.Join(root, "home"), project: filepath.Join(root, "project")}}
	for _, d := range []string{s.home, s.project} {
		if err := os.Mkdir(d, 0o755); err != nil {
			return nil, err
		}
	}
	return s, nil
}

func (s *scratch) remove() { os.RemoveAll(s.root) }

// keep moves the project to dir/name, and the home, which holds Claude
// Code's transcripts, to dir/name.home when home is set: the memory is
// what explains a pack, to read with git.
func (s *scratch) keep(dir, name string, home bool) error {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("keep the scratch project: %w", err)
	}
	moves := [][2]string{{s.project, filepath.Join(dir, name)}}
	if home {
		moves = append(moves, [2]string{s.home, filepath.Join(dir, name+".home")})
	}
	for _, m := range moves {
		os.RemoveAll(m[1])
		if err := os.Rename(m[0], m[1]); err != nil {
			return fmt.Errorf("keep the scratch project: %w", err)
		}
	}
	return nil
}

// env is the environment of every process run for the project: its own
// home, no cairn or Claude settings from the caller, a fixed git identity.
func (s *scratch) env(extra ...string) []string {
	var out []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		switch {
		case k == "HOME", k == "CLAUDE_PROJECT_DIR", k == "CLAUDECODE",
			strings.HasPrefix(k, "CAIRN_"), strings.HasPrefix(k, "ANTHROPIC_"),
			strings.HasPrefix(k, "CLAUDE_CODE_"), strings.HasPrefix(k, "GIT_"), strings.HasPrefix(k, "XDG_"):
			continue
		}
		out = append(out, kv)
	}
	out = append(out, "HOME="+s.home,
		"GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null",
		"GIT_AUTHOR_NAME=bench", "GIT_AUTHOR_EMAIL=bench@example.com",
		"GIT_COMMITTER_NAME=bench", "GIT_COMMITTER_EMAIL=bench@example.com")
	if s.binDir != "" {
		out = append(out, "PATH="+s.binDir+string(os.PathListSeparator)+os.Getenv("PATH"))
	}
	return append(out, extra...)
}

// setup writes the scenario's fixture files into the project and makes it
// a git repository with them committed, as a project a user works in is.
func (s *scratch) setup(ctx context.Context, sc *Scenario) error {
	for _, f := range sc.Files {
		name := filepath.Join(s.project, filepath.FromSlash(f.Path))
		if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
			return fmt.Errorf("fixture %s: %w", f.Path, err)
		}
		if err := os.WriteFile(name, []byte(f.Content), 0o644); err != nil {
			return fmt.Errorf("fixture %s: %w", f.Path, err)
		}
	}
	for _, args := range [][]string{
		{"init", "-q", "-b", "main"},
		{"add", "-A"},
		{"commit", "-q", "--allow-empty", "-m", "fixtures of " + sc.Project},
	} {
		if err := s.run(ctx, "git", args...); err != nil {
			return err
		}
	}
	return nil
}

// output runs a command in the project and returns what it printed on
// stdout; its stderr says why it failed.
func (s *scratch) output(ctx context.Context, name string, args ...string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = s.project
	cmd.Env = s.env()
	out, err := cmd.Output()
	if ee, ok := err.(*exec.ExitError); ok {
		return nil, fmt.Errorf("%s %s: %w: %s", name, strings.Join(args, " "), err, strings.TrimSpace(string(ee.Stderr)))
	}
	if err != nil {
		return nil, fmt.Errorf("%s %s: %w", name, strings.Join(args, " "), err)
	}
	return out, nil
}

// run runs a command in the project and says what it printed if it fails.
func (s *scratch) run(ctx context.Context, name string, args ...string) error {
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = s.project
	cmd.Env = s.env()
	out, err := cmd.CombinedOutput()
	if err != nil {
		return fmt.Errorf("%s %s: %w: %s", name, strings.Join(args, " "), err, strings.TrimSpace(string(out)))
	}
	return nil
}
