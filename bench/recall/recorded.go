package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
)

// A recorded project: recorded/SESSION/hooks.jsonl and, for sessions that
// ran, recorded/SESSION/transcript.jsonl, with machine paths replaced by
// these placeholders.
const (
	phHome       = "@HOME@"        // the temporary $HOME Claude Code ran with
	phProject    = "@PROJECT@"     // the scratch project
	phProjectKey = "@PROJECT_KEY@" // its folder name under ~/.claude/projects
	phPath       = "@PATH@"        // the recording machine's $PATH, as a command may print it
	phUserHome   = "@USERHOME@"    // the recording user's own home, as a traceback may print it
)

// replayPath is what a recorded $PATH reads as on replay: a machine's own
// folders stay out of the recordings, and no replayed command runs.
const replayPath = "/usr/local/bin:/usr/bin:/bin"

// replayUserHome is what the recording user's home reads as on replay
// (a pyenv install's csv.py under it, in a Python traceback): the
// machine's own folders stay out of the recordings.
const replayUserHome = "/home/user"

// Call is one line of hooks.jsonl: a hook call as Claude Code made it.
type Call struct {
	Event string `json:"event"`
	// Session and Prompt say which scenario session and which of its
	// prompts (1-based; 0 for none) made the call.
	Session string `json:"session"`
	Prompt  int    `json:"prompt"`
	// TranscriptBytes is the length of the (placeholder form of the)
	// transcript when the hook ran.
	TranscriptBytes int64           `json:"transcript_bytes"`
	Payload         json.RawMessage `json:"payload"`
	// Synthesized marks a payload written by the recorder in the shape of
	// Claude Code's (the empty sessions of clear: true).
	Synthesized bool `json:"synthesized,omitempty"`
}

// Recorded is a session as recorded.
type Recorded struct {
	Calls      []Call
	Transcript []byte // placeholder form; nil for a session that never ran
}

// projectKey is the folder Claude Code keeps a project's transcripts in:
// the path with every character that is not a letter or digit made "-".
func projectKey(dir string) string {
	return notAlnum.ReplaceAllString(dir, "-")
}

var notAlnum = regexp.MustCompile(`[^A-Za-z0-9]`)

// paths are the machine folders of one run: what placeholders stand for.
type paths struct{ home, project string }

func (p paths) replacer(toPlaceholders bool) *strings.Replacer {
	pairs := [][2]string{
		{p.home, phHome},
		{p.project, phProject},
		{projectKey(p.project), phProjectKey},
	}
	if toPlaceholders {
		if path := os.Getenv("PATH"); len(path) > len(replayPath) {
			pairs = append(pairs, [2]string{path, phPath})
		}
		// After the run's own folders, which may lie under it.
		if h, err := os.UserHomeDir(); err == nil && len(h) > 1 {
			pairs = append(pairs, [2]string{strings.TrimRight(h, "/") + "/", phUserHome + "/"})
		}
	} else {
		pairs = append(pairs, [2]string{replayPath, phPath}, [2]string{replayUserHome + "/", phUserHome + "/"})
	}
	var args []string
	for _, pr := range pairs {
		if toPlaceholders {
			args = append(args, pr[0], pr[1])
		} else {
			args = append(args, pr[1], pr[0])
		}
	}
	return strings.NewReplacer(args...)
}

// readRecorded reads a session's recorded files.
func readRecorded(dir string) (*Recorded, error) {
	f, err := os.Open(filepath.Join(dir, "hooks.jsonl"))
	if err != nil {
		return nil, err
	}
	defer f.Close()
	r := &Recorded{}
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 16<<20)
	for n := 1; sc.Scan(); n++ {
		var c Call
		if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
			return nil, fmt.Errorf("%s:%d: %w", f.Name(), n, err)
		}
		r.Calls = append(r.Calls, c)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("read %s: %w", f.Name(), err)
	}
	r.Transcript, err = os.ReadFile(filepath.Join(dir, "transcript.jsonl"))
	if err != nil && !os.IsNotExist(err) {
		return nil, err
	}
	for i, c := range r.Calls {
		if c.TranscriptBytes < 0 || c.TranscriptBytes > int64(len(r.Transcript)) {
			return nil, fmt.Errorf("%s: call %d (%s) wants %d transcript bytes of %d", f.Name(), i+1, c.Event, c.TranscriptBytes, len(r.Transcript))
		}
	}
	return r, nil
}

// writeRecorded writes a session's recorded files into dir.
func writeRecorded(dir string, r *Recorded) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	for _, c := range r.Calls {
		if err := enc.Encode(c); err != nil {
			return fmt.Errorf("encode %s call: %w", c.Event, err)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "hooks.jsonl"), b.Bytes(), 0o644); err != nil {
		return err
	}
	if r.Transcript == nil {
		return nil
	}
	return os.WriteFile(filepath.Join(dir, "transcript.jsonl"), r.Transcript, 0o644)
}
