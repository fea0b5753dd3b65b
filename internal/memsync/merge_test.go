package memsync

import (
	"bytes"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/cairn-mem/cairn/internal/memory"
	"github.com/cairn-mem/cairn/internal/model"
)

func TestUnionLog(t *testing.T) {
	base := "# Summary of session s\n\n## Segment 1 (2026-01-01 10:00–10:05 UTC)\n\none\n"
	tests := []struct {
		name               string
		base, ours, theirs string
		want               string
	}{
		{"both appended, interleaved by time",
			base,
			base + "\n## Segment 2 (2026-01-01 10:06–10:08 UTC)\n\nours a\n\n## Segment 3 (2026-01-01 10:30–10:31 UTC)\n\nours b\n",
			base + "\n## Segment 2 (2026-01-01 10:10–10:12 UTC)\n\ntheirs a\n",
			base + "\n## Segment 2 (2026-01-01 10:06–10:08 UTC)\n\nours a\n\n## Segment 2 (2026-01-01 10:10–10:12 UTC)\n\ntheirs a\n\n## Segment 3 (2026-01-01 10:30–10:31 UTC)\n\nours b\n"},
		{"same section on both sides is kept once",
			base, base + "## 2 · 2026-01-01 11:00:00 UTC\n\nx\n", base + "## 2 · 2026-01-01 11:00:00 UTC\n\nx\n",
			base + "## 2 · 2026-01-01 11:00:00 UTC\n\nx\n"},
		{"continuation of the last section, then sections",
			base, base + "more from ours\n", base + "more from theirs\n## 9 · 2026-01-02 00:00:00 UTC\nt\n",
			base + "more from ours\nmore from theirs\n## 9 · 2026-01-02 00:00:00 UTC\nt\n"},
		{"sections without times keep their side's order",
			"", "## a\n1\n## b\n2\n", "## c\n3\n",
			"## a\n1\n## b\n2\n## c\n3\n"},
		{"edited by hand: ours, then what theirs adds",
			"## 1\nold\n", "## 1\nnew\n## 2\nours\n", "## 1\nold\n## 3\ntheirs\n",
			"## 1\nnew\n## 2\nours\n## 1\nold\n## 3\ntheirs\n"},
		{"no trailing newline",
			"x", "x\n## 2\na", "x\n## 3\nb",
			"x\n## 2\na\n## 3\nb"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := string(unionLog([]byte(tt.base), []byte(tt.ours), []byte(tt.theirs)))
			if got != tt.want {
				t.Errorf("got:\n%s\nwant:\n%s", got, tt.want)
			}
		})
	}
}

// FuzzUnionLog checks that the union never loses a line of either side.
func FuzzUnionLog(f *testing.F) {
	f.Add("## 1\na\n", "## 1\na\n## 2 · 2026-01-01 10:00:00 UTC\nb\n", "## 1\na\nc\n## 2 · 2025-01-01 10:00:00 UTC\nd")
	f.Add("", "x", "y")
	f.Add("## a\n", "## b\n", "")
	f.Fuzz(func(t *testing.T, base, ours, theirs string) {
		got := string(unionLog([]byte(base), []byte(ours), []byte(theirs)))
		lines := map[string]int{}
		for _, l := range strings.Split(got, "\n") {
			lines[l]++
		}
		for _, side := range []string{ours, theirs} {
			need := map[string]int{}
			for _, l := range strings.Split(side, "\n") {
				need[l]++
			}
			for l, n := range need {
				// A line may sit at a section's end and gain a newline; its
				// text must still be there.
				if lines[l] == 0 && !strings.Contains(got, l) {
					t.Fatalf("line %q (x%d) lost:\nbase %q\nours %q\ntheirs %q\ngot %q", l, n, base, ours, theirs, got)
				}
			}
		}
	})
}

