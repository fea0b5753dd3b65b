package summarize

import (
	"context"
	"fmt"
	"strings"

	"github.com/cairn-mem/cairn/internal/prose"
	"github.com/cairn-mem/cairn/internal/shellcmd"
	"github.com/cairn-mem/cairn/internal/summarize/cue"
	"github.com/cairn-mem/cairn/internal/summarize/edits"
	"github.com/cairn-mem/cairn/internal/summarize/runout"
	"github.com/cairn-mem/cairn/internal/summarize/weigh"
)

// Extractive summarises without a model: offline, deterministic and fast.
// It reads the structure of the segment: the user's prompts, the files
// read and changed, the commands run and how they ended, a failure and
// the later success of the same command (a fix, and the files changed in
// between), tests and their counts, commits; and, in the prose of the
// user and the agent (never in tool output), the kinds of statement a
// later session needs: root causes, decisions with their reasons and the
// alternatives turned down, the user's preferences, facts about the
// environment and what is left open (see cues.go). The zero value is
// ready to use.
type Extractive struct{}

// Summarize implements Summarizer.
func (Extractive) Summarize(ctx context.Context, req Request) (Result, error) {
	if err := ctx.Err(); err != nil {
		return Result{}, err
	}
	var asked []string
	if req.Segment.Before != "" {
		// The question the message before answered is the last request
		// of the segment before: "spool files on disk, or a table on
		// the Postgres at db-02?"
		if rs := lastPart(req.PreviousSummary, "**Request"); len(rs) > 0 {
			asked = weigh.Options(rs[len(rs)-1])
		}
	}
	a := analyze(req.Segment.Turns, req.Segment.Before, asked)
	a.carry(req.PreviousSummary)
	return Result{
		Summary:  a.markdown(Heading(SegmentIndex(req), req.Segment.Turns)),
		Items:    a.items,
		Provider: "extractive",
	}, nil
}

type fileUse struct {
	path                 string
	reads, edits, writes int
	wrote                int // the turn of the last write, when writes > 0
	// what is what the agent said it was doing as it first changed the
	// file ("Adding a berth loader"): a later session that finishes an
	// open item in other words often names it only there.
	what string
	// replaced are the one-line replacements of its edits that give a
	// value another one ("reminders: 10" → "reminders: 3"), the last
	// of each line.
	replaced edits.Values
}

type run struct {
	turn    int // index in the segment
	cmd     string
	key     string
	purpose shellcmd.Purpose
	failed  bool
	exit    *int
	output  string
	err     string // for a run that stays failing: what it said
}

type fix struct {
	key      string
	attempts int    // failing runs before the success
	err      string // what the first failure said
	files    []string
	later    string // the broader command whose success counts, if not key itself
	// after is the last command run in between, when no file tool
	// changed anything: a fix made by a script (python3 - <<PY, sed -i)
	// passed after it, not "on a rerun".
	after string
}

func (a *analysis) file(path string) *fileUse {
	f := a.byPath[path]
	if f == nil {
		f = &fileUse{path: path}
		a.byPath[path] = f
		a.files = append(a.files, f)
	}
	return f
}

func (a *analysis) tool(i int, t Turn) {
	for _, l := range manifestVersions(t) {
		a.env = prose.AppendNew(a.env, l)
	}
	switch toolOp(t.Tool) {
	case opCommand:
		cmd := input(t)
		if cmd == "" {
			return
		}
		key := shellcmd.Key(cmd)
		r := run{turn: i, cmd: cmd, key: key, purpose: shellcmd.PurposeOf(key), failed: failed(t), exit: t.ExitCode, output: t.Text}
		a.runs = append(a.runs, r)
		if r.purpose == shellcmd.PurposeCommit && !r.failed {
			if msg := shellcmd.CommitMessage(cmd); msg != "" {
				a.commits = prose.AppendNew(a.commits, prose.Clip(msg, 120))
			}
		}
	case opRead:
		if failed(t) {
			return
		}
		for _, p := range paths(t) {
			a.file(p).reads++
		}
	case opEdit, opWrite:
		if failed(t) {
			a.toolError(i, t)
			return
		}
		for _, p := range paths(t) {
			f := a.file(p)
			if f.edits+f.writes == 0 {
				f.what = a.doing(i)
			}
			if toolOp(t.Tool) == opWrite {
				f.writes++
				f.wrote = i
			} else {
				f.edits++
			}
			for _, rep := range t.Replaced {
				f.replaced.Note(rep)
			}
		}
	default:
		if failed(t) {
			a.toolError(i, t)
		}
	}
}

