package server

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/cairn-mem/cairn/internal/client"
)

// shortBackoff keeps the restart tests quick; nothing asserts on speed.
func shortBackoff() Backoff {
	// A long Max: it is also how long a run must last to count as
	// healthy, and these parts fail after runs of unknown length.
	return Backoff{Min: 10 * time.Millisecond, Max: time.Minute}
}

// healthy asserts that the daemon at url answers its health check.
func healthy(t *testing.T, url, when string) {
	t.Helper()
	resp, err := http.Get(url + "/api/health")
	if err != nil {
		t.Fatalf("health %s: %v", when, err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("health %s: %s", when, resp.Status)
	}
}

// A part that fails twice and then runs is run again each time, while
// the daemon keeps serving, and the log names it with each failure.
func TestDaemonRestartsAFailingPart(t *testing.T) {
	runs := make(chan int)
	fail := make(chan struct{})
	stopped := make(chan struct{})
	n := 0
	flaky := ServiceFunc(func(ctx context.Context) error {
		n++
		select {
		case runs <- n:
		case <-ctx.Done():
			return nil
		}
		if n <= 2 {
			<-fail
			return fmt.Errorf("flaky run %d: the disk went away", n)
		}
		<-ctx.Done()
		close(stopped)
		return ctx.Err()
	})
	var log logBuffer
	d := &Daemon{Mem: newMemory(t), Log: log.logger(), Backoff: shortBackoff(), Parts: []Part{{"flaky", flaky}}}
	// The last run is stopped by the daemon's shutdown in serveDaemon's
	// cleanup, which runs before this one and checks that Serve returns
	// nil.
	t.Cleanup(func() {
		select {
		case <-stopped:
		default:
			t.Error("the part's last run did not see the daemon stop")
		}
	})
	url, _ := serveDaemon(t, d)
	for i := 1; i <= 2; i++ {
		if got := <-runs; got != i {
			t.Fatalf("run %d, want %d", got, i)
		}
		healthy(t, url, fmt.Sprintf("while the part runs the %d. time", i))
		fail <- struct{}{}
	}
	if got := <-runs; got != 3 {
		t.Fatalf("run %d, want 3", got)
	}
	healthy(t, url, "after the part failed twice")
	out := log.String()
	for _, want := range []string{"part=flaky", "flaky run 1: the disk went away", "flaky run 2: the disk went away", "failures=2"} {
		if !strings.Contains(out, want) {
			t.Errorf("daemon log lacks %q:\n%s", want, out)
		}
	}
}

// A part that panics is recovered and run again; the daemon and its
// memory operations go on.
func TestDaemonRecoversAPanickingPart(t *testing.T) {
	reran := make(chan struct{})
	n := 0
	panicky := ServiceFunc(func(ctx context.Context) error {
		n++
		if n == 1 {
			var m map[string]int
			//lint:ignore SA5000 the bug this test recovers from
			m["nil map"]++ // a bug, not a deliberate panic(...)
		}
		close(reran)
		<-ctx.Done()
		return nil
	})
	var log logBuffer
	d := &Daemon{Mem: newMemory(t), Log: log.logger(), Backoff: shortBackoff(), Parts: []Part{{"panicky", panicky}}}
	url, token := serveDaemon(t, d)
	select {
	case <-reran:
	case <-time.After(20 * time.Second):
		t.Fatal("the panicking part was not run again")
	}
	healthy(t, url, "after a part panicked")
	out := log.String()
	for _, want := range []string{"part=panicky", "panic: assignment to entry in nil map", "stack=", "TestDaemonRecoversAPanickingPart"} {
		if !strings.Contains(out, want) {
			t.Errorf("daemon log lacks %q:\n%s", want, out)
		}
	}
	// A checkpoint through the API still takes the operation lock.
	req, _ := http.NewRequest("POST", url+"/api/checkpoint", strings.NewReader(`{"message":"after a panic"}`))
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Errorf("checkpoint after a panic: %s", resp.Status)
	}
}

