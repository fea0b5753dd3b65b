package memory

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
	"time"

	"github.com/cairn-mem/cairn/gitstore"
	"github.com/cairn-mem/cairn/internal/memory/catalog"
	"github.com/cairn-mem/cairn/internal/memory/sessiondirs"
	"github.com/cairn-mem/cairn/internal/model"
	"github.com/cairn-mem/cairn/internal/transcript"
	"gopkg.in/yaml.v3"
)

// CheckSessionID refuses session ids that are unsafe as folder names.
func CheckSessionID(id string) error {
	return transcript.ValidateSessionID(id)
}

// Get returns the session id: in sessions/, or in archive/. ref may
// also be a unique prefix of an id (four characters or more).
func (s Sessions) Get(ctx context.Context, ref string) (*model.SessionEntry, error) {
	m := s.m
	if err := CheckSessionID(ref); err != nil {
		return nil, err
	}
	if e, err := m.Sessions().Find(ref); err == nil || !errors.Is(err, model.ErrNoSession) {
		return e, err
	}
	if len(ref) < 4 {
		return nil, fmt.Errorf("session %s: %w", ref, model.ErrNoSession)
	}
	all, _, err := m.Sessions().List(ctx, SessionFilter{})
	if err != nil {
		return nil, err
	}
	var found []*model.SessionEntry
	for _, e := range all {
		if strings.HasPrefix(e.ID, ref) {
			found = append(found, e)
		}
	}
	switch len(found) {
	case 0:
		return nil, fmt.Errorf("session %s: %w", ref, model.ErrNoSession)
	case 1:
		return found[0], nil
	}
	return nil, fmt.Errorf("session %s matches %d sessions (%s, %s, ...): %w", ref, len(found), found[0].ID, found[1].ID, ErrAmbiguous)
}

// Find looks for the folder of session id, which has been checked.
func (s Sessions) Find(id string) (*model.SessionEntry, error) {
	m := s.m
	dirs := []string{model.SessionDir(id)}
	matches := sessiondirs.Archived(m.Dir, id)
	for i := len(matches) - 1; i >= 0; i-- { // the latest archive first
		rel, _ := filepath.Rel(m.Dir, matches[i])
		dirs = append(dirs, filepath.ToSlash(rel))
	}
	for _, d := range dirs {
		p := d + "/" + model.SessionFile
		data, err := m.store.ReadFile(p)
		if errors.Is(err, gitstore.ErrNotFound) || m.WarnLink(err) {
			continue // a linked session folder is not followed
		}
		if err != nil {
			return nil, err
		}
		s, err := model.ParseSession(p, data)
		if err != nil {
			return nil, err
		}
		s.ID = id
		return &model.SessionEntry{Session: s, Dir: d}, nil
	}
	return nil, fmt.Errorf("session %s: %w", id, model.ErrNoSession)
}

// SessionFilter selects sessions for Sessions.
type SessionFilter struct {
	Status model.SessionStatus // "" means any
}

