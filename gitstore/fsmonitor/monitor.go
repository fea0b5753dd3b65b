package fsmonitor

import (
	"bufio"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/cairn-mem/cairn/gitstore"
	"github.com/cairn-mem/cairn/internal/safefile"
	"github.com/fsnotify/fsnotify"
)

// A Monitor watches a work tree and tells checkpoints in any process which
// paths may have changed since they last looked, so that finding hand
// edits costs what changed instead of a stat of every file: git's
// fsmonitor, for cairn. Its answers are tokens and paths: a checkpoint
// asks "what changed since token T?", scans only those paths, and keeps
// the new token in its stat cache. Without a running monitor, or after an
// event overflow, checkpoints scan everything.
//
// The answer is synchronised with the question by a cookie: the client
// creates a file under .state/fsmonitor/ and the monitor answers only once
// it has read that file's creation event. A single inotify queue delivers
// events in order, so every change made before the question has been
// recorded by then.
type Monitor struct {
	s  *gitstore.Store
	id string // this instance; tokens of another instance mean "scan everything"

	mu       sync.Mutex
	gen      uint64
	changed  map[string]uint64 // repository path (file or folder) -> generation of its last change
	fullFrom uint64            // tokens older than this generation must scan everything
	cookies  map[string]chan struct{}
	watcher  *fsnotify.Watcher
}

// New returns a monitor of s's work tree; Serve runs it.
func New(s *gitstore.Store) *Monitor {
	b := make([]byte, 8)
	rand.Read(b)
	return &Monitor{s: s, id: hex.EncodeToString(b), changed: map[string]uint64{}, cookies: map[string]chan struct{}{}}
}

// Serve watches the work tree and answers queries on .state/fsmonitor.sock
// until ctx is done.
func (m *Monitor) Serve(ctx context.Context) error {
	w, err := fsnotify.NewBufferedWatcher(4096)
	if err != nil {
		return fmt.Errorf("monitor %s: %w", m.s.Dir(), err)
	}
	defer w.Close()
	m.watcher = w
	cookieDir := m.s.StatePath(gitstore.MonitorCookies)
	if err := os.MkdirAll(cookieDir, 0o700); err != nil {
		return fmt.Errorf("monitor %s: %w", m.s.Dir(), err)
	}
	if err := w.Add(cookieDir); err != nil {
		return fmt.Errorf("monitor %s: watch %s: %w", m.s.Dir(), cookieDir, err)
	}
	if err := m.watchTree(""); err != nil {
		return err
	}
	sock := m.s.StatePath(gitstore.MonitorSocket)
	os.Remove(sock) // a socket left by a monitor that died
	l, err := net.Listen("unix", sock)
	if err != nil {
		return fmt.Errorf("monitor %s: %w", m.s.Dir(), err)
	}
	defer os.Remove(sock)
	defer l.Close()
	go func() {
		<-ctx.Done()
		l.Close()
	}()
	var wg sync.WaitGroup
	defer wg.Wait()
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			wg.Add(1)
			go func() {
				defer wg.Done()
				m.answer(ctx, c)
			}()
		}
	}()
	for {
		select {
		case <-ctx.Done():
			return nil
		case ev, ok := <-w.Events:
			if !ok {
				return nil
			}
			m.event(ev)
		case err, ok := <-w.Errors:
			if !ok {
				return nil
			}
			// An overflow or a watch error loses events: everything
			// asked about from before now must be scanned.
			m.mu.Lock()
			m.gen++
			m.fullFrom = m.gen
			m.mu.Unlock()
			m.s.Warn(fmt.Sprintf("monitor %s: %v; the next checkpoint scans everything", m.s.Dir(), err))
		}
	}
}

