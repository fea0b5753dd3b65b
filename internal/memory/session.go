package memory

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"time"

	"github.com/cairn-mem/cairn/gitstore"
	"github.com/cairn-mem/cairn/internal/transcript"
	"gopkg.in/yaml.v3"
)

// SessionSchema is the version of session.yaml this package writes.
const SessionSchema = 1

// The files of a session's folder.
const (
	SessionFile      = "session.yaml"
	PromptsFile      = "prompts.md"
	TranscriptFile   = "transcript.md"
	SummaryFile      = "summary.md"
	ObservationsFile = "observations.md"
)

// The folders that hold sessions.
const (
	sessionsRoot = "sessions"
	archiveRoot  = "archive"
)

// ErrNoSession is wrapped by errors about a session that does not exist.
var ErrNoSession = errors.New("no such session")

// SessionStatus is where a session is in its life.
type SessionStatus string

// The statuses of a session: active while the agent works, suspended
// when it ended or someone paused it, archived once moved to archive/.
const (
	StatusActive    SessionStatus = "active"
	StatusSuspended SessionStatus = "suspended"
	StatusArchived  SessionStatus = "archived"
)

// ParseSessionStatus reads a status name.
func ParseSessionStatus(s string) (SessionStatus, error) {
	switch st := SessionStatus(strings.ToLower(strings.TrimSpace(s))); st {
	case StatusActive, StatusSuspended, StatusArchived:
		return st, nil
	}
	return "", fmt.Errorf("unknown session status %q: want active, suspended or archived", s)
}

// The agents a session can come from.
const (
	AgentClaudeCode = "claude-code"
	AgentCodex      = "codex"
	AgentChat       = "chat"
	AgentMarkdown   = "markdown"
)

// Session is a session's session.yaml: who and what it is, where it
// stands, and how far its transcripts were captured and summarised. See
// docs/capture.md for the file format.
type Session struct {
	Schema int    `yaml:"schema"`
	ID     string `yaml:"id"` // the agent's session id; the folder's name
	// MemorySession is cairn's own id for the session (a ULID): the
	// summarizer resumes with it, and it stays the same when the agent
	// session id is reused by another tool.
	MemorySession string        `yaml:"memory_session"`
	Agent         string        `yaml:"agent"`
	Status        SessionStatus `yaml:"status"`
	Title         string        `yaml:"title,omitempty"`
	Project       string        `yaml:"project,omitempty"` // the agent's working folder
	Branch        string        `yaml:"branch,omitempty"`
	Model         string        `yaml:"model,omitempty"`
	Prompts       int           `yaml:"prompts"`
	Turns         int           `yaml:"turns"`
	Started       time.Time     `yaml:"started"`
	Updated       time.Time     `yaml:"updated"`
	LastActivity  time.Time     `yaml:"last_activity"`
	Progress      Progress      `yaml:"progress"`
	// Variables are a long-running workflow's named values (cairn session
	// set KEY=VALUE).
	Variables  map[string]string `yaml:"variables,omitempty"`
	Summarized SummaryMark       `yaml:"summarized"`
	// Sources say how far each transcript was captured.
	Sources []Source `yaml:"sources,omitempty"`
	// Hooks are the keys of the last hook payloads applied without a
	// transcript, newest last, so that one delivered twice counts once.
	Hooks []string `yaml:"hooks,omitempty"`

	extra []*yaml.Node // keys this package does not know, kept on rewrite
}

// Progress counts the steps of a long-running task.
type Progress struct {
	Done  int `yaml:"done"`
	Total int `yaml:"total"`
}

// SummaryMark says how much of a session summary.md covers.
type SummaryMark struct {
	Segments int    `yaml:"segments"`          // sections written
	Turns    int    `yaml:"turns"`             // turns summarised
	Through  string `yaml:"through,omitempty"` // key of the last turn summarised
}

// Source is a transcript captured into a session, and how far.
type Source struct {
	Name   string `yaml:"name"`             // the transcript's file name: the source's identity
	Path   string `yaml:"path,omitempty"`   // where it was read last
	Format string `yaml:"format,omitempty"` // claude, codex, chat, markdown
	Offset int64  `yaml:"offset"`           // events of lines before this offset are captured
	First  string `yaml:"first,omitempty"`  // id of its first event: another file under the same name starts over
	Last   string `yaml:"last,omitempty"`   // id of the last event captured
}

