package observe

import (
	"fmt"
	"strings"

	"github.com/cairn-mem/cairn/internal/lazyre"
	"github.com/cairn-mem/cairn/internal/mdtext"
	"github.com/cairn-mem/cairn/internal/transcript"
)

// Log is what a batch of a session's tool calls said about the work, in
// the order they said it.
type Log struct {
	lines         []string
	read, changed map[string]bool
	failed        map[string]int // failed calls, by name and argument
	changedSince  []string       // files changed since the last failure
}

// New returns an empty Log.
func New() *Log {
	return &Log{read: map[string]bool{}, changed: map[string]bool{}, failed: map[string]int{}}
}

// Lines are the observations recorded, one a line.
func (l *Log) Lines() []string { return l.lines }

// Tool records what a tool call says about the work: files read and
// changed, commands and their exit codes, tests, errors and what fixed
// them.
func (l *Log) Tool(name, summary string, res *transcript.ToolResult) {
	arg := summary
	if n, a, ok := strings.Cut(summary, ": "); ok && (name == "" || n == name) {
		name, arg = n, a
	}
	ok := res != nil && !res.IsError && !res.Interrupted
	switch {
	case readTools[name]:
		if arg != "" && !l.read[arg] && ok {
			l.read[arg] = true
			l.lines = append(l.lines, "read "+mdtext.Code(arg))
		}
	case changeTools[name]:
		if res != nil && ok {
			for _, f := range splitFiles(arg) {
				l.changedSince = append(l.changedSince, f)
				if !l.changed[f] {
					l.changed[f] = true
					l.lines = append(l.lines, fmt.Sprintf("changed %s (%s)", mdtext.Code(f), name))
				}
			}
		}
	case shellTools[name]:
		if res == nil {
			l.lines = append(l.lines, "ran "+mdtext.Code(arg))
			break
		}
		verb := "ran"
		if testCommand.MatchString(arg) {
			verb = "test"
		}
		line := verb + " " + mdtext.Code(arg) + " → " + strings.ReplaceAll(Outcome(res), "**", "")
		if verb == "test" && res.ExitCode != nil {
			if ok {
				line = "test " + mdtext.Code(arg) + " → passed"
			} else {
				line = fmt.Sprintf("test %s → failed (exit %d)", mdtext.Code(arg), *res.ExitCode)
			}
		}
		l.lines = append(l.lines, line)
	}
	if res == nil {
		return
	}
	key := name + "\x00" + arg
	if !ok {
		msg := errorLine(res.Output)
		l.lines = append(l.lines, "error in "+mdtext.Code(summary)+mdtext.Prefixed(": ", mdtext.Code(msg)))
		l.failed[key]++
		l.changedSince = nil
		return
	}
	if l.failed[key] > 0 {
		delete(l.failed, key)
		fix := "fixed " + mdtext.Code(summary)
		if files := uniq(l.changedSince); len(files) > 0 {
			fix += " after changing " + strings.Join(codes(files), ", ")
		}
		l.lines = append(l.lines, fix)
	}
}

// Outcome says in a few words how a tool call ended.
func Outcome(res *transcript.ToolResult) string {
	switch {
	case res.Interrupted:
		return "**interrupted**"
	case res.IsError && res.ExitCode != nil:
		return fmt.Sprintf("**failed** (exit %d)", *res.ExitCode)
	case res.IsError:
		return "**failed**"
	case res.ExitCode != nil:
		return fmt.Sprintf("exit %d", *res.ExitCode)
	}
	return "ok"
}

// The kinds of tool, for observations.
var (
	shellTools  = map[string]bool{"Bash": true, "shell": true, "exec_command": true, "local_shell": true, "container.exec": true}
	readTools   = map[string]bool{"Read": true, "NotebookRead": true}
	changeTools = map[string]bool{"Write": true, "Edit": true, "MultiEdit": true, "NotebookEdit": true, "apply_patch": true}
	testCommand = lazyre.New(`(^|[\s;&|(])(go test|gotestsum|pytest|py\.test|python -m (pytest|unittest)|npm (run )?test|yarn (run )?test|pnpm (run )?test|bun test|deno test|cargo (test|nextest)|jest|vitest|mocha|rspec|phpunit|mvn (-\S+ )*test|gradle(w)? test|\./gradlew test|make (test|check)|ctest|tox|mix test|dotnet test|swift test)\b`)
)

// splitFiles splits the file list of a change summary ("a.go, b.go").
func splitFiles(arg string) []string {
	var out []string
	for _, f := range strings.Split(arg, ", ") {
		if f = strings.TrimSpace(f); f != "" {
			out = append(out, f)
		}
	}
	return out
}

// ErrorText drops the "Exit code N" line a failed shell output starts with.
func ErrorText(out string) string {
	first, rest, ok := strings.Cut(out, "\n")
	if strings.HasPrefix(first, "Exit code ") && ok {
		return strings.TrimLeft(rest, "\n")
	}
	return out
}

// errorLine picks the line that says what went wrong.
func errorLine(out string) string {
	lines := strings.Split(ErrorText(out), "\n")
	for _, l := range lines {
		l = strings.TrimSpace(l)
		low := strings.ToLower(l)
		if strings.Contains(low, "error") || strings.Contains(low, "fail") || strings.Contains(low, "panic") || strings.Contains(low, "cannot") {
			return mdtext.Cut(l, 160)
		}
	}
	for _, l := range lines {
		if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "[... ") {
			return mdtext.Cut(l, 160)
		}
	}
	return ""
}

// codes puts each of list in backquotes.
func codes(list []string) []string {
	out := make([]string, len(list))
	for i, s := range list {
		out[i] = mdtext.Code(s)
	}
	return out
}

// uniq is list without repeats, in order.
func uniq(list []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, s := range list {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}