// watchTree adds watches on dir and every folder below it, skipping .git,
// the state folder and the inbox.
func (m *Monitor) watchTree(dir string) error {
	return filepath.WalkDir(filepath.Join(m.s.Dir(), filepath.FromSlash(dir)), func(name string, d os.DirEntry, err error) error {
		if err != nil {
			if errors.Is(err, os.ErrNotExist) {
				return nil
			}
			return err
		}
		if !d.IsDir() {
			return nil
		}
		rel, _ := filepath.Rel(m.s.Dir(), name)
		if rel != "." && gitstore.Skipped(filepath.ToSlash(rel)) {
			return filepath.SkipDir
		}
		if err := m.watcher.Add(name); err != nil {
			return fmt.Errorf("monitor: watch %s: %w", name, err)
		}
		return nil
	})
}

func (m *Monitor) event(ev fsnotify.Event) {
	rel, err := filepath.Rel(m.s.Dir(), ev.Name)
	if err != nil {
		return
	}
	p := filepath.ToSlash(rel)
	if dir, base := filepath.Split(ev.Name); filepath.Clean(dir) == m.s.StatePath(gitstore.MonitorCookies) {
		if ev.Has(fsnotify.Create) {
			m.cookie(base, true)
		}
		return
	}
	if p == "." || gitstore.Skipped(p) || safefile.IsTemp(filepath.Base(p)) {
		return
	}
	if ev.Has(fsnotify.Create) {
		if fi, err := os.Lstat(ev.Name); err == nil && fi.IsDir() {
			// Files may have appeared in it before its watch: the whole
			// folder is reported, and checkpoints walk it.
			if err := m.watchTree(p); err != nil {
				m.s.Warn(err.Error())
			}
		}
	}
	m.mu.Lock()
	m.gen++
	m.changed[p] = m.gen
	m.mu.Unlock()
}

// answer serves one query: "Q <token> <cookie>" -> "OK <token> <full>"
// followed by one path per line and an empty line.
func (m *Monitor) answer(ctx context.Context, c net.Conn) {
	defer c.Close()
	c.SetDeadline(time.Now().Add(5 * time.Second))
	line, err := bufio.NewReader(c).ReadString('\n')
	if err != nil {
		return
	}
	f := strings.Fields(line)
	if len(f) != 3 || f[0] != "Q" || strings.ContainsAny(f[2], "/\\") {
		fmt.Fprintf(c, "ERR bad query\n")
		return
	}
	// The client created the cookie before asking; wait for its event,
	// which may also have been read already.
	ch := m.cookie(f[2], false)
	defer func() {
		m.mu.Lock()
		delete(m.cookies, f[2])
		m.mu.Unlock()
	}()
	select {
	case <-ch:
	case <-ctx.Done():
		return
	case <-time.After(2 * time.Second):
		fmt.Fprintf(c, "ERR cookie not seen\n")
		return
	}
	m.mu.Lock()
	id, since, ok := parseToken(f[1])
	full := !ok || id != m.id || since < m.fullFrom
	var paths []string
	if !full {
		for p, g := range m.changed {
			if g > since {
				paths = append(paths, p)
			}
		}
	}
	token := fmt.Sprintf("%s:%d", m.id, m.gen)
	m.mu.Unlock()
	w := bufio.NewWriter(c)
	fmt.Fprintf(w, "OK %s %t\n", token, full)
	for _, p := range paths {
		w.WriteString(p + "\n")
	}
	w.WriteString("\n")
	w.Flush()
}

// cookie returns the channel closed when the cookie's event is read,
// closing it when seen is true.
func (m *Monitor) cookie(name string, seen bool) chan struct{} {
	m.mu.Lock()
	defer m.mu.Unlock()
	ch, ok := m.cookies[name]
	if !ok {
		ch = make(chan struct{})
		m.cookies[name] = ch
	}
	if seen {
		select {
		case <-ch:
		default:
			close(ch)
		}
	}
	return ch
}

func parseToken(t string) (id string, gen uint64, ok bool) {
	id, g, found := strings.Cut(t, ":")
	if !found {
		return "", 0, false
	}
	n, err := strconv.ParseUint(g, 10, 64)
	return id, n, err == nil
}