// maxHookKeys bounds Session.Hooks.
const maxHookKeys = 200

// SessionEntry is a session and where it lives.
type SessionEntry struct {
	*Session
	Dir string // repository path of its folder: sessions/<id> or archive/<yyyy>/<mm>/<id>
}

// File returns the repository path of one of the session's files.
func (e *SessionEntry) File(name string) string { return e.Dir + "/" + name }

// Archived reports whether the session lives in archive/.
func (e *SessionEntry) Archived() bool { return strings.HasPrefix(e.Dir, archiveRoot+"/") }

// checkSessionID refuses session ids that are unsafe as folder names.
func checkSessionID(id string) error {
	return transcript.ValidateSessionID(id)
}

// activeDir is where a live session's folder is.
func activeDir(id string) string { return sessionsRoot + "/" + id }

// archiveDirFor is where a session whose last activity was at t is
// archived.
func archiveDirFor(id string, t time.Time) string {
	t = t.UTC()
	return fmt.Sprintf("%s/%04d/%02d/%s", archiveRoot, t.Year(), int(t.Month()), id)
}

// lastSeen is when a session last showed activity: its last event, or
// the last time cairn or a person changed it, whichever is later.
func (s *Session) lastSeen() time.Time {
	if s.Updated.After(s.LastActivity) {
		return s.Updated
	}
	return s.LastActivity
}

// newSession makes the session.yaml of a session seen for the first time.
func newSession(id, agent string, now time.Time) *Session {
	now = now.UTC().Truncate(time.Second)
	return &Session{
		Schema:        SessionSchema,
		ID:            id,
		MemorySession: NewID(now),
		Agent:         agent,
		Status:        StatusActive,
		Started:       now,
		Updated:       now,
		LastActivity:  now,
	}
}

// parseSession reads a session.yaml. name is for error messages.
func parseSession(name string, data []byte) (*Session, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	s := &Session{}
	if len(doc.Content) == 0 {
		return nil, fmt.Errorf("%s: empty session file", name)
	}
	root := doc.Content[0]
	if root.Kind != yaml.MappingNode {
		return nil, fmt.Errorf("%s:%d: want a mapping of session keys", name, root.Line)
	}
	if err := root.Decode(s); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	known := knownSessionKeys()
	for i := 0; i+1 < len(root.Content); i += 2 {
		if !known[root.Content[i].Value] {
			s.extra = append(s.extra, root.Content[i], root.Content[i+1])
		}
	}
	if s.Schema == 0 {
		s.Schema = SessionSchema
	}
	if s.Schema > SessionSchema {
		return nil, fmt.Errorf("%s: session schema %d is newer than this cairn reads (%d)", name, s.Schema, SessionSchema)
	}
	if s.Status == "" {
		s.Status = StatusActive
	}
	return s, nil
}

// knownSessionKeys are the keys Session has fields for.
func knownSessionKeys() map[string]bool {
	keys := map[string]bool{}
	for _, f := range []string{
		"schema", "id", "memory_session", "agent", "status", "title", "project", "branch", "model",
		"prompts", "turns", "started", "updated", "last_activity", "progress", "variables",
		"summarized", "sources", "hooks",
	} {
		keys[f] = true
	}
	return keys
}

