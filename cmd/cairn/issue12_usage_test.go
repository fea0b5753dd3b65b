package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spf13/cobra"
)

// Issue 12, item 21: outside a memory the error names the absolute
// folder, however it was given.
func TestNoMemoryNamesAbsoluteFolder(t *testing.T) {
	t.Parallel()
	wd, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	os.Mkdir(filepath.Join(wd, "sub"), 0o755)
	for _, c := range []struct {
		e    env
		args []string
		want string
	}{
		{nil, []string{"list"}, wd},
		{nil, []string{"-C", "sub", "list"}, filepath.Join(wd, "sub")},
		{env{"CAIRN_DIR": "sub"}, []string{"list"}, filepath.Join(wd, "sub")},
	} {
		var out, errb bytes.Buffer
		proc := process{getwd: func() (string, error) { return wd, nil }, getenv: c.e.getenv,
			stdin: strings.NewReader(""), stdout: &out, stderr: &errb}
		code := run(context.Background(), proc, c.args)
		msg := errb.String()
		if code != exitError || strings.Count(msg, "\n") != 1 || !strings.Contains(msg, c.want+":") && !strings.Contains(msg, c.want+")") ||
			!strings.Contains(msg, "no cairn memory") {
			t.Errorf("cairn %s (env %v): exit %d, %q; want the folder %s", strings.Join(c.args, " "), c.e, code, msg, c.want)
		}
	}
}

// Issue 12, item 21: a usage error points to the help of the command that
// was misused, for every command.
func TestUsageErrorPointsToSubcommandHelp(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	var walk func(c *cobra.Command)
	n := 0
	walk = func(c *cobra.Command) {
		for _, sub := range c.Commands() {
			walk(sub)
		}
		if c.DisableFlagParsing || c.Name() == "help" || c.Name() == "completion" {
			return
		}
		n++
		path := strings.Fields(c.CommandPath())[1:]
		r := cairn(t, dir, "", append(path, "--no-such-flag")...)
		want := fmt.Sprintf("cairn: unknown flag: --no-such-flag\nRun '%s --help' for usage.\n", c.CommandPath())
		if r.code != exitUsage || r.stderr != want {
			t.Errorf("%s --no-such-flag: exit %d, %q; want %q", c.CommandPath(), r.code, r.stderr, want)
		}
	}
	walk(newRootCommand(&globals{}))
	if n < 30 {
		t.Fatalf("only %d commands checked", n)
	}
	// A wrong number of arguments too.
	fails(t, dir, 2, "takes 0 argument(s)", "queue", "extra")
	if r := cairn(t, dir, "", "queue", "extra"); !strings.HasSuffix(r.stderr, "Run 'cairn queue --help' for usage.\n") {
		t.Errorf("queue extra: %q", r.stderr)
	}
}
