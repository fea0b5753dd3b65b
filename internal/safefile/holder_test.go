package safefile

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// contend takes and lets go of the lock name n times, each time waiting at
// most a millisecond or two and holding it for a moment, and calls report
// with the error of each attempt that gave up.
func contend(name string, n, seed int, report func(error)) {
	for i := 0; i < n; i++ {
		unlock, err := Lock(context.Background(), name, time.Duration(1+(seed+i)%2)*time.Millisecond)
		if err != nil {
			report(err)
			continue
		}
		time.Sleep(time.Duration((seed*7+i)%300) * time.Microsecond)
		unlock()
	}
}

// TestHelperContend is not a test: TestLockTimeoutNamesHolder runs it in
// child processes, which contend for the lock SAFEFILE_CONTEND names and
// print each timeout's holder and error on a line.
func TestHelperContend(t *testing.T) {
	name := os.Getenv("SAFEFILE_CONTEND")
	if name == "" {
		t.Skip("helper process only")
	}
	seed, _ := strconv.Atoi(os.Getenv("SAFEFILE_SEED"))
	out := bufio.NewWriter(os.Stdout)
	var mu sync.Mutex
	contend(name, 100, seed, func(err error) {
		var le *LockedError
		h := "<not a LockedError>"
		if errors.As(err, &le) {
			h = le.Holder
		}
		mu.Lock()
		fmt.Fprintf(out, "timeout\t%s\t%s\n", h, err)
		mu.Unlock()
	})
	out.Flush()
	os.Exit(0)
}

// TestLockTimeoutNamesHolder (issue 12, item 13): a waiter that gives up
// always says who holds the lock. Lockers in several processes and on
// separate file descriptors in this one contend for one lock with short
// timeouts; every timeout error names a holder ("pid …"), or says the
// holder is unknown, and none has an empty "()". Before, a waiter that
// gave up between a holder's flock and the write of its name (or after
// the holder's truncate at unlock) read an empty file.
func TestLockTimeoutNamesHolder(t *testing.T) {
	if testing.Short() {
		t.Skip("starts processes")
	}
	name := filepath.Join(t.TempDir(), "lock")
	var (
		mu                       sync.Mutex
		errs                     []string
		timeouts, unknown, named int
	)
	check := func(holder, msg string) {
		mu.Lock()
		defer mu.Unlock()
		timeouts++
		switch {
		case strings.Contains(msg, "()") || holder == "":
			errs = append(errs, msg)
		case strings.HasPrefix(holder, "pid "):
			named++
		case strings.HasPrefix(holder, "holder unknown"):
			unknown++
		default:
			errs = append(errs, "holder "+holder+": "+msg)
		}
	}
	var wg sync.WaitGroup
	for p := 0; p < 3; p++ {
		cmd := exec.Command(os.Args[0], "-test.run=^TestHelperContend$")
		cmd.Env = append(os.Environ(), "SAFEFILE_CONTEND="+name, "SAFEFILE_SEED="+strconv.Itoa(p))
		stdout, _ := cmd.StdoutPipe()
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			sc := bufio.NewScanner(stdout)
			for sc.Scan() {
				f := strings.SplitN(sc.Text(), "\t", 3)
				if len(f) == 3 {
					check(f[1], f[2])
				}
			}
			cmd.Wait()
		}()
	}
	for g := 0; g < 6; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			contend(name, 100, 10+g, func(err error) {
				var le *LockedError
				if !errors.As(err, &le) {
					check("", "not a LockedError: "+err.Error())
					return
				}
				check(le.Holder, err.Error())
			})
		}()
	}
	wg.Wait()
	t.Logf("%d timeouts: %d named the holder, %d said it was unknown", timeouts, named, unknown)
	if timeouts == 0 {
		t.Skip("no lock attempt timed out: nothing to check")
	}
	for i, e := range errs {
		if i == 10 {
			t.Errorf("… and %d more", len(errs)-10)
			break
		}
		t.Errorf("timeout without a holder: %s", e)
	}
	if unknown*10 > timeouts {
		t.Errorf("%d of %d timeouts did not know the holder", unknown, timeouts)
	}
}