// marshal writes session.yaml: a comment, the known keys in a fixed
// order, then the keys someone else added.
func (s *Session) marshal() ([]byte, error) {
	var n yaml.Node
	if err := n.Encode(s); err != nil {
		return nil, fmt.Errorf("encode session %s: %w", s.ID, err)
	}
	n.Content = append(n.Content, s.extra...)
	n.HeadComment = "cairn session: written by cairn; variables and progress may be edited by hand"
	var b bytes.Buffer
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	if err := enc.Encode(&n); err != nil {
		return nil, fmt.Errorf("encode session %s: %w", s.ID, err)
	}
	if err := enc.Close(); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// MarshalYAML writes times in UTC to the second.
func (s Session) MarshalYAML() (any, error) {
	type plain Session
	p := plain(s)
	for _, t := range []*time.Time{&p.Started, &p.Updated, &p.LastActivity} {
		*t = t.UTC().Truncate(time.Second)
	}
	return p, nil
}

// source returns the source named name, adding it when asked.
func (s *Session) source(name string, add bool) *Source {
	for i := range s.Sources {
		if s.Sources[i].Name == name {
			return &s.Sources[i]
		}
	}
	if !add {
		return nil
	}
	s.Sources = append(s.Sources, Source{Name: name})
	return &s.Sources[len(s.Sources)-1]
}

func (s *Session) hasHook(key string) bool {
	for _, k := range s.Hooks {
		if k == key {
			return true
		}
	}
	return false
}

func (s *Session) addHook(key string) {
	s.Hooks = append(s.Hooks, key)
	if len(s.Hooks) > maxHookKeys {
		s.Hooks = append([]string(nil), s.Hooks[len(s.Hooks)-maxHookKeys:]...)
	}
}

// Session returns the session id: in sessions/, or in archive/. ref may
// also be a unique prefix of an id (four characters or more).
func (m *Memory) Session(ctx context.Context, ref string) (*SessionEntry, error) {
	if err := checkSessionID(ref); err != nil {
		return nil, err
	}
	if e, err := m.findSession(ref); err == nil || !errors.Is(err, ErrNoSession) {
		return e, err
	}
	if len(ref) < 4 {
		return nil, fmt.Errorf("session %s: %w", ref, ErrNoSession)
	}
	all, _, err := m.Sessions(ctx, SessionFilter{})
	if err != nil {
		return nil, err
	}
	var found []*SessionEntry
	for _, e := range all {
		if strings.HasPrefix(e.ID, ref) {
			found = append(found, e)
		}
	}
	switch len(found) {
	case 0:
		return nil, fmt.Errorf("session %s: %w", ref, ErrNoSession)
	case 1:
		return found[0], nil
	}
	return nil, fmt.Errorf("session %s matches %d sessions (%s, %s, ...): %w", ref, len(found), found[0].ID, found[1].ID, ErrAmbiguous)
}

// findSession looks for the folder of session id, which has been checked.
func (m *Memory) findSession(id string) (*SessionEntry, error) {
	dirs := []string{activeDir(id)}
	matches, _ := filepath.Glob(filepath.Join(m.Dir, archiveRoot, "*", "*", id))
	sort.Strings(matches)
	for i := len(matches) - 1; i >= 0; i-- { // the latest archive first
		rel, _ := filepath.Rel(m.Dir, matches[i])
		dirs = append(dirs, filepath.ToSlash(rel))
	}
	for _, d := range dirs {
		p := d + "/" + SessionFile
		data, err := m.store.ReadFile(p)
		if errors.Is(err, gitstore.ErrNotFound) {
			continue
		}
		if err != nil {
			return nil, err
		}
		s, err := parseSession(p, data)
		if err != nil {
			return nil, err
		}
		s.ID = id
		return &SessionEntry{Session: s, Dir: d}, nil
	}
	return nil, fmt.Errorf("session %s: %w", id, ErrNoSession)
}

// SessionFilter selects sessions for Sessions.
type SessionFilter struct {
	Status SessionStatus // "" means any
}

// Sessions lists sessions, in sessions/ and archive/, most recently
// active first. Folders whose session.yaml cannot be read are reported in
// problems and skipped.
func (m *Memory) Sessions(ctx context.Context, f SessionFilter) (list []*SessionEntry, problems []error, err error) {
	var dirs []string
	for _, pat := range []string{
		filepath.Join(m.Dir, sessionsRoot, "*", SessionFile),
		filepath.Join(m.Dir, archiveRoot, "*", "*", "*", SessionFile),
	} {
		found, err := filepath.Glob(pat)
		if err != nil {
			return nil, nil, err
		}
		dirs = append(dirs, found...)
	}
	for _, name := range dirs {
		if err := ctx.Err(); err != nil {
			return nil, nil, err
		}
		rel, _ := filepath.Rel(m.Dir, filepath.Dir(name))
		dir := filepath.ToSlash(rel)
		id := path.Base(dir)
		if checkSessionID(id) != nil {
			continue
		}
		data, err := os.ReadFile(name)
		if err != nil {
			problems = append(problems, err)
			continue
		}
		s, err := parseSession(dir+"/"+SessionFile, data)
		if err != nil {
			problems = append(problems, err)
			continue
		}
		s.ID = id
		e := &SessionEntry{Session: s, Dir: dir}
		if f.Status != "" && e.Status != f.Status {
			continue
		}
		list = append(list, e)
	}
	sort.SliceStable(list, func(i, j int) bool {
		a, b := list[i].lastSeen(), list[j].lastSeen()
		if !a.Equal(b) {
			return a.After(b)
		}
		return list[i].ID < list[j].ID
	})
	return list, problems, nil
}

// SessionChange is what a session command did.
type SessionChange struct {
	Session    *SessionEntry
	Checkpoint *gitstore.Checkpoint // nil when nothing changed
}

// SetSessionStatus suspends, archives or reactivates a session. Archiving
// moves its folder to archive/<yyyy>/<mm>/ (by its last activity);
// activating an archived session moves it back to sessions/.
func (m *Memory) SetSessionStatus(ctx context.Context, ref string, st SessionStatus) (*SessionChange, error) {
	return m.changeSession(ctx, ref, "session-"+string(st), func(e *SessionEntry) (bool, error) {
		if e.Status == st && (st == StatusArchived) == e.Archived() {
			return false, nil
		}
		e.Status = st
		return true, nil
	})
}

// keyRE is what a variable's name may be.
var keyRE = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_.-]{0,63}$`)

// SetSessionVariables sets a session's variables; an empty value removes
// one. Values are redacted like everything else cairn stores.
func (m *Memory) SetSessionVariables(ctx context.Context, ref string, vars map[string]string) (*SessionChange, error) {
	for k := range vars {
		if !keyRE.MatchString(k) {
			return nil, fmt.Errorf("variable name %q: want a letter or _ first, then letters, digits, '_', '.' or '-' (at most 64)", k)
		}
	}
	red, err := m.redactor()
	if err != nil {
		return nil, err
	}
	return m.changeSession(ctx, ref, "session-set", func(e *SessionEntry) (bool, error) {
		changed := false
		for k, v := range vars {
			v, _ = red.Redact(strings.TrimSpace(v))
			old, had := e.Variables[k]
			switch {
			case v == "" && had:
				delete(e.Variables, k)
				changed = true
			case v != "" && (!had || old != v):
				if e.Variables == nil {
					e.Variables = map[string]string{}
				}
				e.Variables[k] = v
				changed = true
			}
		}
		if len(e.Variables) == 0 {
			e.Variables = nil
		}
		return changed, nil
	})
}

// SetSessionProgress records done of total steps.
func (m *Memory) SetSessionProgress(ctx context.Context, ref string, p Progress) (*SessionChange, error) {
	if p.Done < 0 || p.Total < 0 || p.Done > p.Total {
		return nil, fmt.Errorf("progress %d/%d: want 0 ≤ done ≤ total", p.Done, p.Total)
	}
	return m.changeSession(ctx, ref, "session-progress", func(e *SessionEntry) (bool, error) {
		if e.Progress == p {
			return false, nil
		}
		e.Progress = p
		return true, nil
	})
}

// changeSession applies fn to a session under the lock and checkpoints
// the change, moving the folder when the status asks for it.
func (m *Memory) changeSession(ctx context.Context, ref, event string, fn func(*SessionEntry) (bool, error)) (*SessionChange, error) {
	if err := checkSessionID(ref); err != nil {
		return nil, err
	}
	unlock, err := m.lockSettled(ctx)
	if err != nil {
		return nil, err
	}
	defer unlock()
	e, err := m.Session(ctx, ref)
	if err != nil {
		return nil, err
	}
	changed, err := fn(e)
	if err != nil || !changed {
		return &SessionChange{Session: e}, err
	}
	e.Updated = m.now().UTC().Truncate(time.Second)
	b := &batchWrite{}
	m.placeSession(e, b)
	if err := b.writeSession(e); err != nil {
		return nil, err
	}
	cp, err := m.commitBatch(ctx, b, CheckpointOptions{
		Message: fmt.Sprintf("%s: session %s", event, shortSession(e.ID)),
		Session: e.ID,
		Event:   event,
	})
	if err != nil {
		return nil, err
	}
	return &SessionChange{Session: e, Checkpoint: cp}, nil
}

// placeSession moves a session's folder where its status wants it: to
// archive/ when archived, back to sessions/ otherwise. The move is added
// to b.
func (m *Memory) placeSession(e *SessionEntry, b *batchWrite) {
	var want string
	if e.Status == StatusArchived {
		if e.Archived() {
			return
		}
		want = archiveDirFor(e.ID, e.LastActivity)
	} else {
		want = activeDir(e.ID)
	}
	if want != e.Dir {
		b.move(e.Dir, want)
		e.Dir = want
	}
}

// ArchiveResult lists the sessions an archive pass moved.
type ArchiveResult struct {
	Moved      []*SessionEntry
	Checkpoint *gitstore.Checkpoint
}

// ArchiveInactive moves the sessions of sessions/ that have been inactive
// for longer than olderThan (zero means the configured archive_after) to
// archive/<yyyy>/<mm>/<id>/, marks them archived, and checkpoints them
// all as one commit. The daemon calls it now and then; ingest and session
// list call it too. Archived sessions stay listable and searchable.
func (m *Memory) ArchiveInactive(ctx context.Context, olderThan time.Duration) (*ArchiveResult, error) {
	if olderThan <= 0 {
		olderThan = m.Config.Capture.archiveAfter()
	}
	res := &ArchiveResult{}
	// A cheap look first, without the lock: most calls find nothing.
	cutoff := m.now().Add(-olderThan)
	if !m.anyInactive(cutoff) {
		return res, nil
	}
	unlock, err := m.lockSettled(ctx)
	if err != nil {
		return nil, err
	}
	defer unlock()
	list, _, err := m.Sessions(ctx, SessionFilter{})
	if err != nil {
		return nil, err
	}
	b := &batchWrite{}
	now := m.now().UTC().Truncate(time.Second)
	for _, e := range list {
		if e.Archived() || !e.lastSeen().Before(cutoff) {
			continue
		}
		e.Status = StatusArchived
		m.placeSession(e, b)
		e.Updated = now
		if err := b.writeSession(e); err != nil {
			return nil, err
		}
		res.Moved = append(res.Moved, e)
	}
	if len(res.Moved) == 0 {
		return res, nil
	}
	msg := fmt.Sprintf("archive: %d inactive session(s)", len(res.Moved))
	if len(res.Moved) == 1 {
		msg = fmt.Sprintf("archive: session %s inactive since %s", shortSession(res.Moved[0].ID), res.Moved[0].LastActivity.Format("2006-01-02"))
	}
	res.Checkpoint, err = m.commitBatch(ctx, b, CheckpointOptions{Message: msg, Event: "archive"})
	return res, err
}

// anyInactive reports whether some session in sessions/ was last seen
// before cutoff, reading only the times of each session.yaml.
func (m *Memory) anyInactive(cutoff time.Time) bool {
	found, _ := filepath.Glob(filepath.Join(m.Dir, sessionsRoot, "*", SessionFile))
	for _, name := range found {
		data, err := os.ReadFile(name)
		if err != nil {
			continue
		}
		var t struct {
			Updated      time.Time `yaml:"updated"`
			LastActivity time.Time `yaml:"last_activity"`
		}
		if yaml.Unmarshal(data, &t) != nil {
			continue
		}
		s := Session{Updated: t.Updated, LastActivity: t.LastActivity}
		if s.lastSeen().Before(cutoff) {
			return true
		}
	}
	return false
}

// shortID shortens a session id for commit subjects.
func shortSession(id string) string {
	if len(id) > 8 {
		return id[:8]
	}
	return id
}

// sessionExists reports whether a folder for id exists, live or archived.
func (m *Memory) sessionExists(id string) bool {
	_, err := m.findSession(id)
	return err == nil
}

// statOK reports whether a work-tree path exists.
func (m *Memory) statOK(p string) bool {
	name, err := m.store.Abs(p)
	if err != nil {
		return false
	}
	_, err = os.Lstat(name)
	return err == nil || !errors.Is(err, fs.ErrNotExist)
}
