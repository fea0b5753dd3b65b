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
	named := containsAny(lower, " a ", " an ", " the ", " our ")
	if !strings.Contains(lower, " for ") && !containsAny(lower, " with ", " using ", " via ", " through ") && !named {
		return nil // every expression needs one of these words
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
	if named && strings.Contains(lower, "use ") {
		for _, m := range jobThenUse.FindAllStringSubmatch(s, -1) {
			add(m[1], m[2])
		}
	}
	if named {
		for _, m := range toolsJob.FindAllStringSubmatch(s, -1) {
			add(m[2], m[1])
		}
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
	// toolsJob: "set up a Cachix cache", "the Kafka queue": a tool
	// named before the job it does.
	toolsJob = lazyre.New(`\b(?:a|an|the|our)\s+` + toolName + `\s+((?i:cache|queue|proxy|registry|broker|scheduler|bundler|linter|formatter|logger|tracer|host|mock))\b`)
	// jobThenUse: "I want the cache off the SaaS — use our own Attic
	// server": the job named, then, after a dash or a colon, the tool to
	// use for it ("put the cache behind the proxy and use Nginx" gives
	// the cache nothing).
	jobThenUse  = lazyre.New(`(?i)\bthe\s+([a-z]+)\b[^.;—–:]{0,40}?\s*[—–:]\s*use\s+(?:our\s+own\s+|a\s+|an\s+|the\s+)?` + toolName)
	jobWithTool = lazyre.New(`(?i)\b([a-z]+)\s+(?:(?:it|them|the\s+[\w-]+(?:\s+[\w-]+)?|our\s+[\w-]+|everything|all\s+of\s+it)\s+)?(?:with|using|via|through)\s+` + toolName)
)

// jobWords are the stems of the jobs a tool is picked for.
var jobWords = prose.WordSet(`build built bundl bundle compil compile test tests lint format deploy
	publish releas release schedul schedule queue cach cache log monitor trac trace host
	packag package mock migrat migrate render style styl serv serve proxy proxi`)
