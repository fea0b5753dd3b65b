package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// bench runs the rows of one invocation.
type bench struct {
	config
	ctx        context.Context
	floorRSS   float64 // MiB: a daemon on an empty memory, idle
	lastMemory string  // the last generated memory's project folder, for the hook
}

// budget is the time after which a row stops taking more runs (it has at
// least three).
const budget = 20 * time.Second

func (b *bench) header() {
	fmt.Printf("%-7s %-44s %12s  %-28s %12s %8s  %s\n", "files", "row", "measured", "baseline", "base", "ratio", "target")
}

// row prints one measured figure next to its baseline.
func (b *bench) row(files, name string, v float64, unit, base string, bv float64, target string) {
	ratio := "-"
	if bv > 0 {
		ratio = fmt.Sprintf("%.2f", v/bv)
	}
	fmt.Printf("%-7s %-44s %9.1f %-2s  %-28s %9.1f %-2s %8s  %s\n", files, name, v, unit, base, bv, unit, ratio, target)
}

// cmd returns cairn run with args in project folder p.
func (b *bench) cmd(p string, args ...string) *exec.Cmd {
	if p != "" {
		args = append([]string{"-C", p}, args...)
	}
	c := exec.CommandContext(b.ctx, b.cairn, args...)
	c.Env = append(os.Environ(), "CAIRN_DIR=", "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null",
		"CAIRN_AUTHOR_NAME=bench", "CAIRN_AUTHOR_EMAIL=bench@example.com")
	return c
}

// timed runs c and returns its wall time.
func timed(c *exec.Cmd) (time.Duration, error) {
	var stderr bytes.Buffer
	if c.Stderr == nil {
		c.Stderr = &stderr
	}
	start := time.Now()
	err := c.Run()
	took := time.Since(start)
	if err != nil {
		return took, fmt.Errorf("%s: %w: %s", strings.Join(c.Args, " "), err, stderr.Bytes())
	}
	return took, nil
}

// median runs the command made by mk up to b.runs times (at least three,
// fewer than b.runs when they take longer than budget), each after setup
// when it is not nil, and returns the median wall time in milliseconds.
func (b *bench) median(setup func(i int) error, mk func(i int) *exec.Cmd) (float64, error) {
	var ts []float64
	start := time.Now()
	for i := 0; i < b.runs && (i < 3 || time.Since(start) < budget); i++ {
		if setup != nil {
			if err := setup(i); err != nil {
				return 0, err
			}
		}
		d, err := timed(mk(i))
		if err != nil {
			return 0, err
		}
		ts = append(ts, float64(d.Microseconds())/1000)
	}
	return medianOf(ts), nil
}

func medianOf(ts []float64) float64 {
	slices.Sort(ts)
	n := len(ts)
	if n%2 == 1 {
		return ts[n/2]
	}
	return (ts[n/2-1] + ts[n/2]) / 2
}

// mutate changes one session file and adds one core item, as
// bench/checkpoint.sh does.
func mutate(mem string, i int) error {
	sessions, err := filepath.Glob(filepath.Join(mem, "sessions", "*", "observations.md"))
	if err != nil || len(sessions) == 0 {
		return fmt.Errorf("mutate %s: no session files", mem)
	}
	f, err := os.OpenFile(sessions[i%len(sessions)], os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		return err
	}
	fmt.Fprintf(f, "- observation %d: ran go test ./... (exit 0)\n", i)
	if err := f.Close(); err != nil {
		return err
	}
	item := fmt.Sprintf("---\nkind: decision\ntitle: bench %d\n---\nbody\n", i)
	return os.WriteFile(filepath.Join(mem, "core", "decisions", fmt.Sprintf("bench-%d--01JDXK3V9M2Q7Y8Z4T6R5W%04d.md", i, i)), []byte(item), 0o644)
}

// vm is what /proc/PID/status says of a process's memory, in MiB.
type vm struct {
	rss, hwm, anon, file float64 // VmRSS, VmHWM, RssAnon, RssFile
}

