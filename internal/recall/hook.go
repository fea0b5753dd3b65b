package recall

import (
	"context"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/cairn-mem/cairn/indexer"
	"github.com/cairn-mem/cairn/internal/memory"
	"github.com/cairn-mem/cairn/internal/metrics"
)

// StartOptions describe the session an agent starts.
type StartOptions struct {
	// Source is how it starts: startup, resume, clear or compact (Claude
	// Code's SessionStart source).
	Source string
	// Session is the agent's session id, "" if unknown.
	Session string
}

// StartPack is the context a new session receives, with a line that says
// where it comes from, or "" when the memory has nothing to say. A
// resumed or compacted session continues, so its own state comes first;
// a new one (startup, clear) gets the memory as it stands. s packs it
// (the daemon, or nil to pack here).
func StartPack(ctx context.Context, m *memory.Memory, s Searcher, opts StartOptions) (string, error) {
	co := ContextOptions{}
	if opts.Session != "" && opts.Source != "startup" && opts.Source != "clear" {
		if _, err := m.Sessions().Get(ctx, opts.Session); err == nil {
			co.Session = opts.Session
		}
	}
	start := time.Now()
	var pack *Pack
	var err error
	if s != nil {
		pack, err = s.Context(ctx, co)
	}
	if pack == nil {
		if err != nil && ctx.Err() != nil {
			return "", err // the deadline came while the daemon made it
		}
		var lerr error
		if pack, lerr = Context(ctx, m, co); lerr != nil {
			return "", joinErr(err, lerr)
		}
	}
	metrics.Open(m.StatePath("")).Record(ctx, pack.Metric("session-start", time.Since(start)))
	if strings.TrimSpace(pack.Text) == "" {
		return "", err
	}
	return "This is the project's memory from earlier agent sessions, kept by cairn in .cairn/ (the cairn MCP tools and `cairn search` find more).\n\n" + pack.Text, err
}

func joinErr(a, b error) error {
	if a == nil {
		return b
	}
	return fmt.Errorf("%w; then %w", a, b)
}

// MaxPromptBytes bounds the part of a prompt that is searched.
const MaxPromptBytes = 16 << 10

// PromptMemories are the k memories most related to a prompt the user
// submitted, as a short list, or "" for none. Commands (/cost, /clear)
// and empty prompts have none.
func PromptMemories(ctx context.Context, s Searcher, prompt string, k int) (string, error) {
	prompt = strings.TrimSpace(prompt)
	if prompt == "" || strings.HasPrefix(prompt, "/") {
		return "", nil
	}
	if len(prompt) > MaxPromptBytes {
		prompt = prompt[:MaxPromptBytes]
		for !utf8.ValidString(prompt) {
			prompt = prompt[:len(prompt)-1]
		}
	}
	res, err := s.Search(ctx, prompt, SearchOptions{K: k})
	if err != nil || len(res.Hits) == 0 {
		return "", err
	}
	var b strings.Builder
	b.WriteString("Memories of this project related to the prompt (kept by cairn; cairn show ID prints one whole):\n")
	for _, hit := range res.Hits {
		text := strings.Join(strings.Fields(hit.Text), " ")
		fmt.Fprintf(&b, "\n- %s (%s, %s): %s\n", hit.Title, hit.Kind, hit.ID, CapChars(text, 600))
	}
	return b.String(), nil
}

// PromptMetric is what the metrics log keeps of a prompt's memories (the
// text PromptMemories returned): its tokens and memories, none of its
// text.
func PromptMetric(text string, took time.Duration) metrics.Event {
	return metrics.Event{Kind: metrics.KindPack, Name: "prompt", Tokens: int64(indexer.EstimateTokens(text)),
		Items: strings.Count(text, "\n- "), MS: metrics.Millis(took)}
}

// CapChars cuts s to at most n characters, at a line end if one is near,
// saying so: agents cut hook output at a limit of their own (Claude Code
// at 10,000 characters), and a cut of ours says where the rest is.
func CapChars(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	const more = "\n(cut to fit; cairn context prints it whole)"
	keep := n - utf8.RuneCountInString(more)
	i := 0
	for j := range s {
		if keep == 0 {
			i = j
			break
		}
		keep--
	}
	cut := s[:i]
	if nl := strings.LastIndexByte(cut, '\n'); nl > len(cut)*3/4 {
		cut = cut[:nl]
	}
	return cut + more
}