// Cancelling ctx stops every part, Serve returns nil, and the daemon
// leaves no address, pid or lock behind: a new daemon starts at once.
func TestDaemonShutdownStopsEveryPart(t *testing.T) {
	m := newMemory(t) // closed by the second daemon's cleanup
	const parts = 3
	started := make(chan struct{}, parts)
	stopped := make(chan string, parts)
	var ps []Part
	for i := range parts {
		name := fmt.Sprintf("part%d", i)
		ps = append(ps, Part{name, ServiceFunc(func(ctx context.Context) error {
			started <- struct{}{}
			<-ctx.Done()
			stopped <- name
			return ctx.Err()
		})})
	}
	var log logBuffer
	d := &Daemon{Mem: m, Log: log.logger(), Parts: ps}
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan error, 1)
	go func() { done <- d.Serve(ctx) }()
	for range parts {
		<-started
	}
	a, err := os.ReadFile(m.Store().StatePath(client.AddrFile))
	if err != nil {
		t.Fatal(err)
	}
	url := strings.TrimSpace(string(a))
	healthy(t, url, "before shutdown")
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("Serve: %v", err)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("Serve did not return after ctx was cancelled")
	}
	if len(stopped) != parts {
		t.Errorf("%d of %d parts stopped", len(stopped), parts)
	}
	if _, err := http.Get(url + "/api/health"); err == nil {
		t.Errorf("the daemon still answers after Serve returned")
	}
	for _, f := range []string{client.AddrFile, client.PIDFile} {
		if _, err := os.Stat(m.Store().StatePath(f)); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("%s left after shutdown: %v", f, err)
		}
	}
	if strings.Contains(log.String(), "restarting") {
		t.Errorf("a part was restarted during shutdown:\n%s", log.String())
	}
	again := &Daemon{Mem: m}
	serveDaemon(t, again)
}

// An address in use fails the start with an error that names it, before
// any part runs: binding is not retried like a part's failure.
func TestDaemonListenFailureFailsTheStart(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	m := newMemory(t)
	defer m.Close()
	ran := false
	d := &Daemon{Mem: m, Addr: l.Addr().String(), Parts: []Part{{"never", ServiceFunc(func(ctx context.Context) error {
		ran = true
		return nil
	})}}}
	err = d.Serve(t.Context())
	if err == nil || !strings.Contains(err.Error(), "listen on "+l.Addr().String()) {
		t.Errorf("Serve on an address in use: %v, want a listen error naming it", err)
	}
	if ran {
		t.Errorf("a part ran although the daemon did not start")
	}
	if _, err := os.Stat(m.Store().StatePath(client.PIDFile)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("pid file after a failed start: %v", err)
	}
}

// brokenListener fails every Accept for good, as a listener whose socket
// was closed under it does.
type brokenListener struct{ net.Listener }

func (brokenListener) Accept() (net.Conn, error) {
	return nil, errors.New("accept: broken for the test")
}

// When serving fails, the HTTP part binds the same address again, so
// clients that read .state/addr find it.
func TestHTTPServerRebindsTheSameAddress(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	var log logBuffer
	mux := http.NewServeMux()
	mux.HandleFunc("GET /ok", func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("ok")) })
	sup := &Supervisor{
		Log:     log.logger(),
		Backoff: shortBackoff(),
		Parts:   []Part{{"http", &httpServer{handler: mux, l: brokenListener{l}, addr: addr}}},
	}
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan error)
	go func() { done <- sup.Serve(ctx) }()
	waitFor(t, "the HTTP part to serve again on "+addr, func() bool {
		resp, err := http.Get("http://" + addr + "/ok")
		if err != nil {
			return false
		}
		resp.Body.Close()
		return resp.StatusCode == http.StatusOK
	})
	cancel()
	if err := <-done; err != nil {
		t.Errorf("Serve: %v", err)
	}
	if out := log.String(); !strings.Contains(out, "part=http") || !strings.Contains(out, "broken for the test") {
		t.Errorf("log does not report the HTTP failure:\n%s", out)
	}
	if _, err := http.Get("http://" + addr + "/ok"); err == nil {
		t.Errorf("the HTTP part still serves after shutdown")
	}
}

// A panic under the operation lock does not leave it held.
func TestOpLockReleasedOnPanic(t *testing.T) {
	var ops opLock
	func() {
		defer func() { recover() }()
		ops.do(func() { panic("boom") })
	}()
	if !ops.mu.TryLock() {
		t.Fatal("the operation lock is still held after a panic")
	}
}
