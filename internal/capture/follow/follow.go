package follow

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/cairn-mem/cairn/internal/config"
	"github.com/cairn-mem/cairn/internal/memory"
	"github.com/cairn-mem/cairn/internal/rollout"
	"github.com/cairn-mem/cairn/internal/safefile"
)

// Globs returns the transcript globs of the configuration with
// "~/", {claude-project}, {codex-home} and {gemini-project} expanded, as
// absolute patterns for the watcher.
func Globs(m *memory.Memory) []string {
	globs := m.Config.Capture.Transcripts
	if len(globs) == 0 {
		globs = config.DefaultTranscripts
	}
	home, _ := os.UserHomeDir()
	out := make([]string, 0, len(globs))
	for _, g := range globs {
		g = strings.ReplaceAll(g, "{claude-project}", ClaudeProjectName(m.Project))
		if strings.Contains(g, "{codex-home}") {
			if home == "" && !filepath.IsAbs(os.Getenv("CODEX_HOME")) {
				continue
			}
			g = strings.ReplaceAll(g, "{codex-home}", rollout.Home(os.Getenv("CODEX_HOME"), home))
		}
		if strings.Contains(g, "{gemini-project}") {
			g = strings.ReplaceAll(g, "{gemini-project}", GeminiProjectName(home, m.Project))
		}
		if rest, ok := strings.CutPrefix(g, "~/"); ok {
			if home == "" {
				continue
			}
			g = filepath.Join(home, rest)
		}
		if !filepath.IsAbs(g) {
			g = filepath.Join(m.Project, g)
		}
		out = append(out, filepath.Clean(g))
	}
	return out
}

// ClaudeProjectName is the name Claude Code gives a project's folder under
// ~/.claude/projects, as Claude Code 2.x derives it: the absolute path
// with every UTF-16 code unit that is not an ASCII letter or digit
// replaced by "-" (JavaScript's path.replace(/[^a-zA-Z0-9]/g, "-"): "."
// "_" and " " too, one "-" per character of the Basic Multilingual
// Plane, two for one beyond it), and, when that is longer than 200, its
// first 200 followed by "-" and a hash of the path in base 36 (the
// absolute value of the 32-bit h = h*31 + unit over its UTF-16 code
// units), so that the name fits in a folder's.
func ClaudeProjectName(project string) string {
	units := utf16.Encode([]rune(project))
	b := make([]byte, len(units))
	var h int32
	for i, u := range units {
		if u < utf8.RuneSelf && (u >= 'a' && u <= 'z' || u >= 'A' && u <= 'Z' || u >= '0' && u <= '9') {
			b[i] = byte(u)
		} else {
			b[i] = '-'
		}
		h = h<<5 - h + int32(u) // wraps as JavaScript's |0 does
	}
	if len(b) <= claudeNameMax {
		return string(b)
	}
	return string(b[:claudeNameMax]) + "-" + strconv.FormatInt(abs64(int64(h)), 36)
}

// claudeNameMax is the length past which Claude Code cuts a project's
// folder name and adds a hash.
const claudeNameMax = 200

func abs64(n int64) int64 {
	if n < 0 {
		return -n
	}
	return n
}

// GeminiProjectName is the name of a project's folder under
// ~/.gemini/tmp: the short name ~/.gemini/projects.json gives its path
// ({"projects": {path: name}}), or, for a project Gemini CLI has not
// named (or a release before it named them), the SHA-256 of its path.
func GeminiProjectName(home, project string) string {
	if home != "" {
		var reg struct {
			Projects map[string]string `json:"projects"`
		}
		if data, err := os.ReadFile(filepath.Join(home, ".gemini", "projects.json")); err == nil && json.Unmarshal(data, &reg) == nil {
			if name := reg.Projects[project]; name != "" && filepath.IsLocal(name) && !strings.ContainsAny(name, `/\*?[`) {
				return name
			}
		}
	}
	sum := sha256.Sum256([]byte(project))
	return hex.EncodeToString(sum[:])
}

// ErrRefused matches every *RefusedError.
var ErrRefused = errors.New("not a transcript cairn follows")

// RefusedError is a path that is not read as one of the project's
// transcripts, and why, in one line.
type RefusedError struct {
	Path string
	Why  string
}

func (e *RefusedError) Error() string { return e.Path + " is not a transcript cairn follows: " + e.Why }

// Is makes errors.Is(err, ErrRefused) true.
func (e *RefusedError) Is(target error) bool { return target == ErrRefused }

// errNotYet is a transcript that does not say yet whose it is: a Codex
// rollout whose first line is not whole, a Claude Code transcript in
// another folder than the project's without a working folder in its
// lines. It is no refusal: the file may say so in a moment.
var errNotYet = errors.New("does not say yet where its session ran")

// Allowed reports whether path is one of the project's
// transcripts, which cairn may read on behalf of a job or a hook payload
// (anyone who can write to the inbox can forge one): see Open.
func Allowed(m *memory.Memory, path string) bool {
	return Check(m, path) == nil
}

