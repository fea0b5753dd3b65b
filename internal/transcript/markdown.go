package transcript

import (
	"strconv"
	"strings"
	"time"

	"github.com/cairn-mem/cairn/internal/lazyre"
	"github.com/cairn-mem/cairn/internal/transcript/when"
)

// ParseMarkdown reads a Markdown transcript written to this convention:
//
//	---                          optional front matter, first thing in the file:
//	session_id: 7f3c2a10-…       session_id (or session), model, cwd
//	---
//	# Any title                  text before the first role marker is ignored
//
//	## User                      a role heading, any level from # to ######,
//	Fix the flaky test.          optionally with a time: "## User (2025-06-01T10:00:00Z)"
//
//	## Assistant
//	The test raced on …
//
//	**User:** and so on          or a bold role prefix at the start of a line
//
// Roles: User (also Human, You, Me) and Assistant (also Claude, AI, Agent,
// Model, Codex, Gemini, Bot), in any case; System sections are skipped.
// A section runs to the next role marker; role markers inside fenced code
// blocks are text. Other headings are text too, so replies may use them.
//
// Dialogues between people, as chat logs are exported, are read too:
//
//	# Maya and Tom
//	<!-- speakers: Maya, Tom -->   optional: who talks, in order
//
//	## Session 1 — 2025-03-02 14:10
//	**Maya:** Finally unpacked.   a bold name and a colon, or "Maya: …"
//	**Tom:** How's the flat?      (a capitalised name of one or two words)
//
// A heading that numbers a session ("Session 3", "Session 3 (2025-03-09)")
// or is a date alone ("2025-03-09", "March 9, 2025") starts a session: the
// turns after it get its number in Meta.Part (headings without one count
// from the last) and its date and time in Meta.Time. Each turn's speaker
// is in Meta.Speaker; the first speaker (of the speakers comment, else of
// the file) speaks as the user and the others as the assistant, but for
// names that are role names ("User:", "Assistant:"), which say the role
// and name nobody. Named turns are recognised only outside a role section
// (inside one, "**Note:** …" is the assistant's text); common labels
// ("Note:", "Update:", "PS:") are never speakers. A parse that starts in
// the middle of a dialogue knows neither the session heading nor the
// speakers before it: dialogues are read whole, as cairn ingest does.
//
// Without Options.Final the last section is held back: it may still grow.
// The front matter is read only by a parse that starts at offset 0; others
// take the session from Options.SessionID.
func ParseMarkdown(data []byte, opts Options) *Parsed {
	p := &mdParser{b: newBuilder(opts), session: opts.SessionID}
	p.b.eachLine(data, func([]byte) bool { return true }, p.line)
	if opts.Final {
		p.flush()
	}
	return p.b.result()
}

type mdParser struct {
	b                   *builder
	session, model, cwd string

	front bool   // inside front matter
	fence string // the fence that opened the code block we are in

	sec *mdSection // the open section

	// A dialogue's speakers, and the session its turns are in (from its
	// last session heading).
	who      speakers
	part     int
	partTime time.Time
}

type mdSection struct {
	role string // "user", "assistant", "system"
	// speaker names who speaks in a dialogue turn; dialogue says the
	// section is one (its speaker may be a role name, and "" then).
	speaker  string
	dialogue bool
	part     int
	time     time.Time
	off      int64
	line     int
	lines    []string
}

// openKey marks in the builder's open set that a section or a code block
// may still grow, so no resume point is placed inside it.
const openKey = "markdown"

var (
	mdHeading = lazyre.New(`^#{1,6}[ \t]+(.*?)[ \t#]*$`)
	mdBold    = lazyre.New(`^\*\*([A-Za-z]+)[ \t]*(?:\(([^)]*)\))?[ \t]*:?\*\*[ \t]*:?[ \t]?(.*)$`)
	mdRole    = lazyre.New(`^(?i)(user|human|you|me|assistant|claude|ai|agent|model|codex|gemini|bot|system)\b(.*)$`)
	mdTime    = lazyre.New(`\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?`)
)

