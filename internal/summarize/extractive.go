package summarize

import (
	"context"
	"fmt"
	"strings"
)

// Extractive summarises without a model: offline, deterministic and fast.
// It reads the structure of the segment: the user's prompts, the files
// read and changed, the commands run and how they ended, a failure and
// the later success of the same command (a fix, and the files changed in
// between), tests and their counts, commits; and, in the prose, decisions,
// facts, preferences, conventions and open points, found by cue phrases
// (see the imp* constants for how each is weighed). The zero value is
// ready to use.
type Extractive struct{}

// Summarize implements Summarizer.
func (Extractive) Summarize(ctx context.Context, req Request) (Result, error) {
	if err := ctx.Err(); err != nil {
		return Result{}, err
	}
	a := analyze(req.Segment.Turns)
	return Result{
		Summary:  a.markdown(heading(segmentIndex(req), req.Segment.Turns)),
		Items:    a.items,
		Provider: "extractive",
	}, nil
}

type fileUse struct {
	path                 string
	reads, edits, writes int
}

type run struct {
	turn    int // index in the segment
	cmd     string
	key     string
	purpose purpose
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
}

type analysis struct {
	turns      []Turn
	prompts    []string
	files      []*fileUse
	byPath     map[string]*fileUse
	runs       []run
	fixes      []fix
	failing    []run // last failure of commands that never succeeded after it
	toolErrors []string
	commits    []string
	outcome    string
	question   string
	pending    string
	cand       candidates
	items      []Candidate
}

func analyze(turns []Turn) *analysis {
	a := &analysis{turns: turns, byPath: map[string]*fileUse{}}
	lastAssistant, lastPrompt, lastWork := -1, -1, -1
	for i, t := range turns {
		switch t.Role {
		case User:
			if p := strings.TrimSpace(t.Text); p != "" {
				a.prompts = append(a.prompts, p)
				lastPrompt = i
				a.cand.fromText(User, p)
			}
		case Assistant:
			if strings.TrimSpace(t.Text) != "" {
				lastAssistant = i
				a.cand.fromText(Assistant, t.Text)
			}
		case Tool:
			lastWork = i
			a.tool(i, t)
		}
	}
	if lastAssistant >= 0 {
		a.outcome, a.question = outcome(turns[lastAssistant].Text)
	}
	if lastPrompt >= 0 && lastPrompt > lastAssistant && lastPrompt > lastWork {
		a.pending = clip(turns[lastPrompt].Text, 200)
	}
	a.resolve()
	a.repeatedChecks()
	a.items = capped(a.cand.list)
	return a
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
	switch toolOp(t.Tool) {
	case opCommand:
		cmd := input(t)
		if cmd == "" {
			return
		}
		key := commandKey(cmd)
		r := run{turn: i, cmd: cmd, key: key, purpose: purposeOf(key), failed: failed(t), exit: t.ExitCode, output: t.Text}
		a.runs = append(a.runs, r)
		if r.purpose == purposeCommit && !r.failed {
			if msg := commitMessage(cmd); msg != "" {
				a.commits = appendNew(a.commits, clip(msg, 120))
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
			if toolOp(t.Tool) == opWrite {
				f.writes++
			} else {
				f.edits++
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
		what += " " + clip(in, 60)
	}
	msg := errorLine(t.Text)
	if msg == "" {
		msg = "failed"
	}
	a.toolErrors = appendNew(a.toolErrors, what+": "+strings.TrimPrefix(strings.TrimSuffix(msg, "</tool_use_error>"), "<tool_use_error>"))
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
		if success < 0 && r.purpose != purposeOther && r.purpose != purposeLook {
			for j := i + 1; j < len(a.runs); j++ {
				if !a.runs[j].failed && family(a.runs[j].key) == family(r.key) && a.runs[j].purpose == r.purpose {
					success, later = j, a.runs[j].key
					break
				}
			}
		}
		errText := errorLine(r.output)
		if r.purpose == purposeTest {
			if o := testOutcome(r.output); strings.Contains(o, "failing: ") {
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
				errText = errorLine(last.output)
			}
			last.err = errText
			a.failing = append(a.failing, last)
			continue
		}
		a.fixes = append(a.fixes, fix{
			key:      r.key,
			attempts: attempts,
			err:      errText,
			files:    a.changedBetween(r.turn, a.runs[success].turn),
			later:    later,
		})
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
				files = appendNew(files, p)
			}
		}
	}
	return files
}

