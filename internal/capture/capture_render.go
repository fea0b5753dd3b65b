package capture

import (
	"fmt"
	"strings"
	"time"

	"github.com/cairn-mem/cairn/internal/capture/filestate"
	"github.com/cairn-mem/cairn/internal/capture/observe"
	"github.com/cairn-mem/cairn/internal/mdtext"
	"github.com/cairn-mem/cairn/internal/memory"
	"github.com/cairn-mem/cairn/internal/memory/backlog"
	"github.com/cairn-mem/cairn/internal/model"
	"github.com/cairn-mem/cairn/internal/redact"
	"github.com/cairn-mem/cairn/internal/summarize"
	"github.com/cairn-mem/cairn/internal/transcript"
	"github.com/cairn-mem/cairn/internal/transcript/edit"
)

// renderer turns new events into what the session's files get: the
// prompts, the condensed transcript, the observations and the turns for
// the summarizer. Every text goes through the redactor before anything
// else sees it, and is cut to size after.
type renderer struct {
	m      *memory.Memory
	s      *model.Session
	red    *redact.Redactor
	maxOut int
	prefix string // of turn keys

	prompts, redactions int
	title, cwd          string
	branch, model       string
	first, last         time.Time

	// hooked are the prompts a hook payload already recorded, by text,
	// that the transcript now brings again (hookedPrompts).
	hooked map[string]int

	turns      []backlog.Turn
	promptText strings.Builder
	transcript strings.Builder
	obs        *observe.Log
	listOpen   bool // the transcript's last line is a list item

	// replaced are the redacted one-line replacements of edit calls,
	// by call ID, read from their input before sanitize drops it.
	replaced map[string][][2]string
	// files follow what the session's file tools left in each file, so
	// that a Write of a whole file gives the settings it changed.
	files filestate.Files
}

func newRenderer(m *memory.Memory, s *model.Session, red *redact.Redactor, prefix string) *renderer {
	return &renderer{
		m: m, s: s, red: red, prefix: prefix,
		maxOut: m.Config.Capture.MaxOutputOr(),
		obs:    observe.New(),
	}
}

// keyPrefix is what a plan's turn keys start with: the transcript's file
// name, or the hook payload's key.
func (p *plan) keyPrefix() string {
	switch {
	case p.b.Source != "":
		return p.b.sourceName() + ":"
	case p.b.Key != "":
		return p.b.Key + "#"
	}
	return "capture#"
}

// renderTo adds what the renderer made to the plan's writes.
func (p *plan) renderTo(r *renderer) {
	e := p.entry
	b := &p.writes
	// Each field was redacted on its own; the blocks are again, in case
	// putting fields side by side made a secret whole.
	if r.promptText.Len() > 0 {
		b.Add(e.File(model.PromptsFile), []byte(r.clean(r.promptText.String())))
	}
	if r.transcript.Len() > 0 {
		b.Add(e.File(model.TranscriptFile), []byte(r.clean(r.transcript.String())))
	}
	if lines := r.obs.Lines(); len(lines) > 0 {
		var sb strings.Builder
		sb.WriteString("\n## ")
		if span := timeSpan(r.first, r.last); span != "" {
			sb.WriteString(span)
		} else {
			sb.WriteString("captured " + p.m.Now().UTC().Format("2006-01-02 15:04 UTC"))
		}
		sb.WriteString("\n\n")
		for _, o := range lines {
			sb.WriteString("- " + o + "\n")
		}
		b.Add(e.File(model.ObservationsFile), []byte(r.clean(sb.String())))
	}
}

// clean redacts a text and counts what it removed.
func (r *renderer) clean(s string) string {
	if s == "" {
		return s
	}
	out, found := r.red.Redact(s)
	r.redactions += len(found)
	return out
}

// cut redacts, then truncates: a secret cut in two would no longer be
// recognised.
func (r *renderer) cut(s string, limit int) string {
	return redact.Truncate(strings.TrimSpace(r.clean(s)), limit)
}

// recallFiles notes what the file tools of events captured before
// showed and left in each file, rendering nothing.
func (r *renderer) recallFiles(events []transcript.Event) {
	for i := range events {
		if c := events[i].Call; c != nil {
			r.files.Call(c.ID, c.Name, c.Input)
		}
		if res := events[i].Result; res != nil {
			r.files.Result(res.ToolUseID, res.Output, res.IsError)
		}
	}
}