func (p *mdParser) line(raw []byte) {
	b := p.b
	line := string(raw)
	if b.opts.Offset == 0 && b.lines == 0 && strings.TrimSpace(line) == "---" {
		p.front = true
		b.open[openKey] = nil
		return
	}
	if p.front {
		if strings.TrimSpace(line) == "---" {
			p.front = false
			delete(b.open, openKey)
			return
		}
		k, v, _ := strings.Cut(line, ":")
		v = strings.Trim(strings.TrimSpace(v), `"'`)
		switch strings.TrimSpace(strings.ToLower(k)) {
		case "session_id", "session":
			if b.opts.SessionID == "" {
				p.session = b.checkSession(v)
			}
		case "model":
			p.model = v
		case "cwd":
			p.cwd = v
		}
		return
	}
	if p.fence != "" {
		if strings.HasPrefix(strings.TrimSpace(line), p.fence) {
			p.fence = ""
			if p.sec == nil {
				delete(b.open, openKey)
			}
		}
		p.add(line)
		return
	}
	if t := strings.TrimSpace(line); strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~") {
		p.fence = t[:3]
		b.open[openKey] = nil
		p.add(line)
		return
	}
	role, rest, first, ok := mdMarker(line)
	var speaker string
	dialogue := false
	if !ok {
		if h := mdHeading.FindStringSubmatch(line); h != nil {
			if n, t, ok := sessionHeading(h[1]); ok {
				p.flush()
				b.setMark(b.off)
				if n == 0 {
					n = p.part + 1
				}
				p.part, p.partTime = n, t
				return
			}
		}
		if p.sec == nil || p.sec.dialogue {
			if list, ok := speakersComment(line); ok {
				p.who.declare(list)
				return
			}
			var name string
			if name, first, ok = dialogueMarker(line); ok {
				role, speaker = p.who.role(name)
				dialogue = true
			}
		}
		if !ok {
			p.add(line)
			return
		}
	}
	p.flush()
	// Everything before this line is done: resume here.
	b.setMark(b.off)
	p.sec = &mdSection{role: role, speaker: speaker, dialogue: dialogue, part: p.part, time: p.partTime, off: b.off, line: b.line}
	if ts := mdTime.FindString(rest); ts != "" {
		p.sec.time = when.Stamp(ts)
	}
	if first != "" {
		p.sec.lines = append(p.sec.lines, first)
	}
	b.open[openKey] = nil
}

// add appends a line to the open section; lines before the first section
// are ignored.
func (p *mdParser) add(line string) {
	if p.sec != nil {
		p.sec.lines = append(p.sec.lines, line)
	}
}

// flush emits the open section.
func (p *mdParser) flush() {
	b, s := p.b, p.sec
	p.sec = nil
	if p.fence == "" && !p.front {
		delete(b.open, openKey)
	}
	if s == nil {
		return
	}
	text := strings.TrimSpace(strings.Join(s.lines, "\n"))
	m := Meta{SessionID: p.session, Time: s.time, CWD: p.cwd, Speaker: s.speaker, Part: s.part}
	// The event belongs to the section's heading line, not the current one.
	off, line, key, n := b.off, b.line, b.key, b.n
	b.off, b.line, b.key, b.n = s.off, s.line, "@"+strconv.FormatInt(s.off, 10), 0
	defer func() { b.off, b.line, b.key, b.n = off, line, key, n }()
	switch {
	case s.dialogue && text == "":
	case s.dialogue && s.role == "user":
		// People's words: no slash commands or agent metadata to strip.
		b.emit(Event{Kind: KindUserPrompt, Meta: m, Text: text})
	case s.dialogue && s.role == "assistant":
		b.emit(Event{Kind: KindAssistantText, Meta: m, Text: text})
	case s.role == "user":
		t, cmd := cleanPrompt(text)
		if t != "" {
			kind, cmd := promptKind(t, cmd)
			b.emit(Event{Kind: kind, Meta: m, Text: t, Command: cmd})
		}
	case s.role == "assistant":
		m.Model = p.model
		if t := strings.TrimSpace(dropTag(text, "system-reminder")); t != "" {
			b.emit(Event{Kind: KindAssistantText, Meta: m, Text: t})
		}
	}
}

// mdMarker recognises a role heading or bold role prefix, returning the
// role, the rest of the marker (where a time may be) and text that follows
// a bold prefix on the same line.
func mdMarker(line string) (role, rest, first string, ok bool) {
	var word string
	if m := mdHeading.FindStringSubmatch(line); m != nil {
		r := mdRole.FindStringSubmatch(m[1])
		if r == nil {
			return "", "", "", false
		}
		word, rest = r[1], r[2]
		// "## User" and "## User (time)", not "## User interface notes"
		if t := strings.TrimSpace(rest); t != "" && !strings.ContainsRune("(—–-:·|[", []rune(t)[0]) {
			return "", "", "", false
		}
	} else if m := mdBold.FindStringSubmatch(line); m != nil {
		word, rest, first = m[1], m[2], m[3]
		if mdRole.FindStringSubmatch(word) == nil {
			return "", "", "", false
		}
		if !strings.Contains(line[:len(line)-len(m[3])], ":") {
			return "", "", "", false // "**User** interface" is emphasis, not a marker
		}
	} else {
		return "", "", "", false
	}
	switch strings.ToLower(word) {
	case "user", "human", "you", "me":
		role = "user"
	case "system":
		role = "system"
	default:
		role = "assistant"
	}
	return role, rest, strings.TrimSpace(first), true
}