func procStatus(pid int) (vm, error) {
	var v vm
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return v, err
	}
	for _, line := range strings.Split(string(data), "\n") {
		f := strings.Fields(line)
		if len(f) < 2 {
			continue
		}
		kb, _ := strconv.ParseFloat(f[1], 64)
		switch f[0] {
		case "VmRSS:":
			v.rss = kb / 1024
		case "VmHWM:":
			v.hwm = kb / 1024
		case "RssAnon:":
			v.anon = kb / 1024
		case "RssFile:":
			v.file = kb / 1024
		}
	}
	return v, nil
}

func loadavg() string {
	data, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "?"
	}
	return strings.Join(strings.Fields(string(data))[:3], " ")
}

var pidRE = regexp.MustCompile(`pid (\d+)`)

// startDaemon starts a daemon on project p and returns its pid.
func (b *bench) startDaemon(p string) (int, error) {
	out, err := b.cmd(p, "daemon", "start").Output()
	if err != nil {
		return 0, fmt.Errorf("daemon start in %s: %w", p, err)
	}
	m := pidRE.FindSubmatch(out)
	if m == nil {
		return 0, fmt.Errorf("daemon start in %s: no pid in %q", p, out)
	}
	return strconv.Atoi(string(m[1]))
}

func (b *bench) stopDaemon(p string) error {
	return b.cmd(p, "daemon", "stop").Run()
}

// daemonRSS starts a daemon on p without a search index, has it build
// the index with a first search, and returns the first search's wall
// time and the daemon's memory once idle (VmHWM: its peak, while it
// indexed).
func (b *bench) daemonRSS(p string) (took time.Duration, v vm, err error) {
	if err := os.RemoveAll(filepath.Join(p, ".cairn", ".state", "index")); err != nil {
		return 0, v, err
	}
	pid, err := b.startDaemon(p)
	if err != nil {
		return 0, v, err
	}
	defer b.stopDaemon(p)
	took, err = timed(b.cmd(p, "search", "queue worker"))
	if err != nil {
		return 0, v, err
	}
	// Idle: a few seconds after the last request, time enough for a
	// daemon that returns memory to have done so. VmHWM is read then:
	// the daemon may go on indexing after it answers.
	time.Sleep(5 * time.Second)
	v, err = procStatus(pid)
	return took, v, err
}

// daemonFloor measures the daemon on an empty memory: the baseline of
// the RSS rows.
func (b *bench) daemonFloor() error {
	p := filepath.Join(b.work, "empty")
	if err := os.MkdirAll(filepath.Join(p, ".cairn"), 0o755); err != nil {
		return err
	}
	if _, err := generate(b.ctx, p, 0, 1); err != nil {
		return err
	}
	_, v, err := b.daemonRSS(p)
	if err != nil {
		return fmt.Errorf("daemon on an empty memory: %w", err)
	}
	b.floorRSS = v.rss
	return os.RemoveAll(p)
}