func TestMergeSession(t *testing.T) {
	base := "schema: 1\nid: s\nagent: claude-code\nstatus: active\ntitle: T\nprompts: 1\nturns: 2\nstarted: 2026-01-01T10:00:00Z\nupdated: 2026-01-01T10:00:00Z\nlast_activity: 2026-01-01T10:00:00Z\nprogress: {done: 1, total: 3}\nvariables: {a: '1', b: '2', gone: x}\nsources:\n  - name: t.jsonl\n    offset: 10\nhooks: [h1]\n"
	ours := strings.NewReplacer("prompts: 1", "prompts: 4", "updated: 2026-01-01T10:00:00Z", "updated: 2026-01-01T12:00:00Z",
		"a: '1'", "a: ours", "gone: x", "new: ours", "offset: 10", "offset: 50", "[h1]", "[h1, h2]").Replace(base)
	theirs := strings.NewReplacer("turns: 2", "turns: 9", "status: active", "status: suspended", "last_activity: 2026-01-01T10:00:00Z", "last_activity: 2026-01-01T11:00:00Z",
		"b: '2'", "b: theirs", "progress: {done: 1, total: 3}", "progress: {done: 2, total: 3}", "offset: 10", "offset: 30\n  - name: u.jsonl\n    offset: 5", "[h1]", "[h1, h3]",
		"title: T", "title: T\nextra_key: kept").Replace(base)
	got, err := mergeSession("s/session.yaml", []byte(base), []byte(ours), []byte(theirs))
	if err != nil {
		t.Fatal(err)
	}
	s, err := model.ParseSession("merged", got)
	if err != nil {
		t.Fatal(err)
	}
	if s.Prompts != 4 || s.Turns != 9 || s.Status != model.StatusSuspended || s.Progress.Done != 2 {
		t.Errorf("counters/status: %+v", s)
	}
	if !s.Updated.Equal(time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)) || !s.LastActivity.Equal(time.Date(2026, 1, 1, 11, 0, 0, 0, time.UTC)) {
		t.Errorf("times: %v %v", s.Updated, s.LastActivity)
	}
	if s.Variables["a"] != "ours" || s.Variables["b"] != "theirs" || s.Variables["new"] != "ours" || s.Variables["gone"] != "" {
		t.Errorf("variables: %v", s.Variables)
	}
	if len(s.Sources) != 2 || s.Sources[0].Offset != 50 || s.Sources[1].Name != "u.jsonl" {
		t.Errorf("sources: %+v", s.Sources)
	}
	if strings.Join(s.Hooks, ",") != "h1,h2,h3" {
		t.Errorf("hooks: %v", s.Hooks)
	}
	if !strings.Contains(string(got), "extra_key: kept") {
		t.Errorf("unknown key lost:\n%s", got)
	}
	if _, err := mergeSession("x", nil, []byte("schema: [\n"), []byte(base)); err == nil {
		t.Error("broken session.yaml merged")
	}
}