// toolError notes a failed non-shell tool unless the same call succeeded
// later (the agent corrected itself, as it usually does).
func (a *analysis) toolError(i int, t Turn) {
	for _, later := range a.turns[i+1:] {
		if later.Role == Tool && later.Tool == t.Tool && input(later) == input(t) && !failed(later) {
			return
		}
	}
	what := t.Tool
	if in := input(t); in != "" {
		what += " " + prose.Clip(in, 60)
	}
	msg := runout.ErrorLine(t.Text)
	if msg == "" {
		msg = "failed"
	}
	a.toolErrors = prose.AppendNew(a.toolErrors, what+": "+strings.TrimPrefix(strings.TrimSuffix(msg, "</tool_use_error>"), "<tool_use_error>"))
}

// resolve pairs failing runs with the later success of the same command
// (a fix), or of a broader command of the same family; what never
// succeeded stays failing.
func (a *analysis) resolve() {
	for i, r := range a.runs {
		if !r.failed || i > 0 && a.continues(i) {
			continue
		}
		// r starts a run of failures of its key.
		attempts, success := 0, -1
		for j := i; j < len(a.runs); j++ {
			if a.runs[j].key != r.key {
				continue
			}
			if !a.runs[j].failed {
				success = j
				break
			}
			attempts++
		}
		later := ""
		if success < 0 && r.purpose != shellcmd.PurposeOther && r.purpose != shellcmd.PurposeLook {
			for j := i + 1; j < len(a.runs); j++ {
				if !a.runs[j].failed && shellcmd.Family(a.runs[j].key) == shellcmd.Family(r.key) && a.runs[j].purpose == r.purpose {
					success, later = j, a.runs[j].key
					break
				}
			}
		}
		errText := runout.ErrorLine(r.output)
		if r.purpose == shellcmd.PurposeTest {
			if o := runout.TestOutcome(r.output); strings.Contains(o, "failing: ") {
				names := o[strings.Index(o, "failing: ")+len("failing: "):]
				if errText == "" || strings.Contains(errText, names) {
					errText = names
				} else {
					errText = names + ": " + errText
				}
			}
		}
		if success < 0 {
			last := r
			for j := i + 1; j < len(a.runs); j++ {
				if a.runs[j].key == r.key {
					last = a.runs[j]
				}
			}
			if last.output != r.output {
				errText = runout.ErrorLine(last.output)
			}
			last.err = errText
			a.failing = append(a.failing, last)
			continue
		}
		f := fix{
			key:      r.key,
			attempts: attempts,
			err:      errText,
			files:    a.changedBetween(r.turn, a.runs[success].turn),
			later:    later,
		}
		if len(f.files) == 0 {
			for _, x := range a.runs[i+1 : success] {
				if !x.failed && x.key != r.key && x.purpose != shellcmd.PurposeLook && x.purpose != shellcmd.PurposeTest {
					f.after = x.key
				}
			}
		}
		a.fixes = append(a.fixes, f)
	}
}

// continues reports whether run i follows an earlier failure of its key
// with no success in between: it belongs to that failure's fix.
func (a *analysis) continues(i int) bool {
	for j := i - 1; j >= 0; j-- {
		if a.runs[j].key == a.runs[i].key {
			return a.runs[j].failed
		}
	}
	return false
}

func (a *analysis) changedBetween(from, to int) []string {
	var files []string
	for _, t := range a.turns[from+1 : to] {
		if t.Role == Tool && !failed(t) && (toolOp(t.Tool) == opEdit || toolOp(t.Tool) == opWrite) {
			for _, p := range paths(t) {
				files = prose.AppendNew(files, p)
			}
		}
	}
	return files
}

// doing is what the agent said just before the tool call at turn i, as
// a short clause ("add a berth loader, same key-order mapping"), or ""
// when it said nothing since the last tool call, nothing with three
// content words ("Changing it.") or more than a step's narration (a
// report or a plan is summarised elsewhere).
func (a *analysis) doing(i int) string {
	j := i - 1
	for j >= 0 && a.turns[j].Role == Assistant && !a.turns[j].Says() {
		j--
	}
	if j < 0 || a.turns[j].Role != Assistant {
		return ""
	}
	text := strings.TrimSpace(a.turns[j].Text)
	ss := prose.Sentences(text)
	if len(text) > maxDoing || len(ss) != 1 {
		return ""
	}
	s := strings.TrimRight(ss[0], ".:… ")
	s = cue.DoingLead.ReplaceAllString(s, "")
	if len(prose.ContentWords(s)) < 3 || strings.HasSuffix(s, "?") {
		return ""
	}
	return s
}