// repeatedChecks proposes a pattern for a test, build or lint command run
// three times or more, twice with success: it is how changes are checked
// here.
func (a *analysis) repeatedChecks() {
	count, ok := map[string]int{}, map[string]int{}
	var order []string
	for _, r := range a.runs {
		if r.purpose == purposeTest || r.purpose == purposeBuild || r.purpose == purposeLint {
			if count[r.key] == 0 {
				order = append(order, r.key)
			}
			count[r.key]++
			if !r.failed {
				ok[r.key]++
			}
		}
	}
	for _, k := range order {
		// Reruns while fixing one failure are not a habit: successes are.
		n := count[k]
		if n < 3 || ok[k] < 2 {
			continue
		}
		s := fmt.Sprintf("Changes are checked with %s", code(k))
		body := fmt.Sprintf("%s was run %d times in this segment to check changes.", code(k), n)
		a.cand.add(Pattern, s, body, clamp(impPatternRepeat+0.05*float64(n-3), 0, 0.65), []string{strings.Fields(k)[0]})
	}
}

// outcome is the first sentences of the last thing the assistant said, and
// its closing question if it asked one.
func outcome(text string) (string, string) {
	ss := sentences(text)
	if len(ss) == 0 {
		return "", ""
	}
	out := ss[0]
	if len(ss) > 1 && len(out)+len(ss[1]) < 200 {
		out += " " + ss[1]
	}
	q := ""
	if last := ss[len(ss)-1]; strings.HasSuffix(last, "?") {
		q = clip(last, 200)
	}
	return clip(out, 240), q
}

// Limits of the Markdown section, so that a busy segment stays readable.
const (
	maxPrompts  = 6
	maxFiles    = 15
	maxRead     = 10
	maxCommands = 12
	maxErrors   = 8
	maxOpen     = 6
)

func (a *analysis) markdown(head string) string {
	var b strings.Builder
	b.WriteString(head)
	b.WriteString("\n")
	section := func(name string, lines []string) {
		if len(lines) == 0 {
			return
		}
		b.WriteString("\n" + name + "\n")
		for _, l := range lines {
			b.WriteString("- " + l + "\n")
		}
	}

	var req []string
	for i, p := range a.prompts {
		if i == maxPrompts {
			req = append(req, fmt.Sprintf("… and %s", plural(len(a.prompts)-maxPrompts, "more prompt")))
			break
		}
		req = append(req, clip(p, 240))
	}
	section("**Request**", req)
	section("**Done**", a.done())

	var changed []string
	nChanged := 0
	for _, f := range a.files {
		if f.edits+f.writes == 0 {
			continue
		}
		nChanged++
		if len(changed) < maxFiles {
			changed = append(changed, f.path+" ("+f.how()+")")
		}
	}
	if nChanged > maxFiles {
		changed = append(changed, fmt.Sprintf("… and %d more", nChanged-maxFiles))
	}
	if nChanged > 0 {
		section(fmt.Sprintf("**Files changed** (%d)", nChanged), changed)
	}

	var read []string
	for _, f := range a.files {
		if f.reads > 0 && f.edits+f.writes == 0 {
			read = append(read, f.path)
		}
	}
	if len(read) > 0 {
		line := strings.Join(read[:min(len(read), maxRead)], ", ")
		if len(read) > maxRead {
			line += fmt.Sprintf(", … and %d more", len(read)-maxRead)
		}
		fmt.Fprintf(&b, "\n**Files read** (%d): %s\n", len(read), line)
	}

	if cmds, nFailed := a.commands(); len(cmds) > 0 {
		section(fmt.Sprintf("**Commands** (%d run, %d failed)", len(a.runs), nFailed), cmds)
	}
	section("**Errors & fixes**", a.errors())

	var decisions, notes []string
	for _, c := range a.items {
		if c.Kind == Decision {
			decisions = append(decisions, c.Title)
		} else {
			notes = append(notes, "("+string(c.Kind)+") "+c.Title)
		}
	}
	section("**Decisions**", decisions)
	section("**Notes**", notes)
	section("**Open**", a.openPoints())
	return b.String()
}

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
	return strings.Join(parts, ", ")
}

