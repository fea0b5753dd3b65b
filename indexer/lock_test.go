package indexer

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestHelperHoldIndex is not a test: run by TestLockedAcrossProcesses in a
// child process, it opens the index named by INDEXER_HOLD, says "ready",
// and holds it until its standard input closes.
func TestHelperHoldIndex(t *testing.T) {
	dir := os.Getenv("INDEXER_HOLD")
	if dir == "" {
		t.Skip("helper process only")
	}
	ix, err := Open(context.Background(), dir, Options{})
	if err != nil {
		fmt.Println("error:", err)
		os.Exit(1)
	}
	if err := ix.Put(context.Background(), corpus()...); err != nil {
		fmt.Println("error:", err)
		os.Exit(1)
	}
	fmt.Println("ready")
	bufio.NewReader(os.Stdin).ReadString('\n')
	ix.Close()
	os.Exit(0)
}

func holdInChild(t *testing.T, dir string) (*exec.Cmd, func()) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestHelperHoldIndex$")
	cmd.Env = append(os.Environ(), "INDEXER_HOLD="+dir)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil || strings.TrimSpace(line) != "ready" {
		cmd.Process.Kill()
		t.Fatalf("child: %q %v", line, err)
	}
	return cmd, func() { stdin.Close() }
}

func TestLockedAcrossProcesses(t *testing.T) {
	if testing.Short() {
		t.Skip("starts processes")
	}
	ctx := context.Background()
	dir := filepath.Join(t.TempDir(), "index")
	cmd, release := holdInChild(t, dir)

	start := time.Now()
	_, err := Open(ctx, dir, Options{})
	if !errors.Is(err, ErrLocked) {
		t.Fatalf("open while another process holds it: %v", err)
	}
	if d := time.Since(start); d > time.Second {
		t.Errorf("took %v to fail", d)
	}
	if want := fmt.Sprintf("pid %d", cmd.Process.Pid); !strings.Contains(err.Error(), want) {
		t.Errorf("error %q does not say %q", err, want)
	}

	// A waiting Open gets the index once the holder lets go.
	go func() { time.Sleep(100 * time.Millisecond); release() }()
	ix, err := Open(ctx, dir, Options{LockTimeout: 10 * time.Second})
	if err != nil {
		t.Fatalf("open after release: %v", err)
	}
	if ix.Count() != 5 {
		t.Errorf("count %d, want the child's 5", ix.Count())
	}
	ix.Close()
	cmd.Wait()

	// A holder killed outright leaves the lock free and the index usable
	// (its writes were complete, so it is consistent, though not closed).
	cmd, _ = holdInChild(t, dir)
	cmd.Process.Kill()
	cmd.Wait()
	ix, err = Open(ctx, dir, Options{})
	if err != nil {
		t.Fatalf("open after the holder was killed: %v", err)
	}
	defer ix.Close()
	if ix.Count() != 5 || len(search(t, ix, Query{Text: "migrations"})) == 0 {
		t.Errorf("after kill: count %d", ix.Count())
	}
}
