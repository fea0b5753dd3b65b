package resume

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/cairn-mem/cairn/internal/mdtext"
	"github.com/cairn-mem/cairn/internal/memory"
	"github.com/cairn-mem/cairn/internal/model"
)

// MaxChars bounds what Context returns: under the 10,000
// characters a Claude Code hook may inject.
const MaxChars = 8000

// Shares of MaxChars, in characters; the summary gets what is left.
const (
	resumeVarsChars    = 800
	resumePromptsChars = 1500
	resumeItemsChars   = 1800
	resumePrompts      = 5 // the last prompts shown
)

// Context returns a session's context as Markdown, for an agent (or
// a person) to carry on where it stopped: what the session is, its
// progress and variables, the latest sections of its summary, its last
// prompts and the core items that came from it. It stays under
// MaxChars, leaving out the oldest summary sections first and
// saying what it left out.
func Context(ctx context.Context, m *memory.Memory, ref string) (string, error) {
	e, err := m.Sessions().Get(ctx, ref)
	if err != nil {
		return "", err
	}
	var head strings.Builder
	fmt.Fprintf(&head, "# Session %s (%s, %s)\n\n", e.ID, e.Agent, e.Status)
	if e.Title != "" {
		fmt.Fprintf(&head, "%s\n\n", e.Title)
	}
	if e.Project != "" {
		fmt.Fprintf(&head, "- Project: %s%s\n", e.Project, mdtext.Prefixed(" (branch ", e.Branch, ")"))
	}
	fmt.Fprintf(&head, "- Started %s, last active %s; %s, %s\n",
		e.Started.UTC().Format("2006-01-02 15:04 UTC"), e.LastActivity.UTC().Format("2006-01-02 15:04 UTC"),
		mdtext.Plural(e.Prompts, "prompt"), mdtext.Plural(e.Turns, "turn"))
	if e.Progress.Total > 0 {
		fmt.Fprintf(&head, "- Progress: %d of %d steps done\n", e.Progress.Done, e.Progress.Total)
	}
	if pending := e.Turns - e.Summarized.Turns; pending > 0 && e.Summarized.Segments > 0 {
		fmt.Fprintf(&head, "- %s since the last summary are in %s\n", mdtext.Plural(pending, "turn"), e.File(model.TranscriptFile))
	}
	fmt.Fprintf(&head, "- Files: %s/\n", e.Dir)

	vars := ""
	if len(e.Variables) > 0 {
		keys := make([]string, 0, len(e.Variables))
		for k := range e.Variables {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		var b strings.Builder
		b.WriteString("\n## Variables\n\n")
		for _, k := range keys {
			b.WriteString("- " + mdtext.Code(k) + ": " + mdtext.Cut(mdtext.OneLine(e.Variables[k]), 200) + "\n")
		}
		vars = capText(b.String(), resumeVarsChars)
	}

	prompts, err := lastPrompts(m, e, resumePrompts)
	if err != nil {
		return "", err
	}
	promptText := ""
	if len(prompts) > 0 {
		var b strings.Builder
		fmt.Fprintf(&b, "\n## Last prompts\n\n")
		for _, p := range prompts {
			b.WriteString("- " + mdtext.Cut(mdtext.OneLine(p), 300) + "\n")
		}
		promptText = capText(b.String(), resumePromptsChars)
	}

	items, _, err := m.List(ctx, memory.Filter{Session: e.ID, Layer: model.LayerCore, Bodies: true})
	if err != nil {
		return "", err
	}
	itemText := ""
	if len(items) > 0 {
		sort.SliceStable(items, func(i, j int) bool { return items[i].Item.Importance > items[j].Item.Importance })
		var b strings.Builder
		b.WriteString("\n## Memory from this session\n\n")
		left := 0
		for i, it := range items {
			title := it.Item.Title
			line := fmt.Sprintf("- (%s) %s", it.Item.Kind, title)
			body := firstLineOf(it.Item.Body)
			switch short := strings.TrimSuffix(title, "…"); {
			case body == "" || body == title:
			case strings.HasPrefix(body, short):
				line = fmt.Sprintf("- (%s) %s", it.Item.Kind, mdtext.Cut(body, 240))
			default:
				line += ": " + mdtext.Cut(body, 160)
			}
			if b.Len()+len(line)+1 > resumeItemsChars-60 {
				left = len(items) - i
				break
			}
			b.WriteString(line + "\n")
		}
		if left > 0 {
			fmt.Fprintf(&b, "- … and %d more (cairn list --session %s)\n", left, e.ID)
		}
		itemText = b.String()
	}

	room := MaxChars - head.Len() - len(vars) - len(promptText) - len(itemText) - 40
	summary, err := latestSummary(m, e, room)
	if err != nil {
		return "", err
	}
	out := head.String() + vars + summary + promptText + itemText
	return capText(out, MaxChars), nil
}

// latestSummary returns the latest sections of a session's summary that
// fit in room characters.
func latestSummary(m *memory.Memory, e *model.SessionEntry, room int) (string, error) {
	data, err := m.ReadFile(e.File(model.SummaryFile))
	if errors.Is(err, memory.ErrNoFile) {
		return "", nil
	}
	if err != nil {
		return "", err
	}
	sections := splitSections(string(data), "## ")
	if len(sections) == 0 || room < 200 {
		return "", nil
	}
	const title = "\n## Summary\n\n"
	room -= len(title)
	var kept []string
	used := 0
	for i := len(sections) - 1; i >= 0; i-- {
		s := demote(strings.TrimSpace(sections[i])) + "\n\n"
		if used+len(s) > room {
			if len(kept) == 0 {
				kept = append(kept, capText(s, room))
				used = room
			}
			break
		}
		kept = append(kept, s)
		used += len(s)
	}
	var b strings.Builder
	b.WriteString(title)
	if left := len(sections) - len(kept); left > 0 {
		fmt.Fprintf(&b, "(%d earlier section(s) in %s)\n\n", left, e.File(model.SummaryFile))
	}
	for i := len(kept) - 1; i >= 0; i-- {
		b.WriteString(kept[i])
	}
	return strings.TrimRight(b.String(), "\n") + "\n", nil
}

// lastPrompts returns the text of a session's last n prompts.
func lastPrompts(m *memory.Memory, e *model.SessionEntry, n int) ([]string, error) {
	data, err := m.ReadFile(e.File(model.PromptsFile))
	if errors.Is(err, memory.ErrNoFile) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	sections := splitSections(string(data), "## ")
	if len(sections) > n {
		sections = sections[len(sections)-n:]
	}
	var out []string
	for _, s := range sections {
		_, body, _ := strings.Cut(s, "\n")
		if body = strings.TrimSpace(body); body != "" {
			out = append(out, body)
		}
	}
	return out, nil
}

// splitSections splits Markdown at lines that start with prefix, dropping
// what comes before the first.
func splitSections(text, prefix string) []string {
	var out []string
	cur := -1
	lines := strings.Split(text, "\n")
	var b strings.Builder
	inFence := false
	for _, l := range lines {
		if strings.HasPrefix(strings.TrimSpace(l), "```") {
			inFence = !inFence
		}
		if !inFence && strings.HasPrefix(l, prefix) {
			if cur >= 0 {
				out = append(out, b.String())
			}
			b.Reset()
			cur++
		}
		if cur >= 0 {
			b.WriteString(l + "\n")
		}
	}
	if cur >= 0 {
		out = append(out, b.String())
	}
	return out
}

// demote turns a section's "## " headings into "### ", to nest it.
func demote(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		if strings.HasPrefix(l, "## ") {
			lines[i] = "#" + l
		}
	}
	return strings.Join(lines, "\n")
}

func firstLineOf(s string) string {
	l, _, _ := strings.Cut(strings.TrimSpace(s), "\n")
	return strings.TrimSpace(l)
}

// capText cuts text to at most n bytes at a line end when one is near,
// saying that it did.
func capText(s string, n int) string {
	if len(s) <= n {
		return s
	}
	const more = "\n…(cut)\n"
	cut := max(n-len(more), 0)
	for cut > 0 && cut < len(s) && (s[cut]&0xC0) == 0x80 {
		cut--
	}
	if nl := strings.LastIndexByte(s[:cut], '\n'); nl > cut*3/4 {
		cut = nl
	}
	return s[:cut] + more
}
