package llm

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"
	"sync"
	"text/template"

	"github.com/cairn-mem/cairn/internal/prose"
	"github.com/cairn-mem/cairn/internal/summarize"
)

// SystemPrompt is the system prompt of every model provider.
const SystemPrompt = `You keep the long-term memory of a software project that a coding agent works on.
You read a segment of the agent's session (the user's prompts, what the agent said, the tools it ran and
their results) and write a short, factual summary of it, plus the durable knowledge worth keeping: decisions
with their reasons, facts about the project, the conventions it follows, and the user's preferences.
Be concrete: name files, commands, exit codes, errors and how they were fixed. Never invent anything that
is not in the transcript. Secrets were replaced by [REDACTED:kind] markers; keep them as they are.`

// InitPrompt is the template of the prompt for a session's first segment.
const InitPrompt = `This is the first segment of session {{.SessionID}}.
{{template "earlier" .}}
<transcript>
{{.Transcript}}
</transcript>

{{template "instructions" .}}`

// ContinuationPrompt is the template of the prompt for every later
// segment: it carries the summary so far.
const ContinuationPrompt = `This is segment {{.Index}} of session {{.SessionID}}. The summary so far{{if .Cut}} (its latest part){{end}}:

<summary>
{{.PreviousSummary}}
</summary>
{{template "earlier" .}}
The new segment:

<transcript>
{{.Transcript}}
</transcript>

Summarise only the new segment. Do not repeat what the summary so far says, but say so when the new work
continues it (for example when it fixes an error the summary lists as open, or changes an earlier decision).

{{template "instructions" .}}`

// earlier lists what the memory held before the session, for the
// "**No longer true**" label to name by number.
const earlier = `{{if .Earlier}}
What the project's memory held as current before this session, numbered, the newest first:

<earlier>
{{range $i, $s := .Earlier}}[{{inc $i}}] {{$s}}
{{end}}</earlier>
{{end}}`

// instructions is the shared end of both prompts: the output format,
// the same sections the extractive summarizer writes.
const instructions = `Answer with exactly two parts and nothing else.

1. A Markdown section that starts with the line:
{{.Heading}}
followed by these bold labels, in this order, each followed by "- " bullets, leaving out the empty ones:
**Request** what the user asked (not slash commands, not "ok"/"thanks")
**Outcome** what was achieved, or the state at the end (tests passing, fixed, shipped, blocked)
**Root causes** why something failed, as found
**Decisions** "<decision> — <reason>" when a reason was given
**Rejected** alternatives considered and not taken, with why
**Preferences** the user's preferences and standing instructions
**Environment** commands, ports, hosts, services, paths, versions, env vars stated as facts
**Open** what is still open at the end of this segment, including open items of the summary so far that
this segment did not resolve; a question that was answered is not open
{{if .Earlier}}**No longer true** "- [n]" for each numbered statement of <earlier> that this segment shows no longer
holds: a value or setting changed, a decision reversed or dropped, an open item done or given up, a problem
fixed, a plan replaced; none that still holds or that this segment only repeats. A statement goes whole:
when part of it still holds, say that part again under the section it belongs to
{{end}}**Files changed** (n), **Commands** (n run, m failed), **Errors & fixes** (each error and what fixed it)
Every bullet is one or more whole sentences: never cut a sentence, never use "…". At most 350 words.
No other headings.

2. A fenced JSON block with the items worth remembering after this session:
` + "```json" + `
{"items": [{"kind": "decision", "subject": "job queue", "title": "…", "body": "…", "importance": 0.8, "tags": ["…"]}]}
` + "```" + `
kind is one of decision, fact, pattern, preference. Root causes are facts tagged "root-cause"; environment
facts are facts tagged "environment"; a rejected alternative goes into the body of its decision.
subject is a short lower-case key naming what the item is about ("api port", "http router", "test command",
"python version"): the same subject as an earlier item means this one replaces it.
title is one clause of at most 90 characters; body gives the reason (and what was rejected), without
repeating the title. importance is 0 to 1 (0.9: shapes future work; 0.5: useful; 0.2: minor); tags are a
few lowercase words. Write items as statements of fact ("The job queue uses PostgreSQL because …"), not as
instructions. Use {"items": []} when nothing is worth keeping.`

