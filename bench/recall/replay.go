package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/cairn-mem/cairn/hooks"
	"github.com/cairn-mem/cairn/internal/config"
)

// replayer plays recorded sessions through cairn's installed hooks.
type replayer struct {
	cairn  string // the binary
	daemon bool   // run cairn daemon during the replay
	budget int    // search.context_budget to set; 0 keeps cairn's default
	packs  string // a folder to write the packs into, if set
	keep   string // a folder to keep each scratch project in, if set
	// rescore is a folder of packs written by -packs, scored instead
	// of replaying.
	rescore string
}

// Replay is what one project's replay gave.
type Replay struct {
	Budget int               // the context budget cairn ran with
	Packs  map[string]string // by session: the first SessionStart's additionalContext
	Starts int               // SessionStart calls answered
	Calls  int               // hook calls replayed
	Errors []string          // hook calls that failed, and how
	// Warnings are what else a trial found wrong (Result.Warnings).
	Warnings []string
}

// project loads a project's scenario and its recorded sessions.
func loadProject(dir string, warn func(string)) (*Scenario, map[string]*Recorded, error) {
	sc, err := LoadScenario(dir, warn)
	if err != nil {
		return nil, nil, err
	}
	recs := map[string]*Recorded{}
	for _, s := range sc.Sessions {
		r, err := readRecorded(filepath.Join(dir, "recorded", s.Name))
		if err != nil {
			return nil, nil, fmt.Errorf("%s: session %s is not recorded (go run ./bench/recall record %s): %w", sc.Project, s.Name, dir, err)
		}
		recs[s.Name] = r
	}
	return sc, recs, nil
}

// replay makes a scratch project with the fixtures, wires cairn into it as
// a user does, and replays every recorded hook call in order, without
// sleeping, through the commands its .claude/settings.json names.
func (rp *replayer) replay(ctx context.Context, sc *Scenario, recs map[string]*Recorded) (res *Replay, err error) {
	s, err := newScratch("cairn-recall-")
	if err != nil {
		return nil, err
	}
	defer rp.leave(s, sc.Project, false, &err)
	if err := s.setup(ctx, sc); err != nil {
		return nil, err
	}
	res = &Replay{Packs: map[string]string{}}
	installed, err := rp.install(ctx, s, res)
	if err != nil {
		return nil, err
	}
	if !rp.daemon {
		// Without a daemon means none: session starts must not run one.
		name := filepath.Join(s.project, ".cairn", "cairn.yaml")
		data, err := os.ReadFile(name)
		if err == nil {
			err = os.WriteFile(name, append(data, "\ndaemon:\n  autostart: false\n"...), 0o644)
		}
		if err != nil {
			return nil, err
		}
	}
	if rp.daemon {
		if err := s.run(ctx, rp.cairn, "daemon", "start"); err != nil {
			return nil, err
		}
		defer func() {
			if e := s.run(context.WithoutCancel(ctx), rp.cairn, "daemon", "stop"); e != nil && err == nil {
				err = e
			}
		}()
	}
	rep := s.replacer(false)
	for _, ss := range sc.Sessions {
		rec := recs[ss.Name]
		var tpath string
		var written int64 // of the placeholder transcript, in tpath
		for i, c := range rec.Calls {
			res.Calls++
			where := fmt.Sprintf("%s: session %s call %d (%s, prompt %d)", sc.Project, ss.Name, i+1, c.Event, c.Prompt)
			payload := []byte(rep.Replace(string(c.Payload)))
			var p struct {
				TranscriptPath string `json:"transcript_path"`
				ToolName       string `json:"tool_name"`
				Source         string `json:"source"`
			}
			if err := json.Unmarshal(payload, &p); err != nil {
				return nil, fmt.Errorf("%s: payload: %w", where, err)
			}
			if rec.Transcript != nil && p.TranscriptPath != "" {
				if p.TranscriptPath != tpath {
					tpath, written = p.TranscriptPath, 0
				}
				if written, err = grow(tpath, rep, rec.Transcript, written, c.TranscriptBytes); err != nil {
					return nil, fmt.Errorf("%s: transcript: %w", where, err)
				}
			}
			res.runHooks(ctx, s, installed, ss.Name, where, c.Event, p.ToolName, payload)
		}
	}
	if res.Starts == 0 {
		// Nothing to score: a silent row of zeros would read as a result.
		return nil, fmt.Errorf("%s: no SessionStart hook of cairn's was run: check the hooks cairn init --claude wrote (%s)", sc.Project, filepath.Join(s.project, ".claude", "settings.json"))
	}
	if rp.packs != "" {
		if err := writePacks(filepath.Join(rp.packs, sc.Project), res.Packs); err != nil {
			return nil, err
		}
	}
	return res, nil
}

// leave keeps the scratch project (and its home when home is set) if
// -keep asks for it, and removes the rest; a failure to keep it is the
// run's error unless it has one.
func (rp *replayer) leave(s *scratch, project string, home bool, err *error) {
	if rp.keep != "" {
		if e := s.keep(rp.keep, project, home); e != nil && *err == nil {
			*err = e
		}
	}
	s.remove()
}

