package config

import (
	"os"
	"strings"
	"testing"
	"time"

	"github.com/cairn-mem/cairn/internal/redact"
)

// TestCheckConfig: every key's type and range is checked; an invalid key
// is named with its line and reason on one line and keeps its default
// while the valid keys beside it are taken; unknown keys are reported
// apart, and a file that cannot be read as a whole gives the defaults.
func TestCheckConfig(t *testing.T) {
	def := Default()
	for _, tc := range []struct {
		name, yaml string
		errs       []string // substrings of the error, in order; none: valid
		unknown    string   // a substring of the unknown keys
		check      func(c Config) bool
	}{
		{"empty", "", nil, "", func(c Config) bool { return c.Search.ContextBudget == DefaultContextBudget }},
		{"only comments", "# nothing\n", nil, "", nil},
		{"skeleton", string(must(os.ReadFile("../memory/skel/cairn.yaml"))), nil, "", func(c Config) bool { return c.AutoCheckpoint() }},
		{"valid keys", "lock_timeout: 3s\nsummarize:\n  provider: openai\n  model: m\n  base_url: https://llm.example/v1\n  api_key_env: MY_KEY\n  daily_tokens: -1\n  max_tokens: 800\n  timeout: 2m\n",
			nil, "", func(c Config) bool {
				return c.LockTimeout == Duration(3*time.Second) && c.Summarize.DailyTokens == -1 && c.Summarize.MaxTokens == 800 && c.Summarize.Timeout == 2*time.Minute
			}},
		{"number of seconds", "sync:\n  after: 2.5\n", nil, "", func(c Config) bool { return time.Duration(c.Sync.After) == 2500*time.Millisecond }},
		{"unknown key", "schema: 1\nfuture: {x: 1}\nsearch:\n  rerank: fancy\n", nil, "line 4: search.rerank: unknown key", nil},
		{"bad regex", "capture:\n  redact:\n    rules:\n      - {kind: ok-kind, pattern: 'OK-[0-9]+'}\n      - {kind: t, pattern: '(['}\n    allow: ['^x', '*']\n",
			[]string{"line 5: capture.redact.rules[2]: ", "missing closing", "line 6: capture.redact.allow[2]: "}, "",
			func(c Config) bool {
				return len(c.Capture.Redact.Rules) == 1 && c.Capture.Redact.Rules[0].Kind == "ok-kind" && len(c.Capture.Redact.Allow) == 1
			}},
		{"bad rule kind", "capture:\n  redact:\n    rules: [{kind: 'Bad Kind', pattern: x}]\n", []string{"line 3: capture.redact.rules[1]: ", "kind"}, "", nil},
		{"daily tokens below the sentinel", "summarize:\n  daily_tokens: -5\n  model: kept\n", []string{"line 2: summarize.daily_tokens: -5: want 0 or more"}, "",
			func(c Config) bool { return c.Summarize.DailyTokens == 0 && c.Summarize.Model == "kept" }},
		{"negative max tokens", "summarize:\n  max_tokens: -1\n", []string{"line 2: summarize.max_tokens"}, "", nil},
		{"negative budget", "search:\n  context_budget: -10\n", []string{"line 2: search.context_budget"}, "", func(c Config) bool { return c.Search.ContextBudget == DefaultContextBudget }},
		{"size limits", "search:\n  max_file_bytes: 2097152\nsync:\n  max_blob_bytes: 0\n", nil, "",
			func(c Config) bool { return c.Search.FileLimit() == 2<<20 && c.Sync.BlobLimit() == DefaultMaxBlobBytes }},
		{"size limits out of range", "search:\n  max_file_bytes: 10\nsync:\n  max_blob_bytes: -1\n",
			[]string{"line 2: search.max_file_bytes: 10: want 1024", "line 4: sync.max_blob_bytes: -1: want"}, "",
			func(c Config) bool {
				return c.Search.FileLimit() == DefaultMaxFileBytes && c.Sync.BlobLimit() == DefaultMaxBlobBytes
			}},
		{"daemon memory limit", "daemon:\n  memory_limit_mib: 150\n", nil, "",
			func(c Config) bool { return c.Daemon.MemoryLimit() == 150<<20 }},
		{"daemon memory limit default", "daemon: {}\n", nil, "",
			func(c Config) bool { return c.Daemon.MemoryLimit() == DefaultDaemonMemoryMiB<<20 }},
		{"daemon autostart off", "daemon:\n  autostart: false\n", nil, "",
			func(c Config) bool { return !c.Daemon.Autostarts() }},
		{"daemon autostart default", "daemon: {}\n", nil, "",
			func(c Config) bool { return c.Daemon.Autostarts() }},
		{"daemon autostart not a bool", "daemon:\n  autostart: sometimes\n", []string{"line 2: daemon.autostart"}, "",
			func(c Config) bool { return c.Daemon.Autostarts() }},
		{"daemon memory limit too small", "daemon:\n  memory_limit_mib: 8\n", []string{"line 2: daemon.memory_limit_mib: 8: want 32"}, "",
			func(c Config) bool { return c.Daemon.MemoryLimit() == DefaultDaemonMemoryMiB<<20 }},
		{"chunk range", "search:\n  chunk_tokens: 5\n", []string{"line 2: search.chunk_tokens: 5: want 32 to 8192"}, "", nil},
		{"weight NaN", "search:\n  weights: {relevance: .nan, recency: .inf}\n", []string{"search.weights.relevance", "search.weights.recency"}, "",
			func(c Config) bool { return c.Search.Weights == def.Search.Weights }},
		{"similarity", "search:\n  min_similarity: 3\n", []string{"search.min_similarity"}, "", nil},
		{"vector weight", "search:\n  vector_weight: 1000\n", []string{"search.vector_weight"}, "", nil},
		{"zero lock timeout", "lock_timeout: 0s\n", []string{"line 1: lock_timeout: 0s: want a duration above 0"}, "", func(c Config) bool { return c.LockTimeout == def.LockTimeout }},
		{"negative duration", "sync:\n  interval: -5m\n", []string{"line 2: sync.interval"}, "", nil},
		{"duration without unit", "summarize:\n  timeout: 30\n", []string{`line 2: summarize.timeout: want a duration like 10s, got "30"`}, "", nil},
		{"not a duration", "capture:\n  archive_after: soon\n", []string{`line 2: capture.archive_after: want a duration like 10s, got "soon"`}, "", nil},
		{"retention in days", "capture:\n  transcripts_keep: 90d\n  keep_summaries_only: true\n", nil, "",
			func(c Config) bool {
				return time.Duration(c.Capture.TranscriptsKeep) == 90*24*time.Hour && c.Capture.KeepSummariesOnly
			}},
		{"retention too short", "capture:\n  transcripts_keep: 2h\n", []string{"line 2: capture.transcripts_keep: 2h0m0s: want 1d or more"}, "",
			func(c Config) bool { return c.Capture.TranscriptsKeep == 0 }},
		{"retention negative days", "capture:\n  transcripts_keep: -3d\n", []string{"line 2: capture.transcripts_keep: want a duration"}, "", nil},
		{"summaries only not a bool", "capture:\n  keep_summaries_only: maybe\n", []string{"line 2: capture.keep_summaries_only: want true or false"}, "", nil},
		{"too short", "sync:\n  after: 0.0000001\n", []string{"line 2: sync.after: 100ns: too short"}, "", nil},
		{"huge seconds", "sync:\n  after: 1e300\n", []string{"line 2: sync.after"}, "", nil},
		{"wrong type", "search:\n  context_budget: lots\n", []string{`line 2: search.context_budget: want a whole number, got "lots"`}, "", nil},
		{"section not a mapping", "summarize: claude\n", []string{`line 1: summarize: want a mapping of keys, got "claude"`}, "", nil},
		{"list not a list", "capture:\n  transcripts: /etc/*\n", []string{"line 2: capture.transcripts: want a list"}, "", nil},
		{"ftp URL", "search:\n  embedder:\n    base_url: ftp://host/x\n", []string{"line 3: search.embedder.base_url", "http:// or https://"}, "", nil},
		{"URL without host", "summarize:\n  base_url: 'http:///x'\n", []string{"line 2: summarize.base_url"}, "", nil},
		{"URL password hidden", "summarize:\n  base_url: 'gopher://u:s3cret@h/'\n", []string{"line 2: summarize.base_url"}, "", nil},
		{"unknown provider", "summarize:\n  provider: curl\n", []string{`line 2: summarize.provider: "curl": want extractive`}, "", nil},
		{"unknown embedder", "search:\n  embedder: {provider: magic}\n", []string{"line 2: search.embedder.provider"}, "", nil},
		{"key in api_key_env", "summarize:\n  api_key_env: sk-ant-123\n", []string{"line 2: summarize.api_key_env", "never the key"}, "", nil},
		{"control character", "summarize:\n  claude_path: \"/bin/x\\n\"\n", []string{"line 2: summarize.claude_path", "control characters"}, "", nil},
		{"schema", "schema: 7\n", []string{"line 1: schema: 7: want 1"}, "", nil},
		{"twice", "lock_timeout: 1s\nlock_timeout: 2s\n", []string{"line 2: lock_timeout: set twice (first on line 1)"}, "", func(c Config) bool { return c.LockTimeout == Duration(time.Second) }},
		{"attempts", "summarize:\n  attempts: 1000\n", []string{"line 2: summarize.attempts"}, "", nil},
		{"not YAML", "summarize: [\n", []string{"not YAML"}, "", func(c Config) bool { return c.Search == def.Search }},
		{"top not a mapping", "- a\n- b\n", []string{"want a mapping of keys at the top"}, "", nil},
		{"alias", "summarize: &s {provider: claude}\nextra: *s\n", []string{"line 2: ", "aliases"}, "", func(c Config) bool { return c.Summarize.Provider == "" }},
		{"merge key", "base: &b {daily_tokens: -1}\nsummarize:\n  <<: *b\n", []string{"aliases and merge keys"}, "", nil},
		{"bomb", "a: &a [x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]\nc: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]\nd: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c]\n",
			[]string{"aliases"}, "", nil},
		{"huge file", "schema: 1\n" + strings.Repeat("# padding padding padding\n", MaxSize/20), []string{"more than the 262144"}, "", nil},
		{"many nodes", "x: [" + strings.Repeat("1,", maxNodes+10) + "1]\n", []string{"more than 20000 YAML nodes"}, "", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, unknown, err := Check([]byte(tc.yaml))
			if len(tc.errs) == 0 && err != nil {
				t.Fatalf("error %v", err)
			}
			if len(tc.errs) > 0 {
				if err == nil {
					t.Fatalf("no error, want %q", tc.errs)
				}
				msg := err.Error()
				if strings.Contains(msg, "\n") {
					t.Errorf("error spans lines: %q", msg)
				}
				if strings.Contains(msg, "s3cret") {
					t.Errorf("error shows a password: %q", msg)
				}
				rest := msg
				for _, want := range tc.errs {
					i := strings.Index(rest, want)
					if i < 0 {
						t.Fatalf("error %q lacks %q (in order)", msg, want)
					}
					rest = rest[i+len(want):]
				}
				if _, ok := err.(*Error); !ok {
					t.Errorf("error is a %T", err)
				}
			}
			var us []string
			for _, u := range unknown {
				us = append(us, u.String())
			}
			if got := strings.Join(us, "; "); tc.unknown == "" && got != "" || !strings.Contains(got, tc.unknown) {
				t.Errorf("unknown keys %q, want %q", got, tc.unknown)
			}
			if tc.check != nil && !tc.check(c) {
				t.Errorf("config %+v", c)
			}
			if _, rerr := redactorOf(c); rerr != nil {
				t.Errorf("the checked config's redactor fails: %v", rerr)
			}
		})
	}
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

