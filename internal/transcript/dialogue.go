package transcript

import (
	"strconv"
	"strings"
	"time"

	"github.com/cairn-mem/cairn/internal/lazyre"
	"github.com/cairn-mem/cairn/internal/transcript/when"
)

// Dialogue: conversations between people, as chat logs are exported. Turns
// name their speaker ("**Maya:** …", "Maya: …", {"speaker": "Maya"}) and
// sessions are marked by headings that number or date them ("## Session 3
// — 2025-03-09 19:45", "## 2025-03-09", "### March 9, 2025") or by a
// "session" field. Each turn becomes a prompt (the first speaker, or the
// one named User) or an assistant text (the others, or Assistant), with
// Meta.Speaker naming who said it and Meta.Part the session it belongs to.

// speakers maps the names of a dialogue to roles: the first name seen (or
// the first of a "speakers:" list) is the user, the others the assistant,
// unless a name is one of the role names of ParseMarkdown.
type speakers struct {
	names []string
}

// role returns the role of a speaker and the name to record: "" for a role
// name, which says the role and names nobody.
func (s *speakers) role(name string) (role, speaker string) {
	if r := roleWord(name); r != "" {
		return r, ""
	}
	for i, n := range s.names {
		if strings.EqualFold(n, name) {
			if i == 0 {
				return "user", n
			}
			return "assistant", n
		}
	}
	s.names = append(s.names, name)
	if len(s.names) == 1 {
		return "user", name
	}
	return "assistant", name
}

// declare takes the speakers of a "speakers: Maya, Tom" list, in order,
// ahead of the ones seen.
func (s *speakers) declare(list string) {
	var names []string
	for _, n := range strings.Split(list, ",") {
		if n = strings.TrimSpace(n); n != "" && roleWord(n) == "" {
			names = append(names, n)
		}
	}
	for _, n := range s.names {
		if !containsFold(names, n) {
			names = append(names, n)
		}
	}
	s.names = names
}

func containsFold(list []string, s string) bool {
	for _, x := range list {
		if strings.EqualFold(x, s) {
			return true
		}
	}
	return false
}

// roleWord returns the role a name that is a role word stands for
// ("User", "assistant", "Claude"...), or "".
func roleWord(name string) string {
	r := mdRole.FindStringSubmatch(name)
	if r == nil || r[2] != "" {
		return ""
	}
	switch strings.ToLower(r[1]) {
	case "user", "human", "you", "me":
		return "user"
	case "system":
		return "system"
	}
	return "assistant"
}

var (
	// "**Maya:** text", "**Maya**: text", "**Maya (10:32):** text"
	dlgBold = lazyre.New(`^\*\*(\p{L}[\p{L}\p{N}'’. -]{0,38}?)[ \t]*(?:\(([^)]*)\))?[ \t]*(:?)\*\*[ \t]*(:?)[ \t]?(.*)$`)
	// "Maya: text", "Maya Lopez: text"
	dlgPlain = lazyre.New(`^(\p{Lu}[\p{L}'’.-]{0,23}(?: \p{Lu}[\p{L}'’.-]{0,23})?)[ \t]*:[ \t]+(\S.*)$`)
	// "Session 3", "Session #3", "Day 3", "Chat 3"
	dlgSession = lazyre.New(`^(?i)(?:session|day|chat|conversation|part)\s*#?\s*(\d{1,5})\b(.*)$`)

	// what may stand beside a date in a heading that is only a date
	dateFiller = lazyre.New(`(?i)\b(?:mon|tue|wed|thu|fri|sat|sun)[a-z]*\b|\b(?:on|at|utc)\b|[\s\p{P}\p{S}]+`)
)

// labels are words that end in a colon at the start of a line without
// being someone speaking.
var labels = map[string]bool{
	"note": true, "notes": true, "nb": true, "ps": true, "update": true, "edit": true, "edited": true,
	"warning": true, "error": true, "summary": true, "title": true, "date": true, "time": true,
	"session": true, "source": true, "tip": true, "todo": true, "re": true, "subject": true,
	"tags": true, "speakers": true, "participants": true, "example": true, "see": true, "step": true,
}

// dialogueMarker recognises a line that starts a dialogue turn: a bold
// name followed by a colon, or a capitalised name of one or two words
// followed by a colon and text. It returns the name and the turn's text on
// the line.
func dialogueMarker(line string) (name, first string, ok bool) {
	if m := dlgBold.FindStringSubmatch(line); m != nil {
		if m[3] == "" && m[4] == "" {
			return "", "", false // "**Maya** said" is emphasis
		}
		name = strings.TrimSpace(m[1])
		if strings.Count(name, " ") > 3 || labels[strings.ToLower(name)] {
			return "", "", false
		}
		return name, strings.TrimSpace(m[5]), true
	}
	if m := dlgPlain.FindStringSubmatch(line); m != nil {
		if labels[strings.ToLower(m[1])] {
			return "", "", false
		}
		return m[1], strings.TrimSpace(m[2]), true
	}
	return "", "", false
}

// sessionHeading recognises the text of a heading that starts a session of
// a dialogue: "Session 3", "Session 3 — 2025-03-09 14:10", "Session 3
// (2025-03-09)", or a date alone ("2025-03-09", "March 9, 2025", "Sunday,
// 9 March 2025, 7:45 pm"). n is the session's number, 0 when the heading
// does not give one.
func sessionHeading(text string) (n int, t time.Time, ok bool) {
	text = strings.TrimSpace(text)
	if m := dlgSession.FindStringSubmatch(text); m != nil {
		n, _ = strconv.Atoi(m[1])
		return n, when.Parse(m[2]), n > 0
	}
	t, rest := when.Find(text)
	if t.IsZero() {
		return 0, t, false
	}
	rest = when.DropClock(rest)
	if strings.TrimSpace(dateFiller.ReplaceAllString(rest, "")) != "" {
		return 0, time.Time{}, false // a heading about something, that names a date
	}
	return 0, t, true
}

// sessionNumber reads the session a dialogue line belongs to from its
// "session" field (3, "3", "session_3", "Session 3") or, failing that, from
// a LoCoMo-style turn id ("D3:4" is the 4th turn of session 3). 0 when
// neither says.
func sessionNumber(field, turnID string) int {
	if m := firstNumber.FindString(field); m != "" {
		n, _ := strconv.Atoi(m)
		return n
	}
	if m := locomoID.FindStringSubmatch(turnID); m != nil {
		n, _ := strconv.Atoi(m[1])
		return n
	}
	return 0
}

var (
	firstNumber = lazyre.New(`\d{1,6}`)
	locomoID    = lazyre.New(`^[A-Za-z]*(\d{1,6}):\d+$`)
)

// speakersComment reads a line "<!-- speakers: Maya, Tom -->" (also
// "participants:"), the way a chat export may list who talks, in order.
func speakersComment(line string) (string, bool) {
	t := strings.TrimSpace(line)
	if !strings.HasPrefix(t, "<!--") || !strings.HasSuffix(t, "-->") {
		return "", false
	}
	t = strings.TrimSpace(strings.TrimSuffix(strings.TrimPrefix(t, "<!--"), "-->"))
	k, v, ok := strings.Cut(t, ":")
	switch strings.ToLower(strings.TrimSpace(k)) {
	case "speakers", "participants":
		return v, ok
	}
	return "", false
}
