package model

import (
	"bytes"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/cairn-mem/cairn/internal/lazyre"
	"github.com/cairn-mem/cairn/internal/migrate"
	"gopkg.in/yaml.v3"
)

// SessionSchema is the version of session.yaml this package writes,
// migrate.Latest(migrate.Session); older files are upgraded as they are
// read (internal/migrate).
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
	SessionsRoot = "sessions"
	ArchiveRoot  = "archive"
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
	AgentGemini     = "gemini"
	AgentCursor     = "cursor"
	AgentChat       = "chat"
	AgentMarkdown   = "markdown"
)

// HookAgent is the agent a hook runs for, named as cairn hook --agent
// names it (claude, codex, gemini, cursor); ok is false for a name it does
// not know.
func HookAgent(name string) (agent string, ok bool) {
	switch strings.ToLower(strings.TrimSpace(name)) {
	case "claude", "claude-code":
		return AgentClaudeCode, true
	case AgentCodex:
		return AgentCodex, true
	case AgentGemini:
		return AgentGemini, true
	case AgentCursor:
		return AgentCursor, true
	}
	return "", false
}

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
	read  int          // the schema of the file before ParseSession upgraded it
}

// ReadSchema is the schema the file had before ParseSession upgraded it
// (0: no schema line); below SessionSchema, cairn migrate writes it back.
// NewSession's session has the latest.
func (s *Session) ReadSchema() int { return s.read }

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

// MaxHookKeys bounds Session.Hooks.
const MaxHookKeys = 200

// SessionEntry is a session and where it lives.
type SessionEntry struct {
	*Session
	Dir string // repository path of its folder: sessions/<id> or archive/<yyyy>/<mm>/<id>
}

// File returns the repository path of one of the session's files.
func (e *SessionEntry) File(name string) string { return e.Dir + "/" + name }

// Archived reports whether the session lives in archive/.
func (e *SessionEntry) Archived() bool { return strings.HasPrefix(e.Dir, ArchiveRoot+"/") }

// SessionDir is where a live session's folder is.
func SessionDir(id string) string { return SessionsRoot + "/" + id }

// ArchiveDir is where a session whose last activity was at t is
// archived.
func ArchiveDir(id string, t time.Time) string {
	t = t.UTC()
	return fmt.Sprintf("%s/%04d/%02d/%s", ArchiveRoot, t.Year(), int(t.Month()), id)
}

// LastSeen is when a session last showed activity: its last event, or
// the last time cairn or a person changed it, whichever is later.
func (s *Session) LastSeen() time.Time {
	if s.Updated.After(s.LastActivity) {
		return s.Updated
	}
	return s.LastActivity
}

// NewSession makes the session.yaml of a session seen for the first time.
func NewSession(id, agent string, now time.Time) *Session {
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
		read:          SessionSchema,
	}
}

// ParseSession reads a session.yaml. name is for error messages.
func ParseSession(name string, data []byte) (*Session, error) {
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
	read, err := migrate.Up(migrate.Session, root)
	if err != nil {
		return nil, fmt.Errorf("%s: schema: %w", name, err)
	}
	if err := root.Decode(s); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	s.read = read
	known := knownSessionKeys()
	for i := 0; i+1 < len(root.Content); i += 2 {
		if !known[root.Content[i].Value] {
			s.extra = append(s.extra, root.Content[i], root.Content[i+1])
		}
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

// Marshal writes session.yaml: a comment, the known keys in a fixed
// order, then the keys someone else added.
func (s *Session) Marshal() ([]byte, error) {
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

// SourceNamed returns the source named name, adding it when asked.
func (s *Session) SourceNamed(name string, add bool) *Source {
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

func (s *Session) HasHook(key string) bool {
	for _, k := range s.Hooks {
		if k == key {
			return true
		}
	}
	return false
}

func (s *Session) AddHook(key string) {
	s.Hooks = append(s.Hooks, key)
	if len(s.Hooks) > MaxHookKeys {
		s.Hooks = append([]string(nil), s.Hooks[len(s.Hooks)-MaxHookKeys:]...)
	}
}

// keyRE is what a variable's name may be.
var keyRE = lazyre.New(`^[A-Za-z_][A-Za-z0-9_.-]{0,63}$`)

// ValidVariable reports whether name may name a session variable (or a key
// cairn adds to front matter): a letter or underscore, then up to 63
// letters, digits, dots, dashes or underscores.
func ValidVariable(name string) bool { return keyRE.MatchString(name) }

// KeepExtra gives s the keys someone else added to ours, plus those of
// theirs that ours lacks: the unknown keys of a merged session.yaml.
func (s *Session) KeepExtra(ours, theirs *Session) {
	s.extra = append(s.extra[:0:0], ours.extra...)
	for i := 0; i+1 < len(theirs.extra); i += 2 {
		found := false
		for j := 0; j+1 < len(ours.extra); j += 2 {
			if ours.extra[j].Value == theirs.extra[i].Value {
				found = true
			}
		}
		if !found {
			s.extra = append(s.extra, theirs.extra[i], theirs.extra[i+1])
		}
	}
}

// ParseProgress reads DONE/TOTAL, 0 ≤ DONE ≤ TOTAL; ok is false when
// spec is not that.
func ParseProgress(spec string) (p Progress, ok bool) {
	d, t, ok := strings.Cut(spec, "/")
	done, err1 := strconv.Atoi(d)
	total, err2 := strconv.Atoi(t)
	if !ok || err1 != nil || err2 != nil || done < 0 || total < 0 || done > total {
		return p, false
	}
	return Progress{Done: done, Total: total}, true
}

// ParseVariables reads KEY=VALUE arguments (KEY= removes a variable);
// bad is the first argument that is not one.
func ParseVariables(args []string) (vars map[string]string, bad string, ok bool) {
	vars = map[string]string{}
	for _, a := range args {
		k, v, ok := strings.Cut(a, "=")
		if !ok || k == "" {
			return nil, a, false
		}
		vars[k] = v
	}
	return vars, "", true
}
