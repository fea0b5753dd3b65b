package watcher

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"sync"
	"testing"
	"time"
)

// The test binary doubles as the other processes of the tests: with
// WATCHER_HELPER set, it runs that helper instead of the tests.
func TestMain(m *testing.M) {
	h := os.Getenv("WATCHER_HELPER")
	if h == "" {
		os.Exit(m.Run())
	}
	if err := runHelper(h); err != nil {
		fmt.Fprintln(os.Stderr, "helper:", err)
		os.Exit(1)
	}
	os.Exit(0)
}

func runHelper(name string) error {
	ctx := context.Background()
	switch name {
	case "claim-all":
		// Claim and finish jobs until none is left, printing their ids.
		q, err := OpenQueue(os.Getenv("WATCHER_INBOX"), os.Getenv("WATCHER_ROOT"), QueueOptions{Settle: -1})
		if err != nil {
			return err
		}
		out := bufio.NewWriter(os.Stdout)
		defer out.Flush()
		for {
			j, err := q.Claim(ctx)
			if errors.Is(err, ErrEmpty) {
				return nil
			}
			if err != nil {
				return err
			}
			fmt.Fprintln(out, j.ID)
			if err := q.Done(j); err != nil {
				return err
			}
		}
	case "claim-hang":
		// Claim one job, say which, and wait to be killed.
		q, err := OpenQueue(os.Getenv("WATCHER_INBOX"), os.Getenv("WATCHER_ROOT"), QueueOptions{Settle: -1})
		if err != nil {
			return err
		}
		j, err := q.Claim(ctx)
		if err != nil {
			return err
		}
		fmt.Println(j.ID)
		time.Sleep(time.Minute)
		return errors.New("not killed")
	case "append":
		// Append numbered lines stamped with the wall clock to a file, one
		// per interval; a line per stdin line when the interval is 0.
		f, err := os.OpenFile(os.Getenv("WATCHER_FILE"), os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
		if err != nil {
			return err
		}
		defer f.Close()
		n, _ := strconv.Atoi(os.Getenv("WATCHER_N"))
		every, _ := time.ParseDuration(os.Getenv("WATCHER_EVERY"))
		in := bufio.NewReader(os.Stdin)
		for i := range n {
			if every > 0 {
				time.Sleep(every)
			} else if _, err := in.ReadString('\n'); err != nil {
				return nil
			}
			if _, err := fmt.Fprintf(f, `{"uuid":"u%d","t":%d}`+"\n", i, time.Now().UnixNano()); err != nil {
				return err
			}
		}
		return nil
	}
	return fmt.Errorf("unknown helper %q", name)
}

// helper starts the test binary as a helper process reading stdin (which
// may be nil).
func helper(t testing.TB, name string, stdin io.Reader, env ...string) (*exec.Cmd, io.Reader) {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe)
	cmd.Env = append(append(os.Environ(), "WATCHER_HELPER="+name), env...)
	cmd.Stderr = os.Stderr
	cmd.Stdin = stdin
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	})
	return cmd, out
}

// clock is a settable clock for queues.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func newClock() *clock { return &clock{t: time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)} }

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *clock) Add(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

// testQueue opens a queue in a temporary memory folder.
func testQueue(t testing.TB, opts QueueOptions) (*Queue, string) {
	t.Helper()
	mem := t.TempDir()
	q, err := OpenQueue(filepath.Join(mem, "inbox"), filepath.Join(mem, ".state", "queue"), opts)
	if err != nil {
		t.Fatal(err)
	}
	return q, mem
}

// ls returns the names in dir, hidden ones included.
func ls(t testing.TB, dir string) []string {
	t.Helper()
	es, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range es {
		out = append(out, e.Name())
	}
	return out
}