func redactorOf(c Config) (any, error) { return redact.New(c.Capture.Redact) }

// FuzzConfig: whatever the bytes, checking them returns, the error is one
// line, and the config it returns is one whose redactor compiles and
// whose numbers are in range.
func FuzzConfig(f *testing.F) {
	for _, s := range []string{
		"", "schema: 1\n", "summarize:\n  daily_tokens: -1\n", "capture:\n  redact:\n    rules: [{kind: a, pattern: '('}]\n",
		"a: &a [1]\nb: *a\n", "search:\n  weights: {relevance: .nan}\n", "sync:\n  after: 1e30\n", "summarize: [\n",
		string(must(os.ReadFile("../memory/skel/cairn.yaml"))),
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		c, unknown, err := Check(b)
		if err != nil && strings.Contains(err.Error(), "\n") {
			t.Errorf("error spans lines: %q", err)
		}
		for _, u := range unknown {
			if strings.Contains(u.String(), "\n") {
				t.Errorf("unknown key spans lines: %q", u)
			}
		}
		if _, rerr := redactorOf(c); rerr != nil {
			t.Errorf("redactor: %v", rerr)
		}
		s := c.Summarize
		if s.DailyTokens < -1 || s.MaxTokens < 0 || s.Timeout < 0 || c.LockTimeout <= 0 || c.Search.ContextBudget < 0 ||
			c.Sync.After < 0 || c.Sync.Interval < 0 || c.Capture.ArchiveAfter < 0 || s.Backoff < 0 {
			t.Errorf("out of range: %+v", c)
		}
		for _, u := range []string{s.BaseURL, c.Search.Embedder.BaseURL} {
			if l := strings.ToLower(u); u != "" && !strings.HasPrefix(l, "http://") && !strings.HasPrefix(l, "https://") {
				t.Errorf("URL %q", u)
			}
		}
		// Valid means the same file reads the same again.
		if err == nil {
			c2, _, err2 := Check(b)
			if err2 != nil || c2.Search != c.Search {
				t.Errorf("not stable: %v", err2)
			}
		}
	})
}