// prompts parses the templates at first use: every cairn command links
// this package, and few of them summarise (30 KB of heap at each start).
var prompts = sync.OnceValue(func() *template.Template {
	t := template.New("init").Funcs(template.FuncMap{"inc": func(i int) int { return i + 1 }})
	template.Must(t.Parse(InitPrompt))
	template.Must(t.New("continuation").Parse(ContinuationPrompt))
	template.Must(t.New("earlier").Parse(earlier))
	return template.Must(t.New("instructions").Parse(instructions))
})

// Bounds of what goes into a prompt.
const (
	maxPromptTranscript = 60_000 // bytes of rendered transcript
	maxPromptSummary    = 8_000  // bytes of the summary so far: its latest sections
	maxTurnText         = 4_000  // bytes of one prompt or assistant text
	maxToolOutput       = 1_500  // bytes of one command's output
	maxPromptEarlier    = 24_000 // bytes of earlier statements (capture offers 16,000)
)

type promptData struct {
	SessionID       string
	Index           int
	Heading         string
	Transcript      string
	PreviousSummary string
	Cut             bool
	Earlier         []string
}

// buildPrompt renders the prompt for req: the initial one for a first
// segment (or one without a summary before it), the continuation one
// otherwise.
func buildPrompt(req summarize.Request, index int, head string) (string, error) {
	d := promptData{
		SessionID:  req.SessionID,
		Index:      index,
		Heading:    head,
		Transcript: renderTranscript(req.Segment.Turns, maxPromptTranscript),
		Earlier:    bounded(req.Earlier, maxPromptEarlier),
	}
	name := "init"
	if !req.First && strings.TrimSpace(req.PreviousSummary) != "" {
		name = "continuation"
		d.PreviousSummary = strings.TrimSpace(req.PreviousSummary)
		if len(d.PreviousSummary) > maxPromptSummary {
			d.PreviousSummary = latest(d.PreviousSummary, maxPromptSummary)
			d.Cut = true
		}
	}
	var b bytes.Buffer
	if err := prompts().ExecuteTemplate(&b, name, d); err != nil {
		return "", fmt.Errorf("summarize: render the %s prompt: %w", name, err)
	}
	return b.String(), nil
}

// bounded is the first of statements that fit n bytes together.
func bounded(statements []string, n int) []string {
	for i, s := range statements {
		if n -= len(s) + 8; n < 0 {
			return statements[:i]
		}
	}
	return statements
}

// latest is the end of a summary within n bytes, starting at a section
// when one starts in it.
func latest(s string, n int) string {
	s = s[len(s)-n:]
	if i := strings.Index(s, "\n## "); i >= 0 {
		return s[i+1:]
	}
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[i+1:]
	}
	return s
}

// renderTranscript writes turns as plain text for a model, one entry per
// turn, within max bytes (the middle is left out when it must be).
func renderTranscript(turns []summarize.Turn, max int) string {
	var b strings.Builder
	for _, t := range turns {
		stamp := ""
		if !t.Time.IsZero() {
			stamp = "[" + t.Time.UTC().Format("15:04") + "] "
		}
		switch t.Role {
		case summarize.User:
			fmt.Fprintf(&b, "%sUSER: %s\n", stamp, cut(strings.TrimSpace(t.Text), maxTurnText))
		case summarize.Assistant:
			fmt.Fprintf(&b, "%sASSISTANT: %s\n", stamp, cut(strings.TrimSpace(t.Text), maxTurnText))
		case summarize.Tool:
			line := stamp + "TOOL " + t.Tool
			if in := summarize.ToolInput(t); in != "" {
				line += ": " + cut(in, 300)
			}
			switch {
			case t.ExitCode != nil:
				line += fmt.Sprintf(" → exit %d", *t.ExitCode)
			case t.IsError:
				line += " → error"
			}
			b.WriteString(line + "\n")
			out := strings.TrimSpace(t.Text)
			if out != "" && summarize.ShowsOutput(t) {
				for _, l := range strings.Split(cut(out, maxToolOutput), "\n") {
					b.WriteString("    " + l + "\n")
				}
			}
		}
	}
	return cut(b.String(), max)
}

// cut keeps the head and tail of s within n bytes, marking what it left
// out. (Package redact has the caller's version; this one only bounds
// prompts.)
func cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	const mark = "\n[… %d bytes left out …]\n"
	half := (n - len(mark) - 8) / 2
	h, t := half, len(s)-half
	for h > 0 && s[h]&0xC0 == 0x80 {
		h--
	}
	for t < len(s) && s[t]&0xC0 == 0x80 {
		t++
	}
	return s[:h] + fmt.Sprintf(mark, t-h) + s[t:]
}

