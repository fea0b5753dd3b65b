package llm

import (
	"encoding/json"
	"errors"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/cairn-mem/cairn/internal/digest"
	"github.com/cairn-mem/cairn/internal/summarize"
)

func TestParseLLMOutput(t *testing.T) {
	const sum = "## Segment 2\n\n**Done**\n- Fixed it."
	for _, tc := range []struct {
		name, out string
		summary   string
		items     []summarize.Candidate
		err       string
	}{
		{
			name:    "fenced json",
			out:     sum + "\n\n```json\n{\"items\": [{\"kind\": \"fact\", \"title\": \"The API listens on port 8080\", \"body\": \"Set in cmd/api/main.go.\", \"importance\": 0.6, \"tags\": [\"API\", \"ports\"]}]}\n```\n",
			summary: sum,
			items:   []summarize.Candidate{{Kind: summarize.Fact, Title: "The API listens on port 8080", Body: "Set in cmd/api/main.go.", Importance: 0.6, Tags: []string{"api", "ports"}, Subject: "api port"}},
		},
		{
			name:    "whole answer fenced, code inside the summary, lenient fields",
			out:     "```markdown\n" + sum + "\n\n```bash\ngo test ./...\n```\n\n```json\n[{\"type\": \"Decisions\", \"content\": \"Use rename(2) for claims\", \"importance\": \"8\", \"tags\": \"queue, fs\"}]\n```\n```",
			summary: sum + "\n\n```bash\ngo test ./...\n```",
			items:   []summarize.Candidate{{Kind: summarize.Decision, Title: "Use rename(2) for claims", Body: "", Importance: 0.8, Tags: []string{"queue", "fs"}, Subject: "claims"}},
		},
		{
			name:    "bare trailing object, unknown kinds dropped, importance clamped",
			out:     sum + "\n\n{\"items\": [{\"kind\": \"todo\", \"title\": \"x\"}, {\"kind\": \"preference\", \"title\": \"Tabs, not spaces\", \"importance\": 42}, {\"kind\": \"pattern\"}]}",
			summary: sum,
			items:   []summarize.Candidate{{Kind: summarize.Preference, Title: "Tabs, not spaces", Body: "", Importance: 1, Subject: "tabs spaces"}},
		},
		{
			name: "the contract's kinds, subjects, long titles",
			out: sum + "\n```json\n" + `{"items": [
  {"kind": "root_cause", "subject": "Token Expiry", "title": "The bug was that minutes were multiplied by time.Hour", "body": "The bug was that minutes were multiplied by time.Hour. Fixed in auth/token.go.", "importance": 0.7},
  {"kind": "environment", "title": "Staging runs on https://staging.acme.dev behind the corporate VPN, reachable only from the office network or the bastion host", "importance": 0.5}
]}` + "\n```",
			summary: sum,
			items: []summarize.Candidate{
				{Kind: summarize.Fact, Title: "The bug was that minutes were multiplied by time.Hour", Body: "Fixed in auth/token.go.", Importance: 0.7, Tags: []string{"root-cause"}, Subject: "token expiry"},
				{Kind: summarize.Fact, Title: "Staging runs on https://staging.acme.dev behind the corporate VPN", Body: "", Importance: 0.5, Tags: []string{"environment"}, Subject: "staging url"},
			},
		},
		{
			name:    "no items",
			out:     sum + "\n```json\n{\"items\": []}\n```",
			summary: sum,
			items:   []summarize.Candidate{},
		},
		{name: "no block", out: sum, err: "no JSON block"},
		{name: "no summary", out: "```json\n{\"items\": []}\n```", err: "no summary"},
		{name: "broken json", out: sum + "\n```json\n{\"items\": [{\"kind\": \"fact\",\n```", err: "items block"},
		{name: "cut answer", out: sum + "\n```json\n{\"items\": [{\"kind\": \"fa", err: "items block"},
		{name: "object without items", out: sum + "\n```json\n{\"decisions\": []}\n```", err: `no "items" list`},
		{name: "empty", out: "  ", err: "no JSON block"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			summary, items, err := ParseLLMOutput(tc.out)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) || !errors.Is(err, summarize.ErrInvalidOutput) {
					t.Fatalf("error %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if summary != tc.summary {
				t.Errorf("summary %q, want %q", summary, tc.summary)
			}
			if len(items) != len(tc.items) {
				t.Fatalf("items %+v, want %+v", items, tc.items)
			}
			for i := range items {
				g, w := items[i], tc.items[i]
				if g.Kind != w.Kind || g.Title != w.Title || g.Body != w.Body || g.Importance != w.Importance || strings.Join(g.Tags, ",") != strings.Join(w.Tags, ",") || g.Subject != w.Subject {
					t.Errorf("item %d: %+v, want %+v", i, g, w)
				}
			}
		})
	}
}