// Check is Open without keeping the file open: nil
// when path may be read, else why not (a *RefusedError, or the error of
// a file that is not there or does not say yet whose it is).
func Check(m *memory.Memory, path string) error {
	f, err := Open(m, path)
	if err != nil {
		return err
	}
	return f.Close()
}

// Open opens path for reading as one of the project's agent
// transcripts, at its start, or says why it may not be read: a
// *RefusedError (errors.Is ErrRefused) naming the path and the reason. It
// must be absolute and clean, outside the memory's state (where the
// summarizer's own sessions live), and one of
//
//   - a file matching one of capture.transcripts' globs (the defaults:
//     the project's Claude Code folder, Codex's rollouts and the
//     project's Gemini CLI chats), a Codex rollout only when its
//     session_meta names the project or a folder below it as where the
//     session ran;
//   - a session or subagent transcript in the project's own folder under
//     ~/.claude/projects (ClaudeProjectName), or in another folder there
//     whose lines say the session ran in the project or below it (a
//     session started in a subfolder: Claude Code names its folder after
//     that);
//   - a chat under ~/.gemini/tmp/NAME/chats/ where NAME is the project's
//     (GeminiProjectName, or the SHA-256 of its path).
//
// No symbolic link is followed below the folder the glob or place starts
// from (~/.claude/projects/<name>, Codex's sessions folder): the file and
// the folders on its way are opened with O_NOFOLLOW, and a link is
// refused, naming it. Anything but a regular file is refused too.
func Open(m *memory.Memory, path string) (*os.File, error) {
	pl, err := placeOf(m, path)
	if err != nil {
		return nil, err
	}
	rel, err := filepath.Rel(pl.root, path)
	if err != nil || !filepath.IsLocal(rel) {
		return nil, &RefusedError{Path: path, Why: "it does not lie below " + pl.root}
	}
	f, err := safefile.OpenInRoot(pl.root, filepath.ToSlash(rel))
	if err != nil {
		var le *safefile.LinkError
		if errors.As(err, &le) {
			return nil, &RefusedError{Path: path, Why: filepath.Join(pl.root, filepath.FromSlash(le.Path)) + " is a symbolic link, and transcripts are never read through one"}
		}
		if fi, lerr := os.Lstat(path); lerr == nil && !fi.Mode().IsRegular() {
			return nil, &RefusedError{Path: path, Why: fmt.Sprintf("it is not a regular file (%s)", fi.Mode().Type())}
		}
		return nil, err
	}
	if pl.check != nil {
		if err := pl.check(f); err != nil {
			f.Close()
			if !errors.Is(err, ErrRefused) && !errors.Is(err, errNotYet) {
				err = fmt.Errorf("read %s: %w", path, err)
			}
			return nil, err
		}
		if _, err := f.Seek(0, io.SeekStart); err != nil {
			f.Close()
			return nil, err
		}
	}
	return f, nil
}

// place is where a transcript may be read from: the folder below which
// no link is followed, and what the file must say to be the project's.
type place struct {
	root  string
	check func(f *os.File) error
}

// placeOf tells where path may be read from, from its name alone, or
// refuses it.
func placeOf(m *memory.Memory, path string) (place, error) {
	refuse := func(why string) (place, error) { return place{}, &RefusedError{Path: path, Why: why} }
	if !filepath.IsAbs(path) || filepath.Clean(path) != path {
		return refuse("not an absolute, clean path")
	}
	if under(path, filepath.Join(m.Dir, ".state")) {
		return refuse("it lies in the memory's own state, where cairn's summarizer runs")
	}
	for _, g := range Globs(m) {
		if ok, _ := filepath.Match(g, path); ok {
			pl := place{root: globRoot(g)}
			if rollout.Is(path) {
				pl.check = func(f *os.File) error { return rolloutInProject(m, f, path) }
			}
			return pl, nil
		}
	}
	home, _ := os.UserHomeDir()
	if home == "" {
		return refuse(outsideFolders)
	}
	claude := filepath.Join(home, ".claude", "projects")
	if parts, ok := partsBelow(path, claude); ok && claudeShape(parts) {
		own := ClaudeProjectName(m.Project)
		pl := place{root: filepath.Join(claude, parts[0])}
		if parts[0] != own {
			pl.check = func(f *os.File) error { return claudeInProject(m, f, path, own) }
		}
		return pl, nil
	}
	gemini := filepath.Join(home, ".gemini", "tmp")
	if parts, ok := partsBelow(path, gemini); ok && len(parts) == 3 && parts[1] == "chats" && matchName("session-*.jsonl", parts[2]) {
		own := GeminiProjectName(home, m.Project)
		sum := sha256.Sum256([]byte(m.Project))
		if parts[0] != own && parts[0] != hex.EncodeToString(sum[:]) {
			return refuse(fmt.Sprintf("it lies in another project's Gemini CLI folder (this project's is %s)", filepath.Join(gemini, own)))
		}
		return place{root: filepath.Join(gemini, parts[0])}, nil
	}
	return refuse(outsideFolders)
}