// ParseLLMOutput splits a model's answer into the Markdown summary and the
// items of its JSON block. The block is the last fenced one (```json, or
// ``` with an object or a list), or else a trailing {"items": …} object;
// it holds {"items": [...]} or a bare list. Items of unknown kinds, and
// items with neither title nor body, are dropped; "root-cause" and
// "environment" items are facts with that tag; titles are cut to one
// clause and a body that repeats its title loses it; importance is
// clamped to 0..1 (a score out of 10 is scaled); tags may be a list or a
// comma-separated string; a missing subject is read from the title
// (ClaimOf). All model providers share it. An answer without a summary, without a block,
// or with a block that is not JSON is an error wrapping ErrInvalidOutput.
func ParseLLMOutput(out string) (summary string, items []summarize.Candidate, err error) {
	s := strings.TrimSpace(strings.ReplaceAll(out, "\r\n", "\n"))
	s = unwrapFence(s)
	start, block := jsonBlock(s)
	if start < 0 {
		return "", nil, fmt.Errorf("%w: no JSON block of items", summarize.ErrInvalidOutput)
	}
	summary = strings.TrimSpace(s[:start])
	if summary == "" {
		return "", nil, fmt.Errorf("%w: no summary before the JSON block", summarize.ErrInvalidOutput)
	}
	items, err = parseItems(block)
	if err != nil {
		return "", nil, fmt.Errorf("%w: %w", summarize.ErrInvalidOutput, err)
	}
	return summary, items, nil
}

// unwrapFence removes a fence around the whole answer (```markdown …```),
// which some models add.
func unwrapFence(s string) string {
	if !strings.HasPrefix(s, "```") || !strings.HasSuffix(s, "```") || len(s) < 7 {
		return s
	}
	nl := strings.IndexByte(s, '\n')
	if nl < 0 {
		return s
	}
	lang := strings.TrimSpace(s[3:nl])
	if lang != "" && lang != "markdown" && lang != "md" {
		return s
	}
	inner := s[nl+1 : len(s)-3]
	// Only when the inner text holds its own fences in pairs: otherwise the
	// closing ``` belongs to a block inside.
	if strings.Count(inner, "```")%2 != 0 {
		return s
	}
	return strings.TrimSpace(inner)
}

// jsonBlock finds the items block: where it starts in s (-1 if nowhere)
// and its JSON text. Fences pair up from the start of s; the last block
// tagged json, or holding an object or a list, is the one. An unclosed
// last fence (a cut answer) runs to the end.
func jsonBlock(s string) (int, string) {
	var fences []int
	for at := 0; ; {
		i := strings.Index(s[at:], "```")
		if i < 0 {
			break
		}
		// Only fences at the start of a line count.
		if j := at + i; j == 0 || s[j-1] == '\n' {
			fences = append(fences, j)
		}
		at += i + 3
	}
	for k := (len(fences) - 1) &^ 1; k >= 0; k -= 2 {
		open := fences[k]
		rest := s[open+3:]
		nl := strings.IndexByte(rest, '\n')
		if nl < 0 {
			continue
		}
		lang := strings.ToLower(strings.TrimSpace(rest[:nl]))
		end := len(s)
		if k+1 < len(fences) {
			end = fences[k+1]
		}
		body := strings.TrimSpace(s[open+3+nl+1 : max(end, open+3+nl+1)])
		if lang == "json" || lang == "" && (strings.HasPrefix(body, "{") || strings.HasPrefix(body, "[")) {
			return open, body
		}
	}
	// A bare trailing object.
	if i := strings.LastIndex(s, `"items"`); i >= 0 {
		if j := strings.LastIndexByte(s[:i], '{'); j >= 0 && strings.TrimSpace(s[j+1:i]) == "" {
			return j, s[j:]
		}
	}
	return -1, ""
}

type rawItem struct {
	Kind       string          `json:"kind"`
	Type       string          `json:"type"`
	Title      string          `json:"title"`
	Body       string          `json:"body"`
	Content    string          `json:"content"`
	Importance json.RawMessage `json:"importance"`
	Tags       json.RawMessage `json:"tags"`
	Subject    string          `json:"subject"`
}

