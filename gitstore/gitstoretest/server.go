package gitstoretest

import (
	"fmt"
	"net"
	"net/http"
	"net/http/cgi"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/go-git/go-git/v5/plumbing/transport/client"
	githttp "github.com/go-git/go-git/v5/plumbing/transport/http"
)

// Daemon is a git daemon on 127.0.0.1 serving the bare repositories in
// Root, with pushing allowed.
type Daemon struct {
	Root string
	Port int
	cmd  *exec.Cmd
}

// URL returns the git:// URL of the repository name under Root.
func (d *Daemon) URL(name string) string { return fmt.Sprintf("git://127.0.0.1:%d/%s", d.Port, name) }

// Kill stops the daemon at once (SIGKILL, to the whole process group, so
// that a receive-pack in the middle of a push dies too).
func (d *Daemon) Kill() {
	if d.cmd != nil && d.cmd.Process != nil {
		_ = syscallKill(-d.cmd.Process.Pid)
		d.cmd.Wait()
		d.cmd = nil
	}
}

// Restart starts a stopped daemon again on the same port.
func (d *Daemon) Restart(t testing.TB) {
	t.Helper()
	d.Kill()
	d.start(t)
}

// StartDaemon runs git daemon for the test; it is killed at the end.
func StartDaemon(t testing.TB) *Daemon {
	t.Helper()
	d := &Daemon{Root: t.TempDir()}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	d.Port = l.Addr().(*net.TCPAddr).Port
	l.Close()
	d.start(t)
	t.Cleanup(d.Kill)
	return d
}

func (d *Daemon) start(t testing.TB) {
	t.Helper()
	cmd := exec.Command("git", "daemon", "--export-all", "--enable=receive-pack", "--reuseaddr",
		"--listen=127.0.0.1", fmt.Sprintf("--port=%d", d.Port), "--base-path="+d.Root, d.Root)
	cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1")
	setpgid(cmd)
	if err := cmd.Start(); err != nil {
		t.Fatalf("git daemon: %v", err)
	}
	d.cmd = cmd
	deadline := time.Now().Add(10 * time.Second)
	for {
		c, err := net.Dial("tcp", fmt.Sprintf("127.0.0.1:%d", d.Port))
		if err == nil {
			c.Close()
			return
		}
		if time.Now().After(deadline) {
			d.Kill()
			t.Fatalf("git daemon did not start on port %d: %v", d.Port, err)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// Bare makes an empty bare repository name under root, whose branch is
// main, and returns its path.
func Bare(t testing.TB, root, name string) string {
	t.Helper()
	dir := filepath.Join(root, name)
	out, err := exec.Command("git", "init", "-q", "--bare", "-b", "main", dir).CombinedOutput()
	if err != nil {
		t.Fatalf("git init --bare: %v\n%s", err, out)
	}
	return dir
}

// HTTPServer serves the bare repositories under root with git
// http-backend behind net/http/cgi, on loopback. When token is not empty
// every request must carry it as the basic-auth password.
func HTTPServer(t testing.TB, root, token string) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(backend(t, root, token))
	t.Cleanup(srv.Close)
	return srv
}

// HTTPSServer is HTTPServer over TLS, with a certificate of its own that
// go-git's https transport trusts until the test ends (the transport is
// global: tests using it must not run in parallel).
func HTTPSServer(t testing.TB, root, token string) *httptest.Server {
	t.Helper()
	srv := httptest.NewTLSServer(backend(t, root, token))
	client.InstallProtocol("https", githttp.NewClient(srv.Client()))
	t.Cleanup(func() {
		client.InstallProtocol("https", githttp.DefaultClient)
		srv.Close()
	})
	return srv
}

// backend serves the repositories under root with git-http-backend,
// asking for token as the password when it is not empty.
func backend(t testing.TB, root, token string) http.Handler {
	t.Helper()
	exe, err := exec.Command("git", "--exec-path").Output()
	if err != nil {
		t.Fatalf("git --exec-path: %v", err)
	}
	backend := &cgi.Handler{
		Path: filepath.Join(strings.TrimSpace(string(exe)), "git-http-backend"),
		Env: []string{"GIT_PROJECT_ROOT=" + root, "GIT_HTTP_EXPORT_ALL=1", "REMOTE_USER=cairn",
			"GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_COUNT=1", "GIT_CONFIG_KEY_0=http.receivepack", "GIT_CONFIG_VALUE_0=true"},
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if token != "" {
			if _, pw, ok := r.BasicAuth(); !ok || pw != token {
				w.Header().Set("WWW-Authenticate", `Basic realm="git"`)
				http.Error(w, "unauthorized", http.StatusUnauthorized)
				return
			}
		}
		backend.ServeHTTP(w, r)
	})
}