// outsideFolders is why a path no rule admits is refused.
const outsideFolders = "it lies in none of the project's transcript folders (see capture.transcripts in cairn.yaml)"

// claudeShape reports whether the parts of a path below
// ~/.claude/projects are a session's transcript (NAME/ID.jsonl) or a
// subagent's (NAME/ID/subagents/AGENT.jsonl).
func claudeShape(parts []string) bool {
	switch len(parts) {
	case 2:
		return matchName("*.jsonl", parts[1])
	case 4:
		return parts[2] == "subagents" && matchName("*.jsonl", parts[3])
	}
	return false
}

func matchName(pattern, name string) bool {
	ok, _ := filepath.Match(pattern, name)
	return ok
}

// partsBelow splits path into its names below dir, when it lies below.
func partsBelow(path, dir string) ([]string, bool) {
	rel, err := filepath.Rel(dir, path)
	if err != nil || !filepath.IsLocal(rel) {
		return nil, false
	}
	return strings.Split(rel, string(filepath.Separator)), true
}

// globRoot is the folder a glob starts from: its longest leading folder
// without a pattern character, or, for a glob of one file, its folder.
func globRoot(g string) string {
	dir := filepath.Dir(g)
	for strings.ContainsAny(dir, `*?[\`) && dir != filepath.Dir(dir) {
		dir = filepath.Dir(dir)
	}
	return dir
}

// rolloutInProject checks that the Codex rollout open as f ran in the
// project or below it (Codex keeps every project's sessions in one tree).
func rolloutInProject(m *memory.Memory, f io.Reader, path string) error {
	cwd, err := rollout.CWDOf(f, path)
	switch {
	case errors.Is(err, rollout.ErrPartial):
		return fmt.Errorf("%s %w", path, errNotYet)
	case errors.Is(err, rollout.ErrNoMeta):
		return &RefusedError{Path: path, Why: "its first line is no session_meta naming where the Codex session ran"}
	case err != nil:
		return err
	case !rollout.Inside(cwd, m.Project):
		return &RefusedError{Path: path, Why: fmt.Sprintf("its Codex session ran in %s, not in the project (%s) or below it", cwd, m.Project)}
	}
	return nil
}

// claudeInProject checks that the Claude Code transcript open as f, which
// lies in another folder under ~/.claude/projects than own, the
// project's, is of a session run in the project or below it: the first
// working folder its lines name.
func claudeInProject(m *memory.Memory, f io.Reader, path, own string) error {
	cwd, err := claudeCWD(f)
	switch {
	case err != nil:
		return err
	case cwd == "":
		return fmt.Errorf("%s %w", path, errNotYet)
	case !rollout.Inside(cwd, m.Project):
		return &RefusedError{Path: path, Why: fmt.Sprintf("it lies in another project's Claude Code folder (its session ran in %s; this project's folder is %s)", cwd, own)}
	}
	return nil
}

// maxCWDScan bounds what claudeCWD reads of a transcript.
const maxCWDScan = 8 << 20

// claudeCWD returns the first working folder (a line's "cwd") a Claude
// Code transcript names in its first maxCWDScan bytes, or "".
func claudeCWD(r io.Reader) (string, error) {
	sc := bufio.NewScanner(io.LimitReader(r, maxCWDScan))
	sc.Buffer(nil, maxCWDScan)
	for sc.Scan() {
		line := sc.Bytes()
		if !bytes.Contains(line, []byte(`"cwd"`)) {
			continue
		}
		var l struct {
			CWD string `json:"cwd"`
		}
		if json.Unmarshal(line, &l) == nil && l.CWD != "" {
			return l.CWD, nil
		}
	}
	if err := sc.Err(); err != nil && !errors.Is(err, bufio.ErrTooLong) {
		return "", err
	}
	return "", nil
}

// Internal reports whether a path lies where cairn's own summarizer
// runs its agent sessions (.state/summarize, the claude provider's
// configuration folder and working folder): they are never captured.
func Internal(m *memory.Memory, path string) bool {
	return path != "" && under(path, m.StatePath("summarize"))
}

// under reports whether path is dir or lies below it.
func under(path, dir string) bool {
	rel, err := filepath.Rel(dir, filepath.Clean(path))
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// ProjectRollout reports whether path, when it is one of Codex's rollouts
// (which lie in one tree for every project), is one of the project's: its
// session ran in the project's folder or below. Other transcripts are.
func ProjectRollout(m *memory.Memory, path string) bool {
	if !rollout.Is(path) {
		return true
	}
	cwd, err := rollout.CWD(path)
	return err == nil && rollout.Inside(cwd, m.Project)
}