func parseItems(block string) ([]summarize.Candidate, error) {
	dec := json.NewDecoder(strings.NewReader(block))
	var raw []rawItem
	if strings.HasPrefix(block, "[") {
		if err := dec.Decode(&raw); err != nil {
			return nil, fmt.Errorf("items list: %w", err)
		}
	} else {
		var obj struct {
			Items *[]rawItem `json:"items"`
		}
		if err := dec.Decode(&obj); err != nil {
			return nil, fmt.Errorf("items block: %w", err)
		}
		if obj.Items == nil {
			return nil, fmt.Errorf("items block: no \"items\" list")
		}
		raw = *obj.Items
	}
	items := []summarize.Candidate{}
	for _, r := range raw {
		k, tag := itemKind(r.Kind)
		if k == "" {
			k, tag = itemKind(r.Type)
		}
		if k == "" {
			continue
		}
		body := strings.TrimSpace(r.Body)
		if body == "" {
			body = strings.TrimSpace(r.Content)
		}
		t := strings.TrimSpace(r.Title)
		if t == "" {
			t = body
		}
		if t == "" {
			continue
		}
		if t = summarize.Title(t); t == "" {
			continue // only punctuation
		}
		// The body says more than the title, or nothing.
		if strings.HasPrefix(body, t) {
			body = strings.TrimLeft(body[len(t):], ".:;,—- \n")
		}
		tags := itemTags(r.Tags)
		if tag != "" {
			tags = prose.AppendNew(tags, tag)
		}
		subject := strings.ToLower(strings.Join(strings.Fields(r.Subject), " "))
		if subject == "" || len(subject) > 60 {
			subject = summarize.ClaimOf(k, t).Subject
		}
		items = append(items, summarize.Candidate{
			Kind:       k,
			Title:      t,
			Body:       body,
			Importance: importance(r.Importance),
			Tags:       tags,
			Subject:    subject,
		})
	}
	return items, nil
}

// itemKind reads a kind, and the tag a kind that is a kind of fact
// implies ("root-cause", "environment").
func itemKind(s string) (summarize.Kind, string) {
	k := strings.ToLower(strings.TrimSpace(s))
	k = strings.TrimSuffix(k, "s")
	k = strings.NewReplacer("_", "-", " ", "-").Replace(k)
	switch summarize.Kind(k) {
	case summarize.Decision, summarize.Fact, summarize.Pattern, summarize.Preference:
		return summarize.Kind(k), ""
	case "convention":
		return summarize.Pattern, ""
	case "root-cause", "rootcause", "cause":
		return summarize.Fact, "root-cause"
	case "environment", "env", "environment-fact":
		return summarize.Fact, "environment"
	}
	return "", ""
}

// importance reads a number or a numeric string; missing or unreadable is
// 0.5, a score out of 10 is scaled, and the rest is clamped to 0..1.
func importance(raw json.RawMessage) float64 {
	s := strings.Trim(strings.TrimSpace(string(raw)), `"`)
	x, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsNaN(x) || math.IsInf(x, 0) {
		return 0.5
	}
	if x > 1 && x <= 10 {
		x /= 10
	}
	x = max(0, min(1, x))
	return float64(int(x*100+0.5)) / 100
}

func itemTags(raw json.RawMessage) []string {
	var list []string
	if err := json.Unmarshal(raw, &list); err != nil {
		var s string
		if json.Unmarshal(raw, &s) != nil {
			return nil
		}
		list = strings.Split(s, ",")
	}
	var tags []string
	for _, t := range list {
		t = strings.ToLower(strings.TrimSpace(t))
		if t == "" || len(t) > 40 || strings.ContainsAny(t, "\n\r") {
			continue
		}
		tags = prose.AppendNew(tags, t)
		if len(tags) == 8 {
			break
		}
	}
	return tags
}

// normalizeSummary makes a model's section start with the heading cairn
// expects and keeps other "## " headings from reading as new sections.
func normalizeSummary(s, head string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	if len(lines) > 0 && strings.HasPrefix(strings.TrimSpace(lines[0]), "#") {
		lines = lines[1:]
	}
	for i, l := range lines {
		if strings.HasPrefix(l, "# ") || strings.HasPrefix(l, "## ") {
			lines[i] = "###" + strings.TrimLeft(l, "#")
		}
	}
	body := strings.TrimSpace(strings.Join(lines, "\n"))
	if body == "" {
		return head + "\n"
	}
	return head + "\n\n" + body + "\n"
}