// List lists sessions, in sessions/ and archive/, most recently
// active first. Folders whose session.yaml cannot be read are reported in
// problems and skipped.
func (s Sessions) List(ctx context.Context, f SessionFilter) (list []*model.SessionEntry, problems []error, err error) {
	m := s.m
	// A session of another status is not read when the catalogue (its
	// rows compared with the files' sizes and times) says which it is:
	// a session start asks for the active ones, and parsing 200
	// session.yaml with YAML was most of what it spent without a daemon.
	// The same rows say which folders hold a session.yaml, which a glob
	// of sessions/*/session.yaml found by listing each of them (4-5 ms
	// of a session start at 200 sessions).
	var dirs []string
	var other map[string]bool
	pats := []string{filepath.Join(m.Dir, model.SessionsRoot, "*", model.SessionFile)}
	if f.Status != "" && f.Status != model.StatusArchived {
		if rows, err := m.Catalog(ctx, model.SessionsRoot); err == nil {
			other = make(map[string]bool, len(rows)/4)
			for _, r := range rows {
				if r.Type == catalog.Session && r.Status != string(f.Status) {
					other[r.Path] = true
				}
			}
			dirs, pats = sessiondirs.Files(m.Dir, rows), nil
		}
	}
	// Only archived sessions live under archive/ (Place), and it holds
	// most of them: a session start looking for active sessions at
	// 19,000 sessions read every session.yaml of it.
	if f.Status == "" || f.Status == model.StatusArchived {
		pats = append(pats, filepath.Join(m.Dir, model.ArchiveRoot, "*", "*", "*", model.SessionFile))
	}
	for _, pat := range pats {
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
		if CheckSessionID(id) != nil || other[dir+"/"+model.SessionFile] {
			continue
		}
		// filepath.Glob follows links; the read does not (gitstore).
		data, err := m.store.ReadFile(dir + "/" + model.SessionFile)
		if m.WarnLink(err) {
			continue
		}
		if err != nil {
			problems = append(problems, err)
			continue
		}
		s, err := model.ParseSession(dir+"/"+model.SessionFile, data)
		if err != nil {
			problems = append(problems, err)
			continue
		}
		s.ID = id
		e := &model.SessionEntry{Session: s, Dir: dir}
		if f.Status != "" && e.Status != f.Status {
			continue
		}
		list = append(list, e)
	}
	sort.SliceStable(list, func(i, j int) bool {
		a, b := list[i].LastSeen(), list[j].LastSeen()
		if !a.Equal(b) {
			return a.After(b)
		}
		return list[i].ID < list[j].ID
	})
	return list, problems, nil
}

// SessionChange is what a session command did.
type SessionChange struct {
	Session    *model.SessionEntry
	Checkpoint *gitstore.Checkpoint // nil when nothing changed
}

// SetStatus suspends, archives or reactivates a session. Archiving
// moves its folder to archive/<yyyy>/<mm>/ (by its last activity);
// activating an archived session moves it back to sessions/.
func (s Sessions) SetStatus(ctx context.Context, ref string, st model.SessionStatus) (*SessionChange, error) {
	m := s.m
	return m.Sessions().change(ctx, ref, "session-"+string(st), func(e *model.SessionEntry) (bool, error) {
		if e.Status == st && (st == model.StatusArchived) == e.Archived() {
			return false, nil
		}
		e.Status = st
		return true, nil
	})
}

