package main

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/cairn-mem/cairn/hooks"
	"github.com/cairn-mem/cairn/internal/transcript"
)

// recordEvents are the events the recording hook is installed for: every
// event Claude Code fires a command hook on in a -p session, and a few it
// may.
var recordEvents = []string{"SessionStart", "UserPromptSubmit", "PreToolUse", "PostToolUse", "PostToolUseFailure",
	"Stop", "SubagentStop", "PreCompact", "PostCompact", "SessionEnd", "Notification"}

// maxRecorded is the size a project's recorded/ should stay under.
const maxRecorded = 1536 << 10

// recorder plays scenarios through the real Claude Code CLI.
type recorder struct {
	claude string // the CLI
	fake   string // fake_anthropic.py
	self   string // this program, for the recording hook
	warn   func(string)
	log    func(string)
}

// record plays sc and writes sc.dir/recorded/.
func (r *recorder) record(ctx context.Context, sc *Scenario) (err error) {
	s, err := newScratch("cairn-record-")
	if err != nil {
		return err
	}
	defer s.remove()
	if err := s.setup(ctx, sc); err != nil {
		return fmt.Errorf("%s: scratch project: %w", sc.Project, err)
	}
	raw := filepath.Join(s.root, "hooks.raw.jsonl")
	if err := r.installHook(s.project, raw); err != nil {
		return err
	}
	out := filepath.Join(sc.dir, "recorded.new")
	if err := os.RemoveAll(out); err != nil {
		return err
	}
	defer func() {
		if err != nil {
			os.RemoveAll(out)
		}
	}()
	rep := s.replacer(true)
	var total int64
	var done int64 // how much of raw is taken
	for i := range sc.Sessions {
		ss := &sc.Sessions[i]
		var rec *Recorded
		if ss.Clear {
			rec, err = r.clearSession(s, ss)
		} else {
			rec, err = r.session(ctx, s, ss, raw, &done)
		}
		if err != nil {
			return fmt.Errorf("%s: session %s: %w", sc.Project, ss.Name, err)
		}
		// Placeholders: lengths change, so transcript_bytes are measured
		// again on the placeholder form of the same prefix.
		ph := &Recorded{Calls: rec.Calls}
		if rec.Transcript != nil {
			ph.Transcript = []byte(rep.Replace(string(rec.Transcript)))
		}
		for j := range ph.Calls {
			c := &ph.Calls[j]
			c.TranscriptBytes = int64(len(rep.Replace(string(rec.Transcript[:c.TranscriptBytes]))))
			c.Payload = json.RawMessage(rep.Replace(string(c.Payload)))
		}
		for _, b := range append([][]byte{ph.Transcript}, payloads(ph.Calls)...) {
			if bytes.Contains(b, []byte(s.root)) {
				r.warn(fmt.Sprintf("%s: session %s: a machine path (%s) is left after placeholders", sc.Project, ss.Name, s.root))
				break
			}
		}
		if err := writeRecorded(filepath.Join(out, ss.Name), ph); err != nil {
			return err
		}
		total += int64(len(ph.Transcript))
		for _, c := range ph.Calls {
			total += int64(len(c.Payload))
		}
		r.log(fmt.Sprintf("%s: session %s: %d hook calls, transcript %d bytes", sc.Project, ss.Name, len(ph.Calls), len(ph.Transcript)))
	}
	if total > maxRecorded {
		r.warn(fmt.Sprintf("%s: recorded %d KB, more than the %d KB a project should take: shorten the noisy outputs", sc.Project, total>>10, maxRecorded>>10))
	}
	final := filepath.Join(sc.dir, "recorded")
	if err := os.RemoveAll(final); err != nil {
		return err
	}
	return os.Rename(out, final)
}

func payloads(calls []Call) [][]byte {
	out := make([][]byte, len(calls))
	for i, c := range calls {
		out[i] = c.Payload
	}
	return out
}

