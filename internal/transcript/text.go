package transcript

import (
	"encoding/json"
	"strconv"
	"strings"
)

// metaTags wrap what Claude Code adds to the user's turn: command output,
// caveats, reminders, IDE context. They are dropped with their content.
var metaTags = []string{
	"system-reminder",
	"command-message",
	"local-command-stdout",
	"local-command-stderr",
	"local-command-caveat",
	"bash-stdout",
	"bash-stderr",
	"user-prompt-submit-hook",
	"ide_opened_file",
	"ide_selection",
	"ide_diagnostics",
}

// cleanPrompt returns the user's words in s. A slash command
// (<command-name>/x</command-name><command-args>a</command-args>) becomes
// "/x a" with command "/x"; a shell escape (<bash-input>ls</bash-input>)
// becomes "!ls".
func cleanPrompt(s string) (text, command string) {
	if !strings.Contains(s, "<") {
		return strings.TrimSpace(s), ""
	}
	name, s := cutTag(s, "command-name")
	args, s := cutTag(s, "command-args")
	shell, s := cutTag(s, "bash-input")
	for _, tag := range metaTags {
		s = dropTag(s, tag)
	}
	s = strings.TrimSpace(s)
	var head string
	switch {
	case strings.TrimSpace(name) != "":
		command = strings.TrimSpace(name)
		if !strings.HasPrefix(command, "/") {
			command = "/" + command
		}
		head = strings.TrimSpace(command + " " + strings.TrimSpace(args))
	case strings.TrimSpace(shell) != "":
		head = "!" + strings.TrimSpace(shell)
	}
	switch {
	case head == "":
		return s, command
	case s == "":
		return head, command
	}
	return head + "\n" + s, command
}

// promptKind says whether what the user typed, as cleanPrompt returned
// it, is a prompt or a slash command: a <command-name> element, or a
// prompt that is nothing but /word (what a hook gets for /cost). A
// command that is not bare (/etc/hosts is wrong, /tmp is full) stays a
// prompt. It returns the command for a bare one.
func promptKind(text, command string) (Kind, string) {
	if command != "" {
		return KindCommand, command
	}
	if bareCommand(text) {
		return KindCommand, text
	}
	return KindUserPrompt, ""
}

// bareCommand reports whether s is a slash command and nothing else:
// "/" then a letter, then letters, digits, "-", "_" or ":" (/cost,
// /clear, /mcp, /plugin:name).
func bareCommand(s string) bool {
	if len(s) < 2 || s[0] != '/' || !isLetter(s[1]) {
		return false
	}
	for i := 2; i < len(s); i++ {
		c := s[i]
		if !isLetter(c) && !(c >= '0' && c <= '9') && c != '-' && c != '_' && c != ':' {
			return false
		}
	}
	return true
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// cleanOutput removes reminders from a tool's output and unwraps the
// <tool_use_error> Claude Code puts around validation errors.
func cleanOutput(s string) string {
	if !strings.Contains(s, "<") {
		return s
	}
	s = dropTag(s, "system-reminder")
	if inner, rest := cutTag(s, "tool_use_error"); inner != "" {
		s = strings.TrimSpace(inner + "\n" + rest)
	}
	return strings.TrimRight(s, " \t\r\n")
}

// dropTag removes every <tag>…</tag> element from s; an element left open
// runs to the end.
func dropTag(s, tag string) string {
	for {
		_, rest, found := cutElement(s, tag)
		if !found {
			return s
		}
		s = rest
	}
}

// cutTag removes the first <tag>…</tag> element from s and returns its
// content and what is left.
func cutTag(s, tag string) (inner, rest string) {
	inner, rest, _ = cutElement(s, tag)
	return inner, rest
}

func cutElement(s, tag string) (inner, rest string, found bool) {
	open := "<" + tag
	i := 0
	for {
		j := strings.Index(s[i:], open)
		if j < 0 {
			return "", s, false
		}
		i += j
		// "<tag>" or "<tag attr=…>", not "<tagging>"
		if k := i + len(open); k < len(s) && (s[k] == '>' || s[k] == ' ') {
			break
		}
		i += len(open)
	}
	gt := strings.IndexByte(s[i:], '>')
	if gt < 0 {
		return "", s[:i], true
	}
	start := i + gt + 1
	closing := "</" + tag + ">"
	end := strings.Index(s[start:], closing)
	if end < 0 {
		return s[start:], s[:i], true
	}
	return s[start : start+end], s[:i] + s[start+end+len(closing):], true
}

// exitCode reads "Exit code N" at the start of a failed shell command's
// output. A command that succeeded exits 0 when the caller knows it was a
// shell command (known).
func exitCode(out string, isError, known bool) *int {
	if !isError {
		if known {
			n := 0
			return &n
		}
		return nil
	}
	rest, ok := strings.CutPrefix(out, "Exit code ")
	if !ok {
		return nil
	}
	return leadingInt(rest)
}

// leadingInt parses the decimal number s starts with.
func leadingInt(s string) *int {
	i := 0
	if i < len(s) && s[i] == '-' {
		i++
	}
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	n, err := strconv.Atoi(s[:i])
	if err != nil {
		return nil
	}
	return &n
}

// firstLine shortens s to its first non-empty line of at most max runes,
// marking what was cut with "…".
func firstLine(s string, max int) string {
	s = strings.TrimSpace(s)
	cut := false
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s, cut = strings.TrimSpace(s[:i]), true
	}
	if n := 0; len(s) > max {
		for i := range s {
			if n == max {
				s, cut = s[:i], true
				break
			}
			n++
		}
	}
	if cut {
		s += " …"
	}
	return s
}

// contentText returns the text of a JSON content value: a string, or the
// text of its text blocks (an image becomes "[image]"). ok is false when
// raw is neither.
func contentText(raw json.RawMessage) (text string, ok bool) {
	if len(raw) == 0 || string(raw) == "null" {
		return "", true
	}
	if raw[0] == '"' {
		return text, json.Unmarshal(raw, &text) == nil
	}
	var blocks []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	if json.Unmarshal(raw, &blocks) != nil {
		return "", false
	}
	var sb strings.Builder
	for _, blk := range blocks {
		var t string
		switch blk.Type {
		case "text":
			t = blk.Text
		case "image":
			t = "[image]"
		default:
			continue
		}
		if sb.Len() > 0 {
			sb.WriteByte('\n')
		}
		sb.WriteString(t)
	}
	return sb.String(), true
}
