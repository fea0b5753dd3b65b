package watcher

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// Schema is the version of the job and cursor formats this package writes.
// Files without a schema are read as version 1; newer versions are refused.
const Schema = 1

// Kinds of jobs the queue itself makes. Other kinds belong to the callers.
const (
	// KindTranscriptDelta is a range of complete lines a transcript grew by
	// (see Delta.Job).
	KindTranscriptDelta = "transcript-delta"
	// KindInboxFile is a file dropped into the inbox that is not a job: the
	// queue moved it to its files folder and points at it.
	KindInboxFile = "inbox-file"
	// KindRejected records, in failed/, an inbox file the queue could not
	// take (binary, empty, unreadable, not a regular file, broken JSON). Its
	// pointer names the file, kept under the files folder; Retry puts the
	// file back into the inbox.
	KindRejected = "inbox-rejected"
)

// Limits on what a job file may hold.
const (
	// MaxJobSize is the largest file read as a job. A larger file dropped
	// into the inbox is data, wrapped as an inbox-file job.
	MaxJobSize = 8 << 20
	maxKindLen = 64
	maxIDLen   = 256 // session ids
	maxErrLen  = 4096
)

// ErrNotJob is wrapped by DecodeJob's error when the bytes are not a job
// document at all: not exactly one JSON object, or one without a "kind".
// Other errors mean the document is a job but an invalid one.
var ErrNotJob = errors.New("not a job document")

// Job is one unit of work in the queue: the JSON file that moves between
// the state folders. Exactly one of Payload and Pointer is set, or neither
// for a job whose kind says it all.
type Job struct {
	Schema int    `json:"schema"`
	ID     string `json:"id"` // a ULID; the file name <ID>.json is authoritative
	Kind   string `json:"kind"`

	AgentSession  string `json:"agent_session,omitempty"`  // the agent's own session id
	MemorySession string `json:"memory_session,omitempty"` // cairn's session id, used to resume the summariser

	Payload json.RawMessage `json:"payload,omitempty"`
	Pointer *Range          `json:"pointer,omitempty"`

	// Origin is the name the file had in the inbox when it was dropped
	// there under a name the queue did not give it (by a hook, a person).
	// It tells where a job came from; it is no mark of trust: anyone who can
	// write to the inbox can write any job, so a consumer checks a pointer
	// path (for example, that it lies under a watched folder) before
	// reading it.
	Origin string `json:"origin,omitempty"`

	Attempts int `json:"attempts"`
	// Abandoned counts the times a worker stopped while it held the job
	// (killed, crashed, the machine off) and Recover put it back. It is
	// kept apart from Attempts: a worker's death is no failure of the job
	// unless it happens nearly every time (see QueueOptions.MaxAbandoned).
	// Absent in files older cairns wrote, which means 0.
	Abandoned int       `json:"abandoned,omitempty"`
	LastError string    `json:"last_error,omitempty"`
	NotBefore time.Time `json:"not_before,omitzero"` // not claimed before then (backoff)
	Created   time.Time `json:"created"`
	Updated   time.Time `json:"updated"`

	// State is the folder the job was found in. It is not stored: the
	// folder is the state.
	State State `json:"-"`
}

// Range is a byte range [From, To) of a file, ending at a line boundary,
// with what is known of the file's identity and of the lines' uuids.
type Range struct {
	Path      string `json:"path"`
	From      int64  `json:"from"`
	To        int64  `json:"to"`
	Device    uint64 `json:"device,omitempty"`
	Inode     uint64 `json:"inode,omitempty"`
	FirstUUID string `json:"first_uuid,omitempty"`
	LastUUID  string `json:"last_uuid,omitempty"`
}

// Key identifies the bytes the range covers: the path, the file's identity
// when known, and the offsets. Two jobs with one key describe the same work.
func (r Range) Key() string {
	var b strings.Builder
	b.WriteString(r.Path)
	if r.Inode != 0 || r.Device != 0 {
		fmt.Fprintf(&b, "@%d:%d", r.Device, r.Inode)
	}
	fmt.Fprintf(&b, "#%d-%d", r.From, r.To)
	return b.String()
}

// Key is a job's identity for deduplication, stable across attempts, moves
// and restarts: its pointer's key, or else a hash of its kind, agent session
// and payload (compacted, so spacing does not count).
func (j *Job) Key() string {
	if j.Pointer != nil {
		return j.Pointer.Key()
	}
	h := sha256.New()
	h.Write([]byte(j.Kind))
	h.Write([]byte{0})
	h.Write([]byte(j.AgentSession))
	h.Write([]byte{0})
	var c bytes.Buffer
	if json.Compact(&c, j.Payload) == nil {
		h.Write(c.Bytes())
	} else {
		h.Write(j.Payload)
	}
	return j.Kind + ":" + hex.EncodeToString(h.Sum(nil)[:16])
}