const maxDoing = 120

func (f *fileUse) how() string {
	var parts []string
	if f.writes > 0 {
		parts = append(parts, "written")
	}
	if f.edits == 1 {
		parts = append(parts, "edited")
	} else if f.edits > 1 {
		parts = append(parts, fmt.Sprintf("edited ×%d", f.edits))
	}
	how := strings.Join(parts, ", ")
	var reps []string
	for _, r := range f.replaced[:min(len(f.replaced), maxReplaced)] {
		reps = append(reps, code(r[0])+" → "+code(r[1]))
	}
	if len(reps) > 0 {
		how += ": " + strings.Join(reps, ", ")
	}
	return how
}

// maxReplaced bounds the replaced values a file's line lists.
const maxReplaced = 3

// line says what was fixed and how; the error itself is under "Errors &
// fixes".
func (f fix) line() string {
	s := "Fixed " + code(f.key)
	if len(f.files) > 0 {
		names := f.files
		if len(names) > 4 {
			names = append(names[:4:4], fmt.Sprintf("%d more", len(f.files)-4))
		}
		s += " by changing " + strings.Join(names, ", ")
	}
	if f.later != "" {
		s += "; " + code(f.later) + " passed"
	} else if f.attempts > 1 {
		s += fmt.Sprintf("; passed after %d failed runs", f.attempts)
	}
	return s
}

// commands lists the distinct commands in order of first run, with how
// each run ended, leaving out looking-around commands that succeeded.
func (a *analysis) commands() ([]string, int) {
	type agg struct {
		key   string
		exits []string
		fail  bool
	}
	var list []*agg
	byKey := map[string]*agg{}
	nFailed := 0
	for _, r := range a.runs {
		if r.failed {
			nFailed++
		}
		g := byKey[r.key]
		if g == nil {
			g = &agg{key: r.key}
			byKey[r.key] = g
			if r.purpose != shellcmd.PurposeLook || r.failed {
				list = append(list, g)
			}
		}
		switch {
		case r.exit != nil:
			g.exits = append(g.exits, "exit "+itoa(*r.exit))
		case r.failed:
			g.exits = append(g.exits, "failed")
		default:
			g.exits = append(g.exits, "ok")
		}
		g.fail = g.fail || r.failed
	}
	var out []string
	for i, g := range list {
		if i == maxCommands {
			out = append(out, fmt.Sprintf("… and %d more", len(list)-maxCommands))
			break
		}
		line := code(clipCommand(g.key))
		if len(g.exits) > 1 {
			line += fmt.Sprintf(" ×%d", len(g.exits))
		}
		if g.fail || len(g.exits) > 1 {
			line += ": " + strings.Join(runout.Fold(g.exits), ", ")
		}
		out = append(out, line)
	}
	return out, nFailed
}

// clipCommand cuts a command line to a bullet's length; an edit that
// would be cut keeps its place, the steps before it that edit nothing
// giving theirs ("rm -f netlify.toml && … && sed -i 's/ci-agents/build-pods/'
// k8s/pod.yaml"): what the line changed is what a later reader needs.
func clipCommand(cmd string) string {
	if e := shellcmd.Elide(cmd, 120); e != cmd || shellcmd.Elided(cmd) {
		return prose.Clip(e, 200) // elided here or by the transcript's summary of the call
	}
	return prose.Clip(cmd, 120)
}

func (a *analysis) errors() []string {
	var out []string
	for _, f := range a.fixes {
		line := code(prose.Clip(f.key, 100)) + " failed"
		if f.err != "" {
			line += ": " + code(f.err)
		}
		if len(f.files) > 0 {
			line += " → fixed in " + strings.Join(f.files[:min(len(f.files), 4)], ", ")
		} else if f.later != "" {
			line += " → " + code(f.later) + " passed later"
		} else if f.after != "" {
			line += " → passed after " + code(prose.Clip(shellcmd.Elide(f.after, 60), 80))
		} else {
			line += " → passed on a rerun"
		}
		out = append(out, line)
	}
	for _, r := range a.failing {
		line := code(prose.Clip(r.key, 100)) + " failed"
		if r.err != "" {
			line += ": " + code(r.err)
		}
		out = append(out, line+" (unresolved)")
	}
	for _, e := range a.toolErrors {
		out = append(out, e+" (tool error)")
	}
	if len(out) > maxErrors {
		out = append(out[:maxErrors], fmt.Sprintf("… and %d more", len(out)-maxErrors))
	}
	return out
}