// sanitize returns a copy of the event with every text redacted and cut,
// and the raw tool input dropped.
func (r *renderer) sanitize(e transcript.Event) transcript.Event {
	switch e.Kind {
	case transcript.KindUserPrompt:
		e.Text = r.cut(e.Text, maxPromptText)
	case transcript.KindCompactSummary:
		e.Text = r.cut(e.Text, maxCompactText)
	default:
		e.Text = r.cut(e.Text, maxAssistantText)
	}
	e.Command = r.clean(e.Command)
	e.CWD, e.GitBranch, e.Model = r.clean(e.CWD), r.clean(e.GitBranch), r.clean(e.Model)
	if e.Call != nil {
		c := *e.Call
		reps := append(edit.Replacements(c.Name, c.Input), r.files.Call(c.ID, c.Name, c.Input)...)
		if len(reps) > 0 && c.ID != "" {
			for i := range reps {
				reps[i] = [2]string{r.clean(reps[i][0]), r.clean(reps[i][1])}
			}
			if r.replaced == nil {
				r.replaced = map[string][][2]string{}
			}
			r.replaced[c.ID] = reps
		}
		c.Input = nil
		c.Summary = mdtext.OneLine(r.clean(c.Summary))
		e.Call = &c
	}
	if e.Result != nil {
		res := *e.Result
		r.files.Result(res.ToolUseID, res.Output, res.IsError)
		res.Summary = mdtext.OneLine(r.clean(res.Summary))
		res.Output = r.cut(res.Output, r.maxOut)
		e.Result = &res
	}
	return e
}

// events renders one list of events (the main conversation, or subagent
// traffic).
func (r *renderer) events(list []transcript.Event, side bool) {
	if len(list) == 0 {
		return
	}
	clean := make([]transcript.Event, len(list))
	results := map[string]int{} // tool_use_id -> index of its result
	for i := range list {
		clean[i] = r.sanitize(list[i])
		if res := clean[i].Result; res != nil && res.ToolUseID != "" {
			if _, dup := results[res.ToolUseID]; !dup {
				results[res.ToolUseID] = i
			}
		}
	}
	if side {
		agent := firstNonEmpty(clean[0].AgentType, clean[0].AgentID, "subagent")
		r.para(fmt.Sprintf("### Subagent (%s)", agent))
	}
	paired := map[int]bool{}
	for i := range clean {
		e := &clean[i]
		r.meta(e, side)
		switch e.Kind {
		case transcript.KindSessionStart:
			if !side {
				r.para("_Session " + joinNonEmpty(" ", "started", paren(e.Source), stamp(e.Time)) + "._")
			}
		case transcript.KindUserPrompt:
			if e.Text == "" && e.Command == "" {
				continue
			}
			text := firstNonEmpty(e.Text, e.Command)
			if e.Speaker != "" && !side {
				r.say(e, summarize.User)
				continue
			}
			if side {
				r.para("**Task:** " + text)
				continue
			}
			if k := strings.TrimSpace(text); r.hooked[k] > 0 {
				r.hooked[k]--
				continue // the hook recorded it before the transcript had it
			}
			r.prompts++
			n := r.s.Prompts + r.prompts
			head := fmt.Sprintf("## %d", n)
			if !e.Time.IsZero() {
				head += " · " + e.Time.UTC().Format("2006-01-02 15:04:05 UTC")
			}
			r.promptText.WriteString("\n" + head + "\n\n" + text + "\n")
			r.para(fmt.Sprintf("## Prompt %d%s\n\n%s", n, mdtext.Prefixed(" · ", stamp(e.Time)), text))
			if r.title == "" {
				r.title = titleOf(text)
			}
			r.turn(e, summarize.Turn{Role: summarize.User, Time: e.Time, Text: text})
		case transcript.KindCommand:
			// A slash command (/cost, /compact, /model) tells the agent's
			// tool what to do, not the agent: kept in the transcript, but
			// no prompt and no turn to summarise.
			if text := firstNonEmpty(e.Text, e.Command); text != "" && !side {
				r.para("_Command: `" + mdtext.OneLine(text) + "`._")
			}
		case transcript.KindAssistantText, transcript.KindStop:
			if e.Text == "" {
				continue
			}
			if e.Speaker != "" && !side {
				r.say(e, summarize.Assistant)
				continue
			}
			who := "**Assistant:**"
			if side {
				who = "**Subagent:**"
			}
			r.para(who + " " + e.Text)
			if !side {
				r.turn(e, summarize.Turn{Role: summarize.Assistant, Time: e.Time, Text: e.Text})
			}
		case transcript.KindToolCall:
			var res *transcript.ToolResult
			if j, ok := results[e.Call.ID]; ok && e.Call.ID != "" {
				res = clean[j].Result
				paired[j] = true
			}
			r.tool(e, e.Call.Name, e.Call.Summary, res, side)
		case transcript.KindToolResult:
			if paired[i] {
				continue
			}
			res := e.Result
			r.tool(e, res.Name, firstNonEmpty(res.Summary, res.Name, "tool result"), res, side)
		case transcript.KindCompaction:
			r.para("_Context compacted" + mdtext.Prefixed(" (", e.Trigger, ")") + "._")
		case transcript.KindCompactSummary:
			if e.Text != "" {
				r.para("**Compaction summary:** " + e.Text)
			}
		case transcript.KindSessionEnd:
			r.para("_Session ended" + mdtext.Prefixed(" (", e.Reason, ")") + "._")
		}
	}
}

