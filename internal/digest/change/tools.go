package change

import (
	"strings"

	"github.com/cairn-mem/cairn/internal/lazyre"
	"github.com/cairn-mem/cairn/internal/prose"
)

// Tools are the tools s says do a job, by the job's stem: "use Maven for
// the build" gives build → maven, "let's build the Java side with
// Gradle" build → gradle, "bundle it with Lightning CSS" bundl →
// lightning. A tool replaced by another for the same job seldom shares
// a word with it but the job's; nil when s names none.
func Tools(s string) map[string]string {
	lower := strings.ToLower(s)
	if !strings.Contains(lower, " for ") && !containsAny(lower, " with ", " using ", " via ", " through ") {
		return nil // both expressions need one of these words
	}
	var out map[string]string
	add := func(job, tool string) {
		job = prose.Stem(strings.ToLower(job))
		if !jobWords[job] {
			return
		}
		tool = strings.ToLower(strings.Fields(strings.Trim(tool, "`"))[0])
		if out == nil {
			out = make(map[string]string)
		}
		out[job] = tool
	}
	for _, m := range toolForJob.FindAllStringSubmatch(s, -1) {
		add(m[2], m[1])
	}
	for _, m := range jobWithTool.FindAllStringSubmatch(s, -1) {
		add(m[1], m[2])
	}
	return out
}

// OtherTool reports whether a newer statement of tools nt gives a job
// of x's (tools xt) another tool, and does not name x's tool (newer
// text nText): "Use Maven for the build" once "the Java rewrite now
// builds with Gradle".
func OtherTool(xt, nt map[string]string, nText string) bool {
	for job, tool := range xt {
		if t, ok := nt[job]; ok && t != tool && !strings.Contains(strings.ToLower(nText), tool) {
			return true
		}
	}
	return false
}

// toolName is a tool as people write it: a capitalised name (two words
// at most) or one in backquotes.
const toolName = "(`[^`]+`|(?-i:[A-Z][\\w.+-]*[\\w+])(?:\\s+(?-i:[A-Z][\\w.+-]*[\\w+]))?)"

var (
	// toolForJob: "use Maven for the build", "pick Vitest for our unit tests".
	toolForJob = lazyre.New(`(?i)\b(?:use|uses|using|used|pick|picked|chose|choose|go with|went with|stick with)\s+` + toolName + `\s+for\s+(?:the\s+|our\s+|all\s+|every\s+)?(?:[\w-]+\s+)?([a-z]+)\b`)
	// jobWithTool: "builds with Gradle", "bundle it with Lightning CSS",
	// "let's build the Java side with Gradle".
	jobWithTool = lazyre.New(`(?i)\b([a-z]+)\s+(?:(?:it|them|the\s+[\w-]+(?:\s+[\w-]+)?|our\s+[\w-]+|everything|all\s+of\s+it)\s+)?(?:with|using|via|through)\s+` + toolName)
)

// jobWords are the stems of the jobs a tool is picked for.
var jobWords = prose.WordSet(`build built bundl bundle compil compile test tests lint format deploy
	publish releas release schedul schedule queue cach cache log monitor trac trace host
	packag package mock migrat migrate render style styl serv serve proxy proxi`)