// SetVariables sets a session's variables; an empty value removes
// one. Values are redacted like everything else cairn stores.
func (s Sessions) SetVariables(ctx context.Context, ref string, vars map[string]string) (*SessionChange, error) {
	m := s.m
	for k := range vars {
		if !model.ValidVariable(k) {
			return nil, fmt.Errorf("variable name %q: want a letter or _ first, then letters, digits, '_', '.' or '-' (at most 64)", k)
		}
	}
	red, err := m.Redactor()
	if err != nil {
		return nil, err
	}
	return m.Sessions().change(ctx, ref, "session-set", func(e *model.SessionEntry) (bool, error) {
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

// SetProgress records done of total steps.
func (s Sessions) SetProgress(ctx context.Context, ref string, p model.Progress) (*SessionChange, error) {
	m := s.m
	if p.Done < 0 || p.Total < 0 || p.Done > p.Total {
		return nil, fmt.Errorf("progress %d/%d: want 0 ≤ done ≤ total", p.Done, p.Total)
	}
	return m.Sessions().change(ctx, ref, "session-progress", func(e *model.SessionEntry) (bool, error) {
		if e.Progress == p {
			return false, nil
		}
		e.Progress = p
		return true, nil
	})
}

// change applies fn to a session under the lock and checkpoints
// the change, moving the folder when the status asks for it.
func (s Sessions) change(ctx context.Context, ref, event string, fn func(*model.SessionEntry) (bool, error)) (*SessionChange, error) {
	m := s.m
	if err := CheckSessionID(ref); err != nil {
		return nil, err
	}
	tx, err := m.Begin(ctx)
	if err != nil {
		return nil, err
	}
	defer tx.End()
	e, err := m.Sessions().Get(ctx, ref)
	if err != nil {
		return nil, err
	}
	changed, err := fn(e)
	if err != nil || !changed {
		return &SessionChange{Session: e}, err
	}
	e.Updated = m.now().UTC().Truncate(time.Second)
	m.Sessions().Place(e, &tx.Writes)
	if err := tx.WriteSession(e); err != nil {
		return nil, err
	}
	cp, err := tx.Commit(ctx, CheckpointOptions{
		Message: fmt.Sprintf("%s: session %s", event, ShortSession(e.ID)),
		Session: e.ID,
		Event:   event,
	})
	if err != nil {
		return nil, err
	}
	return &SessionChange{Session: e, Checkpoint: cp}, nil
}

// Place moves a session's folder where its status wants it: to
// archive/ when archived, back to sessions/ otherwise. The move is added
// to b.
func (s Sessions) Place(e *model.SessionEntry, b *Writes) {
	var want string
	if e.Status == model.StatusArchived {
		if e.Archived() {
			return
		}
		want = model.ArchiveDir(e.ID, e.LastActivity)
	} else {
		want = model.SessionDir(e.ID)
	}
	if want != e.Dir {
		b.Move(e.Dir, want)
		e.Dir = want
	}
}

// ArchiveResult lists the sessions an archive pass moved.
type ArchiveResult struct {
	Moved      []*model.SessionEntry
	Checkpoint *gitstore.Checkpoint
}

// ArchiveInactive moves the sessions of sessions/ that have been inactive
// for longer than olderThan (zero means the configured archive_after) to
// archive/<yyyy>/<mm>/<id>/, marks them archived, and checkpoints them
// all as one commit. The daemon calls it now and then; ingest and session
// list call it too. Archived sessions stay listable and searchable.
func (s Sessions) ArchiveInactive(ctx context.Context, olderThan time.Duration) (*ArchiveResult, error) {
	m := s.m
	if olderThan <= 0 {
		olderThan = m.Config.Capture.ArchiveAfterOr()
	}
	res := &ArchiveResult{}
	// A cheap look first, without the lock: most calls find nothing.
	cutoff := m.now().Add(-olderThan)
	if !m.Sessions().anyInactive(cutoff) {
		return res, nil
	}
	tx, err := m.Begin(ctx)
	if err != nil {
		return nil, err
	}
	defer tx.End()
	list, _, err := m.Sessions().List(ctx, SessionFilter{})
	if err != nil {
		return nil, err
	}
	b := &tx.Writes
	now := m.now().UTC().Truncate(time.Second)
	for _, e := range list {
		if e.Archived() || !e.LastSeen().Before(cutoff) {
			continue
		}
		e.Status = model.StatusArchived
		m.Sessions().Place(e, b)
		e.Updated = now
		if err := b.WriteSession(e); err != nil {
			return nil, err
		}
		res.Moved = append(res.Moved, e)
	}
	if len(res.Moved) == 0 {
		return res, nil
	}
	msg := fmt.Sprintf("archive: %d inactive session(s)", len(res.Moved))
	if len(res.Moved) == 1 {
		msg = fmt.Sprintf("archive: session %s inactive since %s", ShortSession(res.Moved[0].ID), res.Moved[0].LastActivity.Format("2006-01-02"))
	}
	res.Checkpoint, err = tx.Commit(ctx, CheckpointOptions{Message: msg, Event: "archive"})
	return res, err
}

// anyInactive reports whether some session in sessions/ was last seen
// before cutoff, reading only the times of each session.yaml.
func (s Sessions) anyInactive(cutoff time.Time) bool {
	m := s.m
	found, _ := filepath.Glob(filepath.Join(m.Dir, model.SessionsRoot, "*", model.SessionFile))
	for _, name := range found {
		rel, _ := filepath.Rel(m.Dir, name)
		data, err := m.store.ReadFile(filepath.ToSlash(rel)) // not through a link
		if err != nil {
			m.WarnLink(err)
			continue
		}
		var t struct {
			Updated      time.Time `yaml:"updated"`
			LastActivity time.Time `yaml:"last_activity"`
		}
		if yaml.Unmarshal(data, &t) != nil {
			continue
		}
		s := model.Session{Updated: t.Updated, LastActivity: t.LastActivity}
		if s.LastSeen().Before(cutoff) {
			return true
		}
	}
	return false
}

// shortID shortens a session id for commit subjects.
func ShortSession(id string) string {
	if len(id) > 8 {
		return id[:8]
	}
	return id
}

// Exists reports whether a folder for id exists, live or archived.
func (s Sessions) Exists(id string) bool {
	m := s.m
	_, err := m.Sessions().Find(id)
	return err == nil
}

// StatOK reports whether a work-tree path exists.
func (m *Memory) StatOK(p string) bool {
	name, err := m.store.Abs(p)
	if err != nil {
		return false
	}
	_, err = os.Lstat(name)
	return err == nil || !errors.Is(err, fs.ErrNotExist)
}

// Stamp says, without reading them, which state a session's
// session.yaml and pending turns are in: their folder and, for each file,
// its inode, size and modification time. Every writer replaces these files
// by rename (a new inode), and an editor that writes in place changes the
// time, so two equal stamps mean nothing changed between them. Capture
// plans a batch without the lock and checks the stamp under it, which
// costs two stat calls instead of reading both files again.
func (s Sessions) Stamp(id string) string {
	m := s.m
	var b strings.Builder
	dir := model.SessionDir(id)
	if _, err := os.Lstat(filepath.Join(m.Dir, dir, model.SessionFile)); err != nil {
		matches := sessiondirs.Archived(m.Dir, id, model.SessionFile)
		if len(matches) > 0 {
			rel, _ := filepath.Rel(m.Dir, filepath.Dir(matches[len(matches)-1]))
			dir = filepath.ToSlash(rel)
		}
	}
	b.WriteString(dir)
	for _, name := range []string{filepath.Join(m.Dir, dir, model.SessionFile), m.Sessions().PendingPath(id)} {
		b.WriteByte(0)
		if fi, err := os.Lstat(name); err == nil {
			var ino uint64
			if st, ok := fi.Sys().(*syscall.Stat_t); ok {
				ino = st.Ino
			}
			fmt.Fprintf(&b, "%d %d %d", ino, fi.Size(), fi.ModTime().UnixNano())
		}
	}
	return b.String()
}

// Sessions are the agent sessions of a memory: sessions/<id>/ and
// archive/<yyyy>/<mm>/<id>/, their session.yaml, and the turns captured
// but not yet summarised (.state/capture/sessions/<id>.pending.jsonl).
type Sessions struct{ m *Memory }

// Sessions returns the memory's sessions.
func (m *Memory) Sessions() Sessions { return Sessions{m} }

// Latest is the ID of the most recently active live session, "" when
// none is active.
func (s Sessions) Latest(ctx context.Context) (string, error) {
	list, _, err := s.List(ctx, SessionFilter{Status: model.StatusActive})
	if err != nil || len(list) == 0 {
		return "", err
	}
	return list[0].ID, nil
}

// Resolve turns a session id or a unique prefix of one into the id. An
// id that matches no session folder is returned as it is (it finds
// nothing).
func (s Sessions) Resolve(ref string) (string, error) {
	ids := sessionIDs(s.m)
	var found []string
	for _, id := range ids {
		if id == ref {
			return id, nil
		}
		if strings.HasPrefix(id, ref) {
			found = append(found, id)
		}
	}
	switch len(found) {
	case 0:
		return ref, nil
	case 1:
		return found[0], nil
	}
	return "", fmt.Errorf("session %s matches %d sessions (%s, ...): %w", ref, len(found), found[0], ErrAmbiguous)
}

// sessionIDs lists the session folders' names, in sessions/ and archive/.
func sessionIDs(m *Memory) []string {
	var ids []string
	add := func(pattern string) {
		names, _ := filepath.Glob(filepath.Join(m.Dir, pattern))
		for _, n := range names {
			if fi, err := os.Lstat(n); err == nil && fi.IsDir() { // Glob follows links; a linked folder is no session
				ids = append(ids, filepath.Base(n))
			}
		}
	}
	add("sessions/*")
	add("archive/*/*/*")
	sort.Strings(ids)
	return ids
}