// say renders a turn of a dialogue between people, whoever speaks as the
// user or the assistant: "**Maya:** text" in the transcript, and "Maya:
// text" as the prompt and the summarizer's turn, so that what is indexed
// and summarised says who said it. A new session's transcript starts with
// its session's number and date: they are in every chunk's document.
func (r *renderer) say(e *transcript.Event, role summarize.Role) {
	if e.Part > 0 && r.s.Turns == 0 && len(r.turns) == 0 {
		r.para(fmt.Sprintf("## Session %d%s", e.Part, mdtext.Prefixed(" · ", stamp(e.Time))))
	}
	line := e.Speaker + ": " + e.Text
	if role == summarize.User {
		r.prompts++
		head := fmt.Sprintf("## %d", r.s.Prompts+r.prompts)
		if !e.Time.IsZero() {
			head += " · " + e.Time.UTC().Format("2006-01-02 15:04:05 UTC")
		}
		r.promptText.WriteString("\n" + head + "\n\n" + line + "\n")
		if r.title == "" {
			r.title = titleOf(line)
		}
	}
	r.para("**" + e.Speaker + ":** " + e.Text)
	r.turn(e, summarize.Turn{Role: role, Time: e.Time, Text: line})
}

// meta notes where and when an event happened.
func (r *renderer) meta(e *transcript.Event, side bool) {
	if !e.Time.IsZero() {
		if r.first.IsZero() || e.Time.Before(r.first) {
			r.first = e.Time
		}
		if e.Time.After(r.last) {
			r.last = e.Time
		}
	}
	if side {
		return
	}
	if r.cwd == "" {
		r.cwd = e.CWD
	}
	r.branch = firstNonEmpty(e.GitBranch, r.branch)
	r.model = firstNonEmpty(e.Model, r.model)
}

// turn adds a turn for the summarizer.
func (r *renderer) turn(e *transcript.Event, t summarize.Turn) {
	key := r.prefix + e.ID
	if e.ID == "" {
		key = fmt.Sprintf("%s%d", r.prefix, len(r.turns))
	}
	tokens := (len(t.Text)+len(t.Input))/4 + 8
	r.turns = append(r.turns, backlog.Turn{Key: key, Tokens: tokens, Turn: t})
}

// para adds a paragraph to the transcript.
func (r *renderer) para(text string) {
	r.transcript.WriteString("\n" + text + "\n")
	r.listOpen = false
}

// tool renders a tool call and its result, if known: one line in the
// transcript (with the error under it when it failed), observations, and
// a turn.
func (r *renderer) tool(e *transcript.Event, name, summary string, res *transcript.ToolResult, side bool) {
	if !r.listOpen {
		r.transcript.WriteString("\n")
	}
	r.listOpen = true
	line := "- " + mdtext.Code(summary)
	if side {
		line = "- (subagent) " + mdtext.Code(summary)
	}
	outcome := ""
	if res != nil {
		outcome = observe.Outcome(res)
		line += " → " + outcome
	}
	r.transcript.WriteString(line + "\n")
	if res != nil && res.IsError && res.Output != "" {
		r.transcript.WriteString("\n" + indent(fenced(redact.Truncate(observe.ErrorText(res.Output), r.maxOut/2)), "  ") + "\n")
		r.listOpen = false
	}
	r.obs.Tool(name, summary, res)
	if side {
		return
	}
	t := summarize.Turn{Role: summarize.Tool, Time: e.Time, Tool: name, Input: summary}
	if e.Call != nil {
		t.Replaced = r.replaced[e.Call.ID]
	}
	if res != nil {
		t.Text, t.ExitCode, t.IsError = res.Output, res.ExitCode, res.IsError
	}
	r.turn(e, t)
}

// titleOf makes a session's title of its first prompt.
func titleOf(text string) string {
	line, _, _ := strings.Cut(strings.TrimSpace(text), "\n")
	return mdtext.Cut(strings.TrimSpace(line), maxTitle)
}

// fenced puts text in a code fence longer than any it holds.
func fenced(s string) string {
	fence := "```"
	for strings.Contains(s, fence) {
		fence += "`"
	}
	return fence + "\n" + strings.TrimRight(s, "\n") + "\n" + fence
}

func indent(s, by string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		if l != "" {
			lines[i] = by + l
		}
	}
	return strings.Join(lines, "\n")
}

func stamp(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format("2006-01-02 15:04:05 UTC")
}

// timeSpan formats the time range of a batch: "2025-11-28 09:14–09:16 UTC".
func timeSpan(first, last time.Time) string {
	if first.IsZero() {
		return ""
	}
	first, last = first.UTC(), last.UTC()
	if first.Format("2006-01-02") == last.Format("2006-01-02") {
		return first.Format("2006-01-02 15:04") + "–" + last.Format("15:04") + " UTC"
	}
	return first.Format("2006-01-02 15:04") + " – " + last.Format("2006-01-02 15:04") + " UTC"
}

func paren(s string) string { return mdtext.Prefixed("(", s, ")") }

func joinNonEmpty(sep string, parts ...string) string {
	var out []string
	for _, p := range parts {
		if p != "" {
			out = append(out, p)
		}
	}
	return strings.Join(out, sep)
}
