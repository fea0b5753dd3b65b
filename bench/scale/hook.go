package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// hookRuns is the number of timed runs of the hook and of its baseline.
const hookRuns = 201

// payload is a hook's JSON as Claude Code sends it, about 1.5 KB.
var payload = `{"session_id":"0b8c3f9e-0000-4000-a000-000000000001","transcript_path":"/home/dev/.claude/projects/p/0b8c3f9e.jsonl","cwd":"/home/dev/project","hook_event_name":"PostToolUse","tool_name":"Bash","tool_input":{"command":"go test ./..."},"tool_response":{"stdout":"` + strings.Repeat("ok  \tgithub.com/example/pkg\t0.012s\\n", 40) + `","exit_code":0}}` + "\n"

// hookRows times the capture hook writing a payload into the last
// generated memory's inbox against `sh -c true`, both started the same way
// from Go, and counts the processes the hook starts with strace.
func (b *bench) hookRows() error {
	mem := filepath.Join(b.lastMemory, ".cairn")
	inbox := filepath.Join(mem, "inbox")
	defer os.RemoveAll(inbox)
	hook := func(script string) *exec.Cmd {
		c := exec.CommandContext(b.ctx, "sh", script)
		c.Env = append(os.Environ(), "CAIRN_DIR="+mem)
		c.Stdin = strings.NewReader(payload)
		return c
	}
	scripts := []string{b.hook}
	if b.oldHook != "" {
		scripts = append(scripts, b.oldHook)
	}
	times := make([][]float64, len(scripts))
	var tt []float64
	for range hookRuns { // interleaved, so that load changes hit all alike
		for i, s := range scripts {
			d, err := timed(hook(s))
			if err != nil {
				return err
			}
			times[i] = append(times[i], float64(d.Microseconds())/1000)
		}
		d, err := timed(exec.CommandContext(b.ctx, "sh", "-c", "true"))
		if err != nil {
			return err
		}
		tt = append(tt, float64(d.Microseconds())/1000)
	}
	entries, err := os.ReadDir(inbox)
	if err != nil {
		return err
	}
	if want := hookRuns * len(scripts); len(entries) < want {
		return fmt.Errorf("capture hook: %d files in %s after %d runs", len(entries), inbox, want)
	}
	for i, s := range scripts {
		name := "capture hook"
		if i > 0 {
			name = "capture hook, " + filepath.Base(s)
		}
		b.row("-", name+" p50", medianOf(times[i]), "ms", "sh -c true", medianOf(tt), "<= 5 ms")
		starts, execs, err := b.processStarts(hook(s))
		if err != nil {
			fmt.Fprintf(os.Stderr, "scale: process starts not counted: %v\n", err)
			continue
		}
		b.row("-", fmt.Sprintf("  its process starts (%d programs run)", execs), float64(starts), "", "sh -c true", 1, "<= 2")
	}
	return nil
}

// processStarts runs c under strace and returns how many processes it
// started, itself included, and how many programs it ran (execve calls
// that succeeded).
func (b *bench) processStarts(c *exec.Cmd) (starts, execs int, err error) {
	out := filepath.Join(b.work, "strace.out")
	defer os.Remove(out)
	args := append([]string{"-f", "-qq", "-e", "trace=process", "-o", out}, c.Args...)
	s := exec.CommandContext(b.ctx, "strace", args...)
	s.Env, s.Stdin = c.Env, c.Stdin
	var stderr bytes.Buffer
	s.Stderr = &stderr
	if err := s.Run(); err != nil {
		return 0, 0, fmt.Errorf("strace: %w: %s", err, stderr.Bytes())
	}
	data, err := os.ReadFile(out)
	if err != nil {
		return 0, 0, err
	}
	starts = 1
	for _, line := range strings.Split(string(data), "\n") {
		switch {
		case strings.Contains(line, "execve(") && !strings.Contains(line, "= -1"):
			execs++
		case (strings.Contains(line, "clone(") || strings.Contains(line, "clone3(") || strings.Contains(line, "fork(")) && !strings.Contains(line, "= -1"):
			starts++
		}
	}
	return starts, execs, nil
}