// size measures the rows of one generated memory of n files.
func (b *bench) size(n int) error {
	files := strconv.Itoa(n)
	p := filepath.Join(b.work, "p-"+files)
	mem := filepath.Join(p, ".cairn")
	start := time.Now()
	text, err := generate(b.ctx, p, n, 1)
	if err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "scale: generated %s files (%.0f MB of Markdown) in %.0f s\n", files, float64(text)/1e6, time.Since(start).Seconds())
	b.lastMemory = p

	version, err := b.median(nil, func(int) *exec.Cmd { return b.cmd("", "version") })
	if err != nil {
		return err
	}
	// list and context: one untimed run first, as a user's second command
	// finds the page cache and .state.
	if err := b.cmd(p, "list").Run(); err != nil {
		return fmt.Errorf("cairn list: %w", err)
	}
	list, err := b.median(nil, func(int) *exec.Cmd { return b.cmd(p, "list") })
	if err != nil {
		return err
	}
	b.row(files, "cairn list", list, "ms", "cairn version", version, "<= 300 ms")

	// Cold context: the first in a fresh process after a checkpoint
	// changed one file and added one (what .state keeps must catch up);
	// the files are in the page cache (dropping it needs root and slows
	// every other process). Warm: the same command again.
	cold, err := b.median(func(i int) error {
		if err := mutate(mem, 100+i); err != nil {
			return err
		}
		return b.cmd(p, "checkpoint", "-m", "bench").Run()
	}, func(int) *exec.Cmd { return b.cmd(p, "context") })
	if err != nil {
		return err
	}
	warmMed, err := b.median(nil, func(int) *exec.Cmd { return b.cmd(p, "context") })
	if err != nil {
		return err
	}
	b.row(files, "cairn context, no daemon, cold", cold, "ms", "cairn version", version, "<= 100 ms")
	b.row(files, "cairn context, no daemon, warm", warmMed, "ms", "cairn version", version, "<= 100 ms")

	// First index build, by the command line, against SQLite FTS5 on the
	// same Markdown files.
	c := b.cmd(p, "reindex", "--json")
	var out bytes.Buffer
	c.Stdout = &out
	took, err := timed(c)
	if err != nil {
		return err
	}
	var st struct{ Chunks int }
	if err := json.Unmarshal(out.Bytes(), &st); err != nil || st.Chunks == 0 {
		return fmt.Errorf("cairn reindex --json: no chunks in %q", out.Bytes())
	}
	maxrss := float64(c.ProcessState.SysUsage().(*syscall.Rusage).Maxrss) / 1024
	fts, err := b.fts5(mem)
	if err != nil {
		return err
	}
	rate := float64(st.Chunks) / took.Seconds()
	ftsRate := float64(st.Chunks) / fts.Seconds()
	b.row(files, fmt.Sprintf("first index build, %d chunks (chunks/s)", st.Chunks), rate, "/s", "sqlite3 FTS5, same files", ftsRate, ">= 1.0 (>= 6,000/s)")
	b.row(files, "  its wall time", took.Seconds()*1000, "ms", "sqlite3 FTS5", float64(fts.Microseconds())/1000, "")
	b.row(files, "  cairn reindex peak RSS (getrusage)", maxrss, "Mi", "", 0, "")

	// The daemon builds the index itself on the first search.
	dtook, v, err := b.daemonRSS(p)
	if err != nil {
		return err
	}
	b.row(files, "daemon RSS, idle after indexing", v.rss, "Mi", "daemon, empty memory", b.floorRSS, "<= 200 MiB")
	b.row(files, "  of which anonymous (RssAnon)", v.anon, "Mi", "", 0, "")
	b.row(files, "  of which mapped files (RssFile)", v.file, "Mi", "", 0, "")
	b.row(files, "daemon RSS, peak while indexing (VmHWM)", v.hwm, "Mi", "daemon, empty memory", b.floorRSS, "<= 300 MiB")
	b.row(files, "  first search through it, building", dtook.Seconds()*1000, "ms", "", 0, "")
	return nil
}

// fts5 indexes the Markdown files under mem with SQLite FTS5 through the
// sqlite3 command-line tool, reading the files itself, and returns the
// wall time.
func (b *bench) fts5(mem string) (time.Duration, error) {
	db := filepath.Join(b.work, "fts5.db")
	os.Remove(db)
	defer os.Remove(db)
	sql := "CREATE VIRTUAL TABLE t USING fts5(path, body);\n"
	for _, dir := range []string{"core", "sessions", "archive"} {
		if _, err := os.Stat(filepath.Join(mem, dir)); err == nil {
			sql += "INSERT INTO t SELECT name, CAST(readfile(name) AS TEXT) FROM fsdir('" + dir + "') WHERE name LIKE '%.md';\n"
		}
	}
	c := exec.CommandContext(b.ctx, "sqlite3", db)
	c.Dir = mem
	c.Stdin = strings.NewReader(sql)
	return timed(c)
}