func FuzzParseLLMOutput(f *testing.F) {
	f.Add(answer(bugfixHead))
	f.Add("## S\n```json\n[{\"kind\":\"fact\",\"title\":\"t\",\"importance\":\"NaN\",\"tags\":\"a,b\"}]\n```")
	f.Add("```markdown\nx\n```json\n{\"items\":[]}\n```\n```")
	f.Add("x\n{\"items\": [{\"kind\": \"decisions\", \"body\": \"b\", \"importance\": -3}]}")
	f.Add("```\n```json\n```")
	f.Add("## S\n**No longer true**: [2]\n- [1] and [7]\n- the api listens on 8080\n**No Longer True (2).** [1]\n- Ports moved.\n**Outcome**\n- x\n```json\n{\"items\": []}\n```")
	f.Fuzz(func(t *testing.T, out string) {
		summary, items, err := ParseLLMOutput(out)
		if err != nil {
			if !errors.Is(err, summarize.ErrInvalidOutput) {
				t.Fatalf("error %v does not wrap ErrInvalidOutput", err)
			}
			return
		}
		if strings.TrimSpace(summary) == "" {
			t.Fatal("empty summary accepted")
		}
		for _, it := range items {
			switch it.Kind {
			case summarize.Decision, summarize.Fact, summarize.Pattern, summarize.Preference:
			default:
				t.Fatalf("kind %q", it.Kind)
			}
			if it.Importance < 0 || it.Importance > 1 || it.Title == "" || len(it.Title) > summarize.MaxTitle || strings.Contains(it.Title, "\n") || strings.Contains(it.Title, "…") {
				t.Fatalf("item %+v", it)
			}
		}
		// What it quotes as no longer true is what it was shown, and so
		// is what the pack reads of it.
		earlier := []string{"The API listens on 8080.", "Deploys go out every Monday."}
		summary, quoted := quoteUntrue(summary, earlier)
		for _, q := range append(quoted, digest.Parse(summary).Untrue...) {
			if !slices.Contains(earlier, q) {
				t.Fatalf("quotes %q, which it was not shown:\n%s", q, summary)
			}
		}
		// What a provider stores always starts with the expected heading
		// and holds no other section heading.
		norm := normalizeSummary(summary, "## Segment 7")
		if !strings.HasPrefix(norm, "## Segment 7\n") || strings.Count("\n"+norm, "\n## ") != 1 {
			t.Fatalf("normalized:\n%s", norm)
		}
	})
}

func TestNormalizeSummary(t *testing.T) {
	for in, want := range map[string]string{
		"## Segment 1 (wrong)\n\n**Done**\n- x": "## Segment 3\n\n**Done**\n- x\n",
		"**Done**\n- x":                         "## Segment 3\n\n**Done**\n- x\n",
		"# Summary\n## Details\n- x":            "## Segment 3\n\n### Details\n- x\n",
		"## Segment 9":                          "## Segment 3\n",
	} {
		if got := normalizeSummary(in, "## Segment 3"); got != want {
			t.Errorf("normalizeSummary(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestBuildPrompt(t *testing.T) {
	first := loadRequest(t, "../testdata/segments/bugfix.json")
	p, err := buildPrompt(first, 1, bugfixHead)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"first segment of session 7f3c2a10", bugfixHead + "\nfollowed by", "[10:12] USER: TestClaimConcurrent is flaky",
		"TOOL Bash: go test -race -count=20 -run TestClaimConcurrent ./queue/ 2>&1 | tail -20 → exit 1\n    Exit code 1\n    --- FAIL: TestClaimConcurrent",
		"TOOL Edit: queue/claim.go\n", "```json\n{\"items\": ["} {
		if !strings.Contains(p, want) {
			t.Errorf("init prompt lacks %q:\n%s", want, p)
		}
	}
	if strings.Contains(p, "<summary>") || strings.Contains(p, "package queue") {
		t.Errorf("init prompt has a summary or file contents:\n%s", p)
	}

	// A long summary so far: only its latest sections go in.
	next := loadRequest(t, "../testdata/segments/design.json")
	var b strings.Builder
	for i := 1; i <= 60; i++ {
		b.WriteString("## Segment " + strconv.Itoa(i) + "\n\n**Done**\n- " + strings.Repeat("work ", 40) + "\n\n")
	}
	next.PreviousSummary = b.String()
	next.Segment.Index = 61
	p, err = buildPrompt(next, 61, "## Segment 61")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(p, "This is segment 61 of session 2b9e61d4") || !strings.Contains(p, "(its latest part)") ||
		!strings.Contains(p, "<summary>\n## Segment ") || !strings.Contains(p, "## Segment 60\n") || strings.Contains(p, "## Segment 1\n") {
		t.Errorf("continuation prompt:\n%s", p[:min(len(p), 3000)])
	}
	if len(p) > maxPromptSummary+maxPromptTranscript+4000 {
		t.Errorf("prompt of %d bytes", len(p))
	}
}

func TestRenderTranscriptBounded(t *testing.T) {
	var turns []summarize.Turn
	for i := range 500 {
		turns = append(turns, summarize.Turn{Role: summarize.Tool, Tool: "Bash", Input: "make test", ExitCode: new(int), Text: strings.Repeat("output line "+strconv.Itoa(i)+"\n", 300)})
	}
	out := renderTranscript(turns, maxPromptTranscript)
	if len(out) > maxPromptTranscript || !strings.Contains(out, "bytes left out") {
		t.Errorf("rendered %d bytes", len(out))
	}
}

// loadRequest reads a request from summarize's test segments.
func loadRequest(t testing.TB, name string) summarize.Request {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	var req summarize.Request
	if err := json.Unmarshal(b, &req); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return req
}