func TestMergerRules(t *testing.T) {
	now := time.Date(2026, 3, 4, 5, 6, 7, 0, time.UTC)
	mg := &merger{host: "laptop", now: now, remote: "origin", taken: map[string]bool{}}
	item := "---\nid: 01JDXK3V9M2Q7Y8Z4T6R5W1HBC\nkind: fact\ntitle: X\n---\nbody %s\n"
	p := "core/facts/x--01JDXK3V9M2Q7Y8Z4T6R5W1HBC.md"
	r, err := mg.merge(memory.MergeFile{Path: p, InBase: true, InOurs: true, InTheirs: true,
		Base: []byte(strings.Replace(item, "%s", "base", 1)), Ours: []byte(strings.Replace(item, "%s", "ours", 1)), Theirs: []byte(strings.Replace(item, "%s", "theirs", 1))})
	if err != nil {
		t.Fatal(err)
	}
	if !r.Conflict || !bytes.Contains(r.Data, []byte("body ours")) || len(r.Extra) != 1 {
		t.Fatalf("both changed: %+v", r)
	}
	want := "core/facts/x--01JDXK3V9M2Q7Y8Z4T6R5W1HBC.conflict-laptop-20260304-050607.md"
	if r.Extra[0].Path != want || !IsConflictCopy(want) || ConflictOriginal(want) != p {
		t.Errorf("copy at %s (original %s)", r.Extra[0].Path, ConflictOriginal(r.Extra[0].Path))
	}
	it, err := model.Parse(want, r.Extra[0].Data)
	if err != nil || it.Body != "body theirs" || it.ID != "01JDXK3V9M2Q7Y8Z4T6R5W1HBC" {
		t.Errorf("copy does not parse as the item: %v %+v", err, it)
	}
	if !bytes.Contains(r.Extra[0].Data, []byte(`conflict_of: "`+p+`"`)) {
		t.Errorf("copy not marked:\n%s", r.Extra[0].Data)
	}
	if got := string(unmarkConflict(r.Extra[0].Data)); got != strings.Replace(item, "%s", "theirs", 1) {
		t.Errorf("unmark:\n%s", got)
	}
	// A second conflict on the same path in the same merge gets another name.
	r2, _ := mg.merge(memory.MergeFile{Path: p, InOurs: true, InTheirs: true, Ours: []byte("a"), Theirs: []byte("b")})
	if r2.Extra[0].Path == want {
		t.Error("same conflict name twice")
	}
	// A name taken in the tree already (a conflict of an earlier merge in
	// the same second) is not reused.
	mg2 := &merger{host: "laptop", now: now, remote: "origin", taken: map[string]bool{}}
	r5, _ := mg2.merge(memory.MergeFile{Path: p, InOurs: true, InTheirs: true, Ours: []byte("a"), Theirs: []byte("b"),
		Exists: func(q string) bool { return q == want }})
	if r5.Extra[0].Path == want || !IsConflictCopy(r5.Extra[0].Path) || ConflictOriginal(r5.Extra[0].Path) != p {
		t.Errorf("taken name: %s", r5.Extra[0].Path)
	}
	// Modified here, deleted there (and the reverse): the change stays.
	if r, _ := mg.merge(memory.MergeFile{Path: p, InBase: true, InOurs: true, Ours: []byte("changed")}); r.Delete || string(r.Data) != "changed" {
		t.Errorf("modify/delete: %+v", r)
	}
	if r, _ := mg.merge(memory.MergeFile{Path: p, InBase: true, InTheirs: true, Theirs: []byte("changed")}); r.Delete || string(r.Data) != "changed" {
		t.Errorf("delete/modify: %+v", r)
	}
	// Other files: conflict copies with the extension kept.
	r3, _ := mg.merge(memory.MergeFile{Path: "cairn.yaml", InOurs: true, InTheirs: true, Ours: []byte("a: 1\n"), Theirs: []byte("a: 2\n")})
	if !strings.HasPrefix(r3.Extra[0].Path, "cairn.conflict-laptop-") || !strings.HasSuffix(r3.Extra[0].Path, ".yaml") || string(r3.Extra[0].Data) != "a: 2\n" {
		t.Errorf("cairn.yaml: %+v", r3.Extra)
	}
	// Logs union.
	r4, _ := mg.merge(memory.MergeFile{Path: "sessions/s/prompts.md", InBase: true, InOurs: true, InTheirs: true, Base: []byte("b\n"), Ours: []byte("b\n## 2\no\n"), Theirs: []byte("b\n## 3\nt\n")})
	if r4.Conflict || string(r4.Data) != "b\n## 2\no\n## 3\nt\n" {
		t.Errorf("prompts.md: %+v", r4)
	}
}

// FuzzMergeSession checks that a merge of any session files never panics
// and, when it succeeds, writes a file that reads back.
func FuzzMergeSession(f *testing.F) {
	f.Add("schema: 1\nid: s\nprompts: 1\n", "schema: 1\nid: s\nprompts: 2\nvariables: {a: b}\n", "schema: 1\nid: s\nturns: 3\nhooks: [x]\n")
	f.Add("", "id: s\n", "id: s\nsources: [{name: a, offset: 3}]\n")
	f.Fuzz(func(t *testing.T, base, ours, theirs string) {
		got, err := mergeSession("s", []byte(base), []byte(ours), []byte(theirs))
		if err != nil {
			return
		}
		if _, err := model.ParseSession("merged", got); err != nil {
			t.Fatalf("merged session does not read back: %v\n%s", err, got)
		}
	})
}

func TestAutoSync(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	var a AutoSync
	if due, _ := a.Due(t0); !due {
		t.Error("first sync not due at start")
	}
	a.Done(t0, nil)
	if due, next := a.Due(t0.Add(time.Minute)); due || !next.Equal(t0.Add(5*time.Minute)) {
		t.Errorf("after a sync: due %v, next %v", due, next)
	}
	a.Checkpointed(t0.Add(time.Minute))
	if due, next := a.Due(t0.Add(time.Minute + 10*time.Second)); !due || !next.Equal(t0.Add(time.Minute+10*time.Second)) {
		t.Errorf("after a checkpoint: due %v, next %v", due, next)
	}
	// Failures back off: 10 s, 20 s, 40 s, ... up to 30 min; checkpoints do not shorten it.
	now := t0.Add(time.Hour)
	var waits []time.Duration
	for i := 0; i < 10; i++ {
		a.Done(now, errors.New("offline"))
		a.Checkpointed(now)
		_, next := a.Due(now)
		waits = append(waits, next.Sub(now))
	}
	if waits[0] != 10*time.Second || waits[1] != 20*time.Second || waits[2] != 40*time.Second || waits[9] != 30*time.Minute {
		t.Errorf("backoff = %v", waits)
	}
	a.Done(now, nil)
	if _, next := a.Due(now); next.Sub(now) != 5*time.Minute {
		t.Errorf("after recovering: %v", next.Sub(now))
	}
}