// install wires cairn into the scratch project as a user does (cairn init
// --claude), sets the budget asked for into res.Budget, and returns the
// hooks .claude/settings.json now names.
func (rp *replayer) install(ctx context.Context, s *scratch, res *Replay) ([]hooks.Registered, error) {
	if err := s.run(ctx, rp.cairn, "init", "--claude"); err != nil {
		return nil, err
	}
	var err error
	if res.Budget, err = rp.setBudget(s.project); err != nil {
		return nil, err
	}
	data, err := os.ReadFile(filepath.Join(s.project, ".claude", "settings.json"))
	if err != nil {
		return nil, fmt.Errorf("cairn init --claude: %w", err)
	}
	installed, err := hooks.Find(data)
	if err != nil {
		return nil, fmt.Errorf("the installed settings.json: %w", err)
	}
	if !slices.ContainsFunc(installed, func(h hooks.Registered) bool { return h.Event == "SessionStart" }) {
		// hooks.IsCairn knows cairn's binary by its name: cairn, or
		// cairn-something.
		return nil, fmt.Errorf("cairn init --claude installed no SessionStart hook that cairn knows as its own: is the binary (%s) named cairn?", rp.cairn)
	}
	return installed, nil
}

// runHooks runs the installed hooks of event (matcher applied to tool)
// with payload, as Claude Code would for session, and adds to res the
// calls that failed, the session starts answered and the session's pack:
// the first SessionStart's additionalContext.
func (res *Replay) runHooks(ctx context.Context, s *scratch, installed []hooks.Registered, session, where, event, tool string, payload []byte) {
	for _, h := range installed {
		if h.Event != event || !matches(h.Matcher, tool) {
			continue
		}
		out, err := s.hook(ctx, h.Hook, payload)
		if err != nil {
			res.Errors = append(res.Errors, fmt.Sprintf("%s: %v", where, err))
			continue
		}
		if event != "SessionStart" {
			continue
		}
		res.Starts++
		if _, seen := res.Packs[session]; !seen {
			res.Packs[session] = additionalContext(out)
		}
	}
}

func writePacks(dir string, packs map[string]string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for name, p := range packs {
		if err := os.WriteFile(filepath.Join(dir, name+".md"), []byte(p), 0o644); err != nil {
			return err
		}
	}
	return nil
}

// grow makes the transcript at name hold the first n bytes of the
// recorded (placeholder) transcript tr, of which it holds the first
// written: appended as Claude Code appends, rewritten if it shrinks.
func grow(name string, rep *strings.Replacer, tr []byte, written, n int64) (int64, error) {
	if n == written {
		if _, err := os.Stat(name); err == nil || n > 0 {
			return n, err
		}
		return n, nil // Claude Code has not made the file yet
	}
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		return written, err
	}
	flag := os.O_WRONLY | os.O_CREATE | os.O_APPEND
	from := written
	if n < written {
		flag, from = os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0
	}
	f, err := os.OpenFile(name, flag, 0o600)
	if err != nil {
		return written, err
	}
	// Placeholders never span a line and the cuts are at line ends, so
	// the replaced prefix is the replaced pieces one after another.
	if _, err := f.WriteString(rep.Replace(string(tr[from:n]))); err != nil {
		f.Close()
		return written, err
	}
	return n, f.Close()
}

// matches reports whether a hook group's matcher takes the tool, as
// Claude Code reads it: empty or * for every tool, else a regexp.
func matches(matcher, tool string) bool {
	if matcher == "" || matcher == "*" {
		return true
	}
	re, err := regexp.Compile("^(" + matcher + ")$")
	return err == nil && re.MatchString(tool)
}

// hook runs one installed command as Claude Code does: sh -c in the
// project, CLAUDE_PROJECT_DIR set, the payload on stdin, killed at its
// timeout.
func (s *scratch) hook(ctx context.Context, h hooks.Hook, payload []byte) ([]byte, error) {
	timeout := time.Duration(h.Timeout) * time.Second
	if timeout <= 0 {
		timeout = 60 * time.Second // Claude Code's default
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, "sh", "-c", h.Command)
	cmd.Dir = s.project
	cmd.Env = s.env("CLAUDE_PROJECT_DIR=" + s.project)
	cmd.Stdin = bytes.NewReader(payload)
	cmd.WaitDelay = time.Second
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	start := time.Now()
	err := cmd.Run()
	if ctx.Err() != nil {
		return nil, fmt.Errorf("%s: killed at its timeout (%v) after %v", h.Command, timeout, time.Since(start).Round(time.Millisecond))
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w: %s", h.Command, err, oneLine(stderr.String(), 500))
	}
	return stdout.Bytes(), nil
}

// additionalContext is what a SessionStart hook's output adds to the
// conversation: hookSpecificOutput.additionalContext of a JSON answer, or
// the plain text printed.
func additionalContext(out []byte) string {
	var o hooks.Output
	if json.Unmarshal(out, &o) == nil {
		if o.Specific != nil {
			return o.Specific.AdditionalContext
		}
		return ""
	}
	return strings.TrimSpace(string(out))
}

// setBudget sets search.context_budget in the project's cairn.yaml when
// one is asked for, and returns the budget cairn will use.
func (rp *replayer) setBudget(project string) (int, error) {
	name := filepath.Join(project, ".cairn", "cairn.yaml")
	if rp.budget > 0 {
		data, err := os.ReadFile(name)
		if err != nil {
			return 0, err
		}
		if regexp.MustCompile(`(?m)^search:`).Match(data) {
			return 0, fmt.Errorf("%s already has a search: section; -budget cannot add one", name)
		}
		data = fmt.Appendf(data, "\nsearch:\n  context_budget: %d\n", rp.budget)
		if err := os.WriteFile(name, data, 0o644); err != nil {
			return 0, err
		}
	}
	cfg, _, err := config.Load(name)
	if err != nil {
		return 0, fmt.Errorf("%s: %w", name, err)
	}
	return cfg.Search.ContextBudget, nil
}
