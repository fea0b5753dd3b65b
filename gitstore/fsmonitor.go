package gitstore

import (
	"bufio"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// The fsmonitor protocol's names under the state folder. A checkpoint is
// the client (askMonitor); gitstore/fsmonitor's Monitor is the server.
const (
	// MonitorSocket is the Unix socket a Monitor answers on: the query
	// "Q <token> <cookie>" gets "OK <token> <full>", then one changed path
	// a line and an empty line.
	MonitorSocket = "fsmonitor.sock"
	// MonitorCookies is the folder where a client creates its cookie file
	// before asking, for the Monitor to answer only once it has read the
	// events that came before the question.
	MonitorCookies = "fsmonitor"
)

// Warn passes a one-line notice to Options.Warn.
func (s *Store) Warn(msg string) { s.warn(msg) }

// Scanned returns how many files the last scan of the work tree looked
// at: what finding changes cost, which a Monitor is there to keep small.
func (s *Store) Scanned() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.wt.scanned
}

// askMonitor asks a running monitor what changed since token. ok is false
// when no monitor answers, and full is true when everything must be
// scanned; either way token is where the next question starts.
func (wt *worktree) askMonitor(since string) (token string, paths []string, full, ok bool) {
	c, err := net.DialTimeout("unix", filepath.Join(wt.state, MonitorSocket), 100*time.Millisecond)
	if err != nil {
		return "", nil, true, false
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(3 * time.Second))
	b := make([]byte, 8)
	rand.Read(b)
	cookie := "cookie-" + hex.EncodeToString(b)
	name := filepath.Join(wt.state, MonitorCookies, cookie)
	if err := os.WriteFile(name, nil, 0o600); err != nil {
		return "", nil, true, false
	}
	defer os.Remove(name)
	if since == "" {
		since = "none:0"
	}
	if _, err := fmt.Fprintf(c, "Q %s %s\n", since, cookie); err != nil {
		return "", nil, true, false
	}
	r := bufio.NewReader(c)
	head, err := r.ReadString('\n')
	f := strings.Fields(head)
	if err != nil || len(f) != 3 || f[0] != "OK" {
		return "", nil, true, false
	}
	for {
		l, err := r.ReadString('\n')
		if err != nil {
			return "", nil, true, false
		}
		if l == "\n" {
			break
		}
		paths = append(paths, strings.TrimSuffix(l, "\n"))
	}
	return f[1], paths, f[2] == "true", true
}