// TestMergeConfig: a remote's cairn.yaml is taken only when it is valid
// as a whole and sets no guarded key otherwise than ours; else ours stays,
// theirs becomes a conflict copy, and one warning says why: the keys that
// differ, or what is invalid (never a list of keys for a file that did
// not read).
func TestMergeConfig(t *testing.T) {
	base := "schema: 1\nlock_timeout: 10s\n"
	bomb := "a: &a [x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]\nc: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]\n" +
		"d: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c]\ne: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d]\n"
	for _, tc := range []struct {
		name, ours, theirs string
		warn               string // in the warning; empty: theirs taken
		notWarn            string // never in the warning
	}{
		{"other keys", base, base + "search:\n  context_budget: 900\n", "", ""},
		{"unknown keys", base, base + "newer_feature: {x: 1}\n", "", ""},
		{"claude path", base, base + "summarize:\n  claude_path: /tmp/x\n", "sets summarize.claude_path;", ""},
		{"key to a host", base, base + "search:\n  embedder:\n    base_url: https://evil.example\n    api_key_env: OPENAI_API_KEY\n",
			"sets search.embedder.base_url, search.embedder.api_key_env;", ""},
		{"summarizer to another host", base + "summarize:\n  provider: openai\n  model: m\n  base_url: http://127.0.0.1:11434\n",
			base + "summarize:\n  provider: openai\n  model: m\n  base_url: https://collect.evil.example/v1\n", "sets summarize.base_url;", ""},
		{"transcripts", base, base + "capture:\n  transcripts: [/home]\n", "sets capture.transcripts;", ""},
		{"redaction off", base, base + "capture:\n  redact:\n    allow: ['.*']\n", "sets capture.redact.allow;", ""},
		{"no spending cap", base, base + "summarize:\n  daily_tokens: -1\n", "sets summarize.daily_tokens;", "summarize.provider"},
		{"model changed", base + "summarize:\n  provider: anthropic\n  model: claude-haiku-4-5\n", base + "summarize:\n  provider: anthropic\n  model: claude-opus-4-1\n",
			"sets summarize.model;", "summarize.provider"},
		{"max tokens", base, base + "summarize:\n  max_tokens: 64000\n  attempts: 10\n", "sets summarize.max_tokens, summarize.attempts;", ""},
		{"embedder model", base, base + "search:\n  embedder:\n    model: big\n", "sets search.embedder.model;", ""},
		{"prompt hook", base, base + "hooks:\n  prompt_context: true\n", "sets hooks.prompt_context;", ""},
		{"commits off", base, base + "checkpoint:\n  auto: false\n", "sets checkpoint.auto;", ""},
		{"retention", base, base + "capture:\n  transcripts_keep: 1d\n  keep_summaries_only: true\n  archive_after: 1s\n", "sets capture.transcripts_keep, capture.keep_summaries_only;", "archive_after"},
		{"sync schedule", base + "sync:\n  auto: false\n", base + "sync:\n  auto: true\n  interval: 1s\n", "sets sync.auto, sync.interval;", ""},
		{"bad regex", base, base + "capture:\n  redact:\n    rules: [{kind: tok, pattern: 'TKT-[0-9'}]\n",
			"is not valid (line 5: capture.redact.rules[1]: rule (tok): error parsing regexp", "sets"},
		{"daily tokens below -1", base, base + "summarize:\n  daily_tokens: -2\n", "is not valid (line 4: summarize.daily_tokens: -2", "sets"},
		{"base URL not http", base, base + "summarize:\n  base_url: file:///etc/passwd\n", "is not valid (line 4: summarize.base_url", "sets"},
		{"unparseable", base, "summarize: [\n", "is not valid (not YAML", "summarize.provider"},
		{"alias", base, base + "summarize: &s {provider: extractive}\nsearch: *s\n", "is not valid (line 4: YAML aliases", "sets"},
		{"bomb", base, bomb, "is not valid (line 2: YAML aliases", "sets"},
		{"huge", base, base + strings.Repeat("# "+strings.Repeat("x", 100)+"\n", 1<<14), "is not valid (", "sets"},
		{"valid over invalid ours", "summarize: [\n", base + "search:\n  context_budget: 900\n", "", ""},
		{"same values", base + "summarize:\n  claude_path: /usr/bin/claude\n", base + "summarize:\n  claude_path: /usr/bin/claude\nsearch:\n  context_budget: 900\n", "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			mg := &merger{host: "h", now: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC), remote: "origin", taken: map[string]bool{}}
			r, err := mg.merge(memory.MergeFile{Path: "cairn.yaml", Base: []byte(tc.ours), Ours: []byte(tc.ours), Theirs: []byte(tc.theirs),
				InBase: true, InOurs: true, InTheirs: true})
			if err != nil {
				t.Fatal(err)
			}
			if tc.warn == "" {
				if string(r.Data) != tc.theirs || len(r.Extra) != 0 || len(mg.warnings) != 0 {
					t.Errorf("got %q, extra %v, warnings %q; want theirs", r.Data, r.Extra, mg.warnings)
				}
				return
			}
			if string(r.Data) != tc.ours || !r.Conflict || len(r.Extra) != 1 || r.Extra[0].Path != "cairn.conflict-h-20260102-030405.yaml" || string(r.Extra[0].Data) != tc.theirs {
				t.Errorf("kept %q, extra %d files", r.Data, len(r.Extra))
			}
			if len(mg.warnings) != 1 || !strings.Contains(mg.warnings[0], tc.warn) || !strings.Contains(mg.warnings[0], "kept ours, theirs is in cairn.conflict-h-20260102-030405.yaml") {
				t.Errorf("warnings %q, want one with %q", mg.warnings, tc.warn)
			}
			if len(mg.warnings) == 1 && (strings.Contains(mg.warnings[0], "\n") || tc.notWarn != "" && strings.Contains(mg.warnings[0], tc.notWarn)) {
				t.Errorf("warning %q (must not say %q, nor span lines)", mg.warnings[0], tc.notWarn)
			}
			if !IsConflictCopy(r.Extra[0].Path) || ConflictOriginal(r.Extra[0].Path) != "cairn.yaml" {
				t.Errorf("%s is not listed as a conflict copy of cairn.yaml", r.Extra[0].Path)
			}
		})
	}
	// A remote's invalid file where we have none (an unrelated history):
	// nothing is written in its place, theirs is the conflict copy.
	mg := &merger{host: "h", now: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC), remote: "origin", taken: map[string]bool{}}
	if r, _ := mg.merge(memory.MergeFile{Path: "cairn.yaml", Theirs: []byte("summarize:\n  daily_tokens: -9\n"), InTheirs: true}); !r.Delete || len(r.Extra) != 1 || len(mg.warnings) != 1 {
		t.Errorf("theirs only: %+v, warnings %q", r, mg.warnings)
	}
	mg = &merger{host: "h", taken: map[string]bool{}}
	r, _ := mg.merge(memory.MergeFile{Path: "CAIRN.yaml", Theirs: []byte("x"), InTheirs: true})
	if !r.Delete || len(mg.warnings) != 1 {
		t.Errorf("CAIRN.yaml: %+v, warnings %q", r, mg.warnings)
	}
}