// installHook writes the project's .claude/settings.json: the recording
// hook on every event, run synchronously so that the transcript's length
// is taken when Claude Code calls it.
func (r *recorder) installHook(project, raw string) error {
	cmd := hooks.ShellQuote(r.self) + " hook-record " + hooks.ShellQuote(raw)
	all := map[string][]hooks.Group{}
	for _, ev := range recordEvents {
		g := hooks.Group{Hooks: []hooks.Hook{{Type: "command", Command: cmd, Timeout: 30}}}
		if strings.HasSuffix(ev, "ToolUse") || ev == "PostToolUseFailure" {
			g.Matcher = "*"
		}
		all[ev] = []hooks.Group{g}
	}
	data, err := json.MarshalIndent(map[string]any{"hooks": all}, "", "  ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Join(project, ".claude"), 0o755); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(project, ".claude", "settings.json"), data, 0o644)
}

// rawCall is what the recording hook appends for each call.
type rawCall struct {
	Event           string          `json:"event"`
	TranscriptBytes int64           `json:"transcript_bytes"`
	Payload         json.RawMessage `json:"payload"`
}

// hookRecord is the recording hook: it appends the payload on stdin and
// the length of its transcript to the file log, in one write.
func hookRecord(log string, stdin io.Reader) error {
	payload, err := io.ReadAll(stdin)
	if err != nil {
		return fmt.Errorf("read payload: %w", err)
	}
	var p struct {
		Event          string `json:"hook_event_name"`
		TranscriptPath string `json:"transcript_path"`
	}
	if err := json.Unmarshal(payload, &p); err != nil {
		return fmt.Errorf("payload: %w", err)
	}
	c := rawCall{Event: p.Event, Payload: bytes.TrimSpace(payload)}
	if fi, err := os.Stat(p.TranscriptPath); err == nil {
		c.TranscriptBytes = fi.Size()
	}
	line, err := json.Marshal(c)
	if err != nil {
		return err
	}
	f, err := os.OpenFile(log, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return err
	}
	if _, err := f.Write(append(line, '\n')); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// session runs the prompts of ss as one Claude Code session with the
// recording hook, whose calls it takes from raw after *done.
func (r *recorder) session(ctx context.Context, s *scratch, ss *Session, raw string, done *int64) (*Recorded, error) {
	return r.play(ctx, s, ss, func(prompt int, _ string) ([]Call, error) {
		raws, err := takeRaw(raw, done)
		if err != nil {
			return nil, err
		}
		calls := make([]Call, len(raws))
		for i, c := range raws {
			calls[i] = Call{Event: c.Event, Session: ss.Name, Prompt: prompt, TranscriptBytes: c.TranscriptBytes, Payload: c.Payload}
		}
		return calls, nil
	})
}

// play runs the prompts of ss as one Claude Code session, the first
// prompt starting it and the others resuming it, and returns its
// transcript. After each prompt, calls returns the hook calls it made,
// given the prompt's number and what claude printed on stderr.
func (r *recorder) play(ctx context.Context, s *scratch, ss *Session, calls func(prompt int, stderr string) ([]Call, error)) (*Recorded, error) {
	script := ss.script()
	scriptFile := filepath.Join(s.root, "script-"+ss.Name+".json")
	data, err := json.MarshalIndent(script, "", " ")
	if err != nil {
		return nil, err
	}
	if err := os.WriteFile(scriptFile, data, 0o644); err != nil {
		return nil, err
	}
	url, stop, err := r.startFake(ctx, scriptFile, filepath.Join(s.root, "requests-"+ss.Name+".log"))
	if err != nil {
		return nil, err
	}
	defer stop()

	rec := &Recorded{}
	var id, tpath string
	turns := 0
	for j, p := range ss.Prompts {
		where := fmt.Sprintf("prompt %d (%s)", j+1, oneLine(p.User, 60))
		args := []string{"-p", p.User, "--output-format", "json"}
		if t := ss.tools(); len(t) > 0 {
			args = append(args, "--allowedTools", strings.Join(t, ","))
		}
		if id != "" {
			args = append(args, "--resume", id)
		}
		var before int64 // the transcript's length before the prompt: its tool errors are after
		if fi, err := os.Stat(tpath); err == nil {
			before = fi.Size()
		}
		pctx, cancel := context.WithTimeout(ctx, 5*time.Minute)
		cmd := exec.CommandContext(pctx, r.claude, args...)
		cmd.Dir = s.project
		cmd.Env = s.env("ANTHROPIC_BASE_URL="+url, "ANTHROPIC_API_KEY=sk-ant-test",
			"DISABLE_AUTOUPDATER=1", "DISABLE_TELEMETRY=1", "DISABLE_ERROR_REPORTING=1",
			"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1")
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		err := cmd.Run()
		cancel()
		printed := fmt.Sprintf("stdout: %s\nstderr: %s", oneLine(stdout.String(), 2000), oneLine(stderr.String(), 2000))
		if err != nil {
			return nil, fmt.Errorf("%s: claude %s: %w\n%s", where, strings.Join(quoteAll(args), " "), err, printed)
		}
		var res struct {
			IsError   bool   `json:"is_error"`
			Result    string `json:"result"`
			SessionID string `json:"session_id"`
		}
		if err := json.Unmarshal(bytes.TrimSpace(stdout.Bytes()), &res); err != nil {
			return nil, fmt.Errorf("%s: claude's output is not the JSON result: %w\n%s", where, err, printed)
		}
		if res.IsError {
			return nil, fmt.Errorf("%s: claude reports an error\n%s", where, printed)
		}
		if id == "" {
			id = res.SessionID
			tpath = filepath.Join(s.home, ".claude", "projects", projectKey(s.project), id+".jsonl")
		} else if res.SessionID != id {
			return nil, fmt.Errorf("%s: --resume %s went on as session %s", where, id, res.SessionID)
		}
		turns += len(p.Model)
		if p.command() {
			turns++
		}
		refused, failed := toolErrors(tpath, before)
		if refused != "" {
			return nil, fmt.Errorf("%s: tool calls Claude Code refused or could not run (Write or Edit an existing file only after a Read of it; Edit's old_string must be in the file; a Bash cd stays in effect for later calls):%s", where, refused)
		}
		if failed != "" {
			r.warn(fmt.Sprintf("session %s %s: commands that failed (fine if the scenario means them to):%s", ss.Name, where, failed))
		}
		if len(p.Model) > 0 {
			want := strings.TrimSpace(p.Model[len(p.Model)-1].Text)
			if strings.TrimSpace(res.Result) != want {
				return nil, fmt.Errorf("%s: claude answered %q where the script's last turn says %q: the conversation and the script (turn %d of the session) are out of step",
					where, oneLine(res.Result, 200), oneLine(want, 200), turns)
			}
		}
		made, err := calls(j+1, stderr.String())
		if err != nil {
			return nil, err
		}
		rec.Calls = append(rec.Calls, made...)
	}
	tr, err := os.ReadFile(tpath)
	if err != nil {
		return nil, fmt.Errorf("the session's transcript: %w", err)
	}
	rec.Transcript = tr
	for i := range rec.Calls {
		c := &rec.Calls[i]
		var p struct {
			TranscriptPath string `json:"transcript_path"`
		}
		json.Unmarshal(c.Payload, &p)
		if p.TranscriptPath != tpath {
			return nil, fmt.Errorf("prompt %d: %s hook names transcript %s, not the session's %s", c.Prompt, c.Event, p.TranscriptPath, tpath)
		}
		n := c.TranscriptBytes
		if n > int64(len(tr)) || (n > 0 && tr[n-1] != '\n') {
			return nil, fmt.Errorf("prompt %d: %s hook saw %d transcript bytes, not a line boundary of the final %d: Claude Code rewrote the transcript?", c.Prompt, c.Event, n, len(tr))
		}
	}
	return rec, nil
}

// toolErrors lists the failed tool calls of a transcript from offset
// from on, one per line: those Claude Code refused or could not run
// (validation, permission, a missing file), and the commands that ran and
// failed.
func toolErrors(tpath string, from int64) (refused, failed string) {
	data, err := os.ReadFile(tpath)
	if err != nil {
		return "", ""
	}
	p := transcript.ParseClaude(data, transcript.Options{Name: tpath, Final: true})
	var rb, fb strings.Builder
	for _, e := range p.Events {
		if e.Kind != transcript.KindToolResult || !e.Result.IsError || e.Offset < from {
			continue
		}
		b := &rb
		if e.Result.ExitCode != nil {
			b = &fb
		}
		fmt.Fprintf(b, "\n  %s: %s", e.Result.Summary, oneLine(e.Result.Output, 300))
	}
	return rb.String(), fb.String()
}

// takeRaw returns the calls the recording hook appended to raw after
// *done, and moves *done past them.
func takeRaw(raw string, done *int64) ([]rawCall, error) {
	data, err := os.ReadFile(raw)
	if err != nil {
		if os.IsNotExist(err) {
			return nil, errors.New("the recording hook never ran: does this claude read .claude/settings.json?")
		}
		return nil, err
	}
	data = data[*done:]
	*done += int64(len(data))
	var out []rawCall
	for line := range bytes.Lines(data) {
		var c rawCall
		if err := json.Unmarshal(line, &c); err != nil {
			return nil, fmt.Errorf("%s: %w", raw, err)
		}
		out = append(out, c)
	}
	return out, nil
}

// clearSession makes the hook calls of an empty session as /clear starts
// it and the next /clear ends it. claude -p cannot run /clear, and
// claude mcp list (2.1.197) fires only SessionEnd, so both payloads are
// written in the shape of Claude Code's.
func (r *recorder) clearSession(s *scratch, ss *Session) (*Recorded, error) {
	id, err := newUUID()
	if err != nil {
		return nil, err
	}
	tpath := filepath.Join(s.home, ".claude", "projects", projectKey(s.project), id+".jsonl")
	type start struct {
		SessionID      string `json:"session_id"`
		TranscriptPath string `json:"transcript_path"`
		CWD            string `json:"cwd"`
		Event          string `json:"hook_event_name"`
		Source         string `json:"source"`
	}
	type end struct {
		SessionID      string `json:"session_id"`
		TranscriptPath string `json:"transcript_path"`
		CWD            string `json:"cwd"`
		Event          string `json:"hook_event_name"`
		Reason         string `json:"reason"`
	}
	a, _ := json.Marshal(start{id, tpath, s.project, "SessionStart", "clear"})
	b, _ := json.Marshal(end{id, tpath, s.project, "SessionEnd", "clear"})
	return &Recorded{Calls: []Call{
		{Event: "SessionStart", Session: ss.Name, Payload: a, Synthesized: true},
		{Event: "SessionEnd", Session: ss.Name, Payload: b, Synthesized: true},
	}}, nil
}

func newUUID() (string, error) {
	var u [16]byte
	if _, err := rand.Read(u[:]); err != nil {
		return "", err
	}
	u[6] = u[6]&0x0f | 0x40
	u[8] = u[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", u[0:4], u[4:6], u[6:8], u[8:10], u[10:]), nil
}

// startFake starts the fake Anthropic server on a free loopback port and
// waits until it answers.
func (r *recorder) startFake(ctx context.Context, script, log string) (url string, stop func(), err error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", nil, err
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	var stderr bytes.Buffer
	cmd := exec.Command("python3", r.fake, fmt.Sprint(port), script, log)
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		return "", nil, fmt.Errorf("start the fake server: %w", err)
	}
	exited := make(chan struct{})
	go func() { cmd.Wait(); close(exited) }()
	stop = func() { cmd.Process.Kill(); <-exited }
	url = fmt.Sprintf("http://127.0.0.1:%d", port)
	deadline := time.Now().Add(15 * time.Second)
	for {
		resp, err := http.Get(url + "/")
		if err == nil {
			resp.Body.Close()
			return url, stop, nil
		}
		select {
		case <-exited:
			return "", nil, fmt.Errorf("the fake server (%s) exited: %s", r.fake, oneLine(stderr.String(), 1000))
		case <-ctx.Done():
			stop()
			return "", nil, ctx.Err()
		case <-time.After(50 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			stop()
			return "", nil, fmt.Errorf("the fake server on port %d did not answer in 15 s", port)
		}
	}
}

func oneLine(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > n {
		return string(r[:n]) + "…"
	}
	return s
}

func quoteAll(args []string) []string {
	out := make([]string, len(args))
	for i, a := range args {
		out[i] = hooks.ShellQuote(a)
	}
	return out
}