// DecodeJob reads a job document: one JSON object with a "kind", optionally
// preceded by a UTF-8 byte order mark. It validates what it read (see
// Validate). When data is not a job document at all the error wraps
// ErrNotJob. Unknown fields are ignored, so that older readers can take
// jobs from newer writers of the same schema.
func DecodeJob(data []byte) (*Job, error) {
	data = bytes.TrimPrefix(data, utf8BOM)
	t := bytes.TrimLeft(data, " \t\r\n")
	if len(t) == 0 || t[0] != '{' {
		return nil, fmt.Errorf("%w: not a JSON object", ErrNotJob)
	}
	if !json.Valid(t) {
		// Find where: Unmarshal reports the offset of the first bad byte.
		var v any
		err := json.Unmarshal(t, &v)
		return nil, fmt.Errorf("%w: %s", ErrNotJob, jsonWhere(t, err))
	}
	var probe struct {
		Kind json.RawMessage `json:"kind"`
	}
	if err := json.Unmarshal(t, &probe); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrNotJob, err)
	}
	if probe.Kind == nil {
		return nil, fmt.Errorf(`%w: no "kind"`, ErrNotJob)
	}
	var j Job
	if err := json.Unmarshal(t, &j); err != nil {
		return nil, fmt.Errorf("decode job: %s", jsonWhere(t, err))
	}
	if err := j.Validate(); err != nil {
		return nil, err
	}
	return &j, nil
}

// Validate checks a job's fields, and fills in the schema of a job that
// had none. It does not check the id: in the queue, the file name is the id.
func (j *Job) Validate() error {
	if j.Schema == 0 {
		j.Schema = Schema
	}
	if j.Schema < 0 || j.Schema > Schema {
		return fmt.Errorf("job schema %d is not supported (this cairn reads up to %d)", j.Schema, Schema)
	}
	if err := validKind(j.Kind); err != nil {
		return err
	}
	for _, s := range []struct{ name, v string }{{"agent_session", j.AgentSession}, {"memory_session", j.MemorySession}} {
		if len(s.v) > maxIDLen || !utf8.ValidString(s.v) || strings.ContainsAny(s.v, "\x00\n\r") {
			return fmt.Errorf("job %s is not a valid session id (at most %d bytes of text on one line)", s.name, maxIDLen)
		}
	}
	if bytes.Equal(bytes.TrimSpace(j.Payload), []byte("null")) {
		j.Payload = nil
	}
	if j.Payload != nil && j.Pointer != nil {
		return errors.New("job has both a payload and a pointer")
	}
	if p := j.Pointer; p != nil {
		switch {
		case p.Path == "":
			return errors.New("job pointer has no path")
		case strings.IndexByte(p.Path, 0) >= 0:
			return errors.New("job pointer path contains a NUL byte")
		case !filepath.IsAbs(p.Path):
			return fmt.Errorf("job pointer path %q is not absolute", p.Path)
		case filepath.Clean(p.Path) != p.Path:
			return fmt.Errorf("job pointer path %q is not clean (want %q)", p.Path, filepath.Clean(p.Path))
		case p.From < 0 || p.To < p.From:
			return fmt.Errorf("job pointer range [%d, %d) is not a range", p.From, p.To)
		}
	}
	if j.Attempts < 0 {
		return fmt.Errorf("job attempts %d is negative", j.Attempts)
	}
	if j.Abandoned < 0 {
		return fmt.Errorf("job abandoned %d is negative", j.Abandoned)
	}
	return nil
}

func validKind(k string) error {
	if k == "" {
		return errors.New(`job has an empty "kind"`)
	}
	if len(k) > maxKindLen {
		return fmt.Errorf("job kind is longer than %d bytes", maxKindLen)
	}
	for _, r := range k {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' || r == '.' || r == ':') {
			return fmt.Errorf("job kind %q contains %q (allowed: letters, digits, '-', '_', '.', ':')", k, r)
		}
	}
	return nil
}

var utf8BOM = []byte{0xEF, 0xBB, 0xBF}

// jsonWhere turns a JSON error into text that says where, as line and
// column, counting lines from firstLine.
func jsonWhere(data []byte, err error) string { return jsonWhereFrom(data, err, 1) }

func jsonWhereFrom(data []byte, err error, firstLine int) string {
	var off int64 = -1
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case errors.As(err, &se):
		off = se.Offset
	case errors.As(err, &te):
		off = te.Offset
	}
	if off < 0 || off > int64(len(data)) {
		return err.Error()
	}
	line := firstLine + bytes.Count(data[:off], []byte("\n"))
	col := off - int64(bytes.LastIndexByte(data[:off], '\n'))
	return "line " + strconv.Itoa(line) + ", column " + strconv.FormatInt(col, 10) + ": " + err.Error()
}

// encode is the form a job takes on disk: indented, for people who cat it.
func (j *Job) encode() ([]byte, error) {
	data, err := json.MarshalIndent(j, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("encode job %s: %w", j.ID, err)
	}
	return append(data, '\n'), nil
}

// clip shortens an error message to what a job file keeps.
func clip(s string) string {
	if len(s) <= maxErrLen {
		return s
	}
	cut := maxErrLen
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}