// TestMergerPurged: a purged path is never taken from a remote, and the
// purge list merges as the union of its lines.
func TestMergerPurged(t *testing.T) {
	p := "sessions/s1/transcript.md"
	mg := &merger{host: "laptop", now: time.Now(), remote: "origin", taken: map[string]bool{}, purged: []string{p, "core/notes/old"}}
	for _, f := range []memory.MergeFile{
		{Path: p, InTheirs: true, Theirs: []byte("re-added there")},
		{Path: p, InBase: true, InOurs: true, InTheirs: true, Base: []byte("a"), Ours: []byte("a"), Theirs: []byte("b")},
		{Path: "core/notes/old/x.md", InTheirs: true, Theirs: []byte("under a purged folder")},
	} {
		r, err := mg.merge(f)
		if err != nil || !r.Delete || r.Data != nil || len(r.Extra) != 0 {
			t.Errorf("%s: %+v, %v; want it deleted", f.Path, r, err)
		}
	}
	if len(mg.warnings) != 3 || !strings.Contains(mg.warnings[0], "purged (purged.txt)") {
		t.Errorf("warnings: %q", mg.warnings)
	}
	r, _ := mg.merge(memory.MergeFile{Path: memory.PurgedFile, InBase: true, InOurs: true, InTheirs: true,
		Base: []byte("# list\na\n"), Ours: []byte("# list\na\nb\n"), Theirs: []byte("# list\na\nc")})
	if string(r.Data) != "# list\na\nb\nc\n" {
		t.Errorf("purged list merged to %q", r.Data)
	}
}
