package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"github.com/cairn-mem/cairn/internal/memory"
	"github.com/cairn-mem/cairn/internal/recall"
)

// globals are the options and streams every command shares.
type globals struct {
	chdir  string
	stdin  io.Reader
	stdout io.Writer
	stderr io.Writer
}

// memoryDir finds the memory the way git finds a repository: CAIRN_DIR,
// else the current folder and its parents.
func (g *globals) memoryDir() (string, error) {
	if d := os.Getenv("CAIRN_DIR"); d != "" && g.chdir == "" {
		for _, c := range []string{d, filepath.Join(d, memory.DirName)} {
			if fi, err := os.Stat(filepath.Join(c, ".git")); err == nil && fi.IsDir() {
				return filepath.Abs(c)
			}
		}
		return "", fmt.Errorf("CAIRN_DIR=%s: %w", d, memory.ErrNoMemory)
	}
	return memory.Find(".")
}

// open opens the project's memory.
func (g *globals) open(ctx context.Context) (*memory.Memory, error) {
	dir, err := g.memoryDir()
	if err != nil {
		return nil, err
	}
	return g.openDir(ctx, dir)
}

// openDir opens the memory in dir, with the search index following its
// checkpoints.
func (g *globals) openDir(ctx context.Context, dir string) (*memory.Memory, error) {
	m, err := memory.Open(ctx, dir, g.memoryOptions())
	if err != nil {
		return nil, err
	}
	recall.Follow(m)
	return m, nil
}

func (g *globals) memoryOptions() memory.Options {
	opts := memory.Options{Warn: g.warn}
	if v := os.Getenv("CAIRN_LOCK_TIMEOUT"); v != "" {
		if d, err := time.ParseDuration(v); err == nil {
			opts.LockTimeout = d
		} else if s, err := strconv.ParseFloat(v, 64); err == nil {
			opts.LockTimeout = time.Duration(s * float64(time.Second))
		}
	}
	return opts
}

// warn prints a notice on stderr; it does not change the exit code.
func (g *globals) warn(msg string) { fmt.Fprintf(g.stderr, "cairn: %s\n", oneLine(msg)) }

// printJSON writes v as indented JSON.
func (g *globals) printJSON(v any) error {
	enc := json.NewEncoder(g.stdout)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}
