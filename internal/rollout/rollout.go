package rollout

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
)

// Home is Codex's folder: codexHome ($CODEX_HOME) when it is an absolute
// path, else home/.codex.
func Home(codexHome, home string) string {
	if codexHome != "" && filepath.IsAbs(codexHome) {
		return filepath.Clean(codexHome)
	}
	return filepath.Join(home, ".codex")
}

// Glob is the pattern of the rollouts under a Codex folder.
func Glob(codexHome string) string {
	return filepath.Join(codexHome, "sessions", "*", "*", "*", "rollout-*.jsonl")
}

// Is reports whether path is named as a rollout is.
func Is(path string) bool {
	base := filepath.Base(path)
	return strings.HasPrefix(base, "rollout-") && strings.HasSuffix(base, ".jsonl")
}

// maxMeta bounds the first line read: session_meta carries the session's
// instructions, which can be long.
const maxMeta = 4 << 20

// Errors of CWD: the first line is not a session_meta line (or longer
// than any is), or is not whole yet.
var (
	ErrNoMeta  = errors.New("no session_meta line")
	ErrPartial = errors.New("first line not written yet")
)

// CWD reads the working folder the session_meta line at the start of a
// rollout names.
func CWD(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	return CWDOf(f, path)
}

// CWDOf is CWD of a rollout already open, read from r (at its start);
// path names it in errors.
func CWDOf(f io.Reader, path string) (string, error) {
	r := bufio.NewReader(f)
	var line []byte
	for {
		chunk, err := r.ReadSlice('\n')
		line = append(line, chunk...)
		if err == nil {
			break
		}
		if errors.Is(err, bufio.ErrBufferFull) && len(line) <= maxMeta {
			continue
		}
		if err == io.EOF {
			return "", fmt.Errorf("%s: %w", path, ErrPartial)
		}
		if err != bufio.ErrBufferFull {
			return "", fmt.Errorf("read %s: %w", path, err)
		}
		return "", fmt.Errorf("%s: %w", path, ErrNoMeta)
	}
	var meta struct {
		Type    string `json:"type"`
		Payload struct {
			CWD string `json:"cwd"`
		} `json:"payload"`
	}
	if json.Unmarshal(line, &meta) != nil || meta.Type != "session_meta" || meta.Payload.CWD == "" {
		return "", fmt.Errorf("%s: %w", path, ErrNoMeta)
	}
	return meta.Payload.CWD, nil
}

// Filter tells which rollouts belong to a project, and remembers each
// file's answer: a rollout's session_meta never changes. It is safe for
// concurrent use.
type Filter struct {
	Project string // the project's folder, absolute

	mu    sync.Mutex
	known map[string]bool
}

// Follows reports whether the rollout at path is the project's: its
// session ran in the project's folder or below it. A file whose first line
// is not a session_meta is not; an error (the file cannot be read, or its
// first line is not whole yet) is not remembered.
func (f *Filter) Follows(path string) (bool, error) {
	f.mu.Lock()
	ok, seen := f.known[path]
	f.mu.Unlock()
	if seen {
		return ok, nil
	}
	cwd, err := CWD(path)
	switch {
	case errors.Is(err, ErrNoMeta):
		ok = false // not a rollout: none of the project's either
	case err != nil:
		return false, err
	default:
		ok = Inside(cwd, f.Project)
	}
	f.mu.Lock()
	if f.known == nil {
		f.known = map[string]bool{}
	}
	f.known[path] = ok
	f.mu.Unlock()
	return ok, nil
}

// Inside reports whether dir is project or lies below it, also once
// symbolic links are resolved (macOS's /tmp is /private/tmp).
func Inside(dir, project string) bool {
	if dir == "" || project == "" || !filepath.IsAbs(dir) {
		return false
	}
	if under(dir, project) {
		return true
	}
	rd, err1 := filepath.EvalSymlinks(dir)
	rp, err2 := filepath.EvalSymlinks(project)
	return err1 == nil && err2 == nil && under(rd, rp)
}

func under(path, dir string) bool {
	rel, err := filepath.Rel(filepath.Clean(dir), filepath.Clean(path))
	return err == nil && filepath.IsLocal(rel) || rel == "."
}
