package hooks

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/cairn-mem/cairn/internal/model"
	"github.com/cairn-mem/cairn/internal/safefile"
)

// What cairn hook answers Claude Code, and within which limits.

// Limits of cairn hook.
const (
	// MaxContextChars bounds the additionalContext printed: Claude Code
	// cuts any hook output string at 10,000 characters.
	MaxContextChars = 9500
	// MaxPromptContextChars bounds what one prompt gets.
	MaxPromptContextChars = 2500
	// MaxPayload is the most of stdin read for session-start and
	// user-prompt-submit, whose payloads are small.
	MaxPayload = 1 << 20
)

// Deadline is how long cairn hook may take for an event: a little less
// than the timeout it is registered with, after which Claude Code kills
// it and whatever it would have printed is lost.
func Deadline(ev string) time.Duration {
	secs := CaptureTimeout
	switch ev {
	case model.HookSessionStart:
		secs = SessionStartTimeout
	case model.HookUserPromptSubmit:
		secs = PromptTimeout
	}
	return time.Duration(secs)*time.Second - 2*time.Second
}

// Output is what a hook prints on stdout for Claude Code.
type Output struct {
	Specific      *Specific `json:"hookSpecificOutput,omitempty"`
	SystemMessage string    `json:"systemMessage,omitempty"`
}

// Specific is the event's part of Output: the context it adds.
type Specific struct {
	HookEventName     string `json:"hookEventName"`
	AdditionalContext string `json:"additionalContext"`
}

// WriteOutput writes out as one line of JSON, in one write, with <, >
// and & as they are (Claude Code gives the text to the model).
func WriteOutput(w io.Writer, out *Output) error {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(out); err != nil {
		return err
	}
	if _, err := w.Write(b.Bytes()); err != nil {
		return fmt.Errorf("write stdout: %w", err)
	}
	return nil
}

// DropPayload copies r into a new file of the inbox, named
// hook-<nanoseconds>-<pid>.json as the capture script names it, through
// safefile (a hidden temporary, fsynced, renamed), tagged with agent
// (TagAgent). The directory is not synced, as before: a payload lost to a
// crash is one event less. Nothing on r writes nothing.
func DropPayload(inbox string, r io.Reader, agent string) error {
	r = TagAgent(r, agent)
	if err := os.MkdirAll(inbox, 0o700); err != nil {
		return err
	}
	stamp := fmt.Sprintf("%d-%d", time.Now().UnixNano(), os.Getpid())
	err := safefile.WriteFunc(filepath.Join(inbox, "hook-"+stamp+".json"), 0o600, safefile.SyncFile, func(w io.Writer) error {
		n, err := io.Copy(w, r)
		if err == nil && n == 0 {
			return errNoPayload
		}
		return err
	})
	if errors.Is(err, errNoPayload) {
		return nil
	}
	return err
}

// TagAgent returns r with model.HookAgentKey naming agent added as the
// first key of the JSON object r holds, streamed (a payload may be large):
// `{"cairn_agent":"codex",` and the rest. Claude Code's payloads (agent
// empty or AgentClaudeCode) and input that is not an object pass as they
// are.
func TagAgent(r io.Reader, agent string) io.Reader {
	if agent == "" || agent == model.AgentClaudeCode {
		return r
	}
	br := bufio.NewReader(r)
	var lead []byte
	for {
		c, err := br.ReadByte()
		if err != nil {
			return io.MultiReader(bytes.NewReader(lead), br)
		}
		switch c {
		case ' ', '\t', '\r', '\n':
			lead = append(lead, c)
			continue
		case '{':
		default:
			lead = append(lead, c)
			return io.MultiReader(bytes.NewReader(lead), br)
		}
		break
	}
	key, _ := json.Marshal(model.HookAgentKey)
	val, _ := json.Marshal(agent)
	head := append(append(append(append([]byte("{"), key...), ':'), val...), ',')
	// An empty object takes no comma.
	for {
		b, err := br.Peek(1)
		if err != nil {
			break
		}
		if b[0] == ' ' || b[0] == '\t' || b[0] == '\r' || b[0] == '\n' {
			br.ReadByte()
			continue
		}
		if b[0] == '}' {
			head = head[:len(head)-1]
		}
		break
	}
	return io.MultiReader(bytes.NewReader(lead), bytes.NewReader(head), br)
}

// errNoPayload stops DropPayload from writing an empty file.
var errNoPayload = errors.New("no payload")