func (a *analysis) done() []string {
	var out []string
	for _, f := range a.fixes {
		out = append(out, f.line())
	}
	// Each check's last state, if it passes now.
	last := map[string]run{}
	var order []string
	for _, r := range a.runs {
		if r.purpose != purposeTest && r.purpose != purposeBuild && r.purpose != purposeLint {
			continue
		}
		if _, ok := last[r.key]; !ok {
			order = append(order, r.key)
		}
		last[r.key] = r
	}
	fixed := map[string]bool{}
	for _, f := range a.fixes {
		fixed[f.key] = true
	}
	for _, k := range order {
		r := last[k]
		if r.failed || fixed[k] {
			continue
		}
		verb := map[purpose]string{purposeTest: "passes", purposeBuild: "builds", purposeLint: "is clean"}[r.purpose]
		line := code(k) + " " + verb
		if r.purpose == purposeTest {
			if o := testOutcome(r.output); o != "" {
				line += " (" + o + ")"
			}
		}
		out = append(out, line)
	}
	for _, c := range a.commits {
		out = append(out, "Committed “"+c+"”")
	}
	if a.outcome != "" {
		out = append(out, "Outcome: "+a.outcome)
	}
	return out
}

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
			if r.purpose != purposeLook || r.failed {
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
		line := code(clip(g.key, 120))
		if len(g.exits) > 1 {
			line += fmt.Sprintf(" ×%d", len(g.exits))
		}
		if g.fail || len(g.exits) > 1 {
			line += ": " + strings.Join(compress(g.exits), ", ")
		}
		out = append(out, line)
	}
	return out, nFailed
}

// compress folds repeats: ok, ok, ok → ok ×3.
func compress(list []string) []string {
	var out []string
	for i := 0; i < len(list); {
		j := i
		for j < len(list) && list[j] == list[i] {
			j++
		}
		if j-i > 1 {
			out = append(out, fmt.Sprintf("%s ×%d", list[i], j-i))
		} else {
			out = append(out, list[i])
		}
		i = j
	}
	return out
}

func (a *analysis) errors() []string {
	var out []string
	for _, f := range a.fixes {
		line := code(clip(f.key, 100)) + " failed"
		if f.err != "" {
			line += ": " + code(f.err)
		}
		if len(f.files) > 0 {
			line += " → fixed in " + strings.Join(f.files[:min(len(f.files), 4)], ", ")
		} else if f.later != "" {
			line += " → " + code(f.later) + " passed later"
		} else {
			line += " → passed on a rerun"
		}
		out = append(out, line)
	}
	for _, r := range a.failing {
		line := code(clip(r.key, 100)) + " failed"
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

func (a *analysis) openPoints() []string {
	var out []string
	for _, r := range a.failing {
		line := code(clip(r.key, 100)) + " still fails"
		if r.err != "" {
			line += ": " + code(r.err)
		}
		out = append(out, line)
	}
	for _, o := range a.cand.open {
		out = appendNew(out, o)
	}
	if a.question != "" {
		out = appendNew(out, "Asked the user: "+a.question)
	}
	if a.pending != "" {
		out = append(out, "Not yet answered: "+a.pending)
	}
	if len(out) > maxOpen {
		out = append(out[:maxOpen], fmt.Sprintf("… and %d more", len(out)-maxOpen))
	}
	return out
}
