package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"time"

	"github.com/cairn-mem/cairn/internal/client"
	"github.com/cairn-mem/cairn/internal/memory"
	"github.com/cairn-mem/cairn/internal/recall"
	"github.com/cairn-mem/cairn/internal/ui"
	"github.com/cairn-mem/cairn/internal/usermem"
	"github.com/cairn-mem/cairn/internal/workdir"
)

// globals are the options, folder, environment and streams every
// command shares.
type globals struct {
	chdir string // -C as given
	// dir is the folder commands work in, absolute: -C's folder, else the
	// process's working directory. Every relative path a user gives is
	// taken relative to it, as the process never changes directory.
	dir    string
	getwd  func() (string, error)
	getenv func(string) string
	stdin  io.Reader
	stdout io.Writer
	stderr io.Writer
	self   string                 // this binary, for the daemon a hook starts
	settle func(huge func() bool) // process.settle
}

// resolveDir sets g.dir from -C and the working directory
// (workdir.Resolve); a -C that names no folder is a usage error.
func (g *globals) resolveDir() error {
	dir, err := workdir.Resolve(g.chdir, g.getwd)
	var de *workdir.DirError
	if errors.As(err, &de) {
		return usageError{err}
	}
	g.dir = dir
	return err
}

// path makes a path the user gave absolute: relative paths are relative
// to the folder commands work in, g.dir.
func (g *globals) path(name string) string {
	if filepath.IsAbs(name) {
		return filepath.Clean(name)
	}
	return filepath.Join(g.dir, name)
}

// memoryDir finds the memory (memory.FindEnv); -C overrides CAIRN_DIR.
func (g *globals) memoryDir() (string, error) {
	if g.chdir != "" {
		return memory.Find(g.dir)
	}
	return memory.FindEnv(g.getenv("CAIRN_DIR"), g.dir)
}

// open opens the project's memory.
func (g *globals) open(ctx context.Context) (*memory.Memory, error) {
	dir, err := g.memoryDir()
	if err != nil {
		return nil, err
	}
	return g.openDir(ctx, dir)
}

// withMemory opens the project's memory, hands it to fn and closes it.
func withMemory(ctx context.Context, g *globals, fn func(*memory.Memory) error) error {
	return withMemoryOf(ctx, g, false, fn)
}

// withMemoryOf is withMemory of the user memory when user is set
// (openMemory).
func withMemoryOf(ctx context.Context, g *globals, user bool, fn func(*memory.Memory) error) error {
	m, err := g.openMemory(ctx, user)
	if err != nil {
		return err
	}
	defer m.Close()
	return fn(m)
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
	opts := memory.EnvOptions(g.getenv)
	opts.Warn = g.warn
	opts.UserDir = usermem.Dir(g.getenv)
	return opts
}

// openMemory opens the user memory (usermem), made now if there is none
// yet, when user is set; else the project's.
func (g *globals) openMemory(ctx context.Context, user bool) (*memory.Memory, error) {
	if user {
		return usermem.Open(ctx, usermem.Dir(g.getenv), g.memoryOptions(), true)
	}
	return g.open(ctx)
}

// daemonWait is how long a command waits for the daemon (client.EnvWait).
func (g *globals) daemonWait() time.Duration { return client.EnvWait(g.getenv, g.warn) }

// warn prints a notice on stderr; it does not change the exit code.
func (g *globals) warn(msg string) { fmt.Fprintf(g.stderr, "cairn: %s\n", ui.OneLine(msg)) }
