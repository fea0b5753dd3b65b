package llm

import (
	"flag"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// The statements a prompt offers are numbered; a model that names what
// a segment made untrue is asked to answer with those numbers.
func TestPromptOffersEarlier(t *testing.T) {
	req := loadRequest(t, "../testdata/segments/bugfix.json")
	p, err := buildPrompt(req, 1, bugfixHead)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(p, "<earlier>") || strings.Contains(p, "No longer true") {
		t.Errorf("a prompt with nothing earlier asks about it:\n%s", p)
	}
	req.Earlier = []string{"The queue claims jobs by copying the file.", "Workers poll every 5 s."}
	for _, first := range []bool{true, false} {
		req.First = first
		req.PreviousSummary = "## Segment 1\n\n**Request**\n- Fix the flaky test.\n"
		p, err := buildPrompt(req, 2, bugfixHead)
		if err != nil {
			t.Fatal(err)
		}
		for _, want := range []string{"<earlier>\n[1] The queue claims jobs by copying the file.\n[2] Workers poll every 5 s.\n</earlier>",
			`**No longer true** "- [n]" for each numbered statement of <earlier>`} {
			if !strings.Contains(p, want) {
				t.Errorf("prompt (first %t) lacks %q:\n%s", first, want, p)
			}
		}
		if strings.Index(p, "<earlier>") > strings.Index(p, "<transcript>") {
			t.Errorf("the earlier statements come after the transcript (first %t)", first)
		}
	}
}

func TestQuoteUntrue(t *testing.T) {
	earlier := []string{"The API listens on 8080.", "Deploys go out every Monday.", "Ask Priya about the refund SLA."}
	for _, c := range []struct {
		name, in, want string
		quoted         []string
	}{
		{"numbers become quotes",
			"## S\n\n**Decisions**\n- Port 9090.\n\n**No longer true**\n- [1]\n- [3] Priya answered: 5 days.\n\n**Files changed** (1)\n- a.go",
			"## S\n\n**Decisions**\n- Port 9090.\n\n**No longer true**\n- The API listens on 8080.\n- Ask Priya about the refund SLA.\n\n**Files changed** (1)\n- a.go",
			[]string{"The API listens on 8080.", "Ask Priya about the refund SLA."}},
		{"inline list, a number out of range, a repeat",
			"**Outcome**\n- done\n**No longer true**: [2], [9], [2]",
			"**Outcome**\n- done\n**No longer true**\n- Deploys go out every Monday.",
			[]string{"Deploys go out every Monday."}},
		{"a quote instead of a number",
			"**No longer true**\n- deploys go out every monday\n- Something it was never shown.",
			"**No longer true**\n- Deploys go out every Monday.",
			[]string{"Deploys go out every Monday."}},
		{"lists and ranges of numbers, a heading instead of a label",
			"### No longer true\n- [1, 3]\n- [2-9]\n",
			"**No longer true**\n- The API listens on 8080.\n- Ask Priya about the refund SLA.\n- Deploys go out every Monday.",
			[]string{"The API listens on 8080.", "Ask Priya about the refund SLA.", "Deploys go out every Monday."}},
		{"nothing it names: the section goes",
			"**Outcome**\n- done\n\n**No longer true**\n- none\n",
			"**Outcome**\n- done\n",
			nil},
	} {
		got, quoted := quoteUntrue(c.in, earlier)
		if got != c.want || !slices.Equal(quoted, c.quoted) {
			t.Errorf("%s:\n got %q %q\nwant %q %q", c.name, got, quoted, c.want, c.quoted)
		}
	}
	// Shown nothing, a model retires nothing.
	if got, quoted := quoteUntrue("**Outcome**\n- done\n**No longer true**\n- [1]\n- The API listens on 8080.", nil); got != "**Outcome**\n- done" || quoted != nil {
		t.Errorf("without earlier statements: %q %q", got, quoted)
	}
}

var update = flag.Bool("update", false, "rewrite testdata/prompt-*.txt")

// With nothing earlier, the prompts are what they were before the
// earlier statements existed (testdata/prompt-*.txt, rewritten by
// -update): a provider's cache and a user's cost see no change.
func TestPromptGolden(t *testing.T) {
	req := loadRequest(t, "../testdata/segments/bugfix.json")
	for _, c := range []struct {
		name string
		prev string
	}{{"init", ""}, {"continuation", "## Segment 1\n\n**Request**\n- Fix the flaky test.\n"}} {
		req.PreviousSummary, req.First = c.prev, c.prev == ""
		got, err := buildPrompt(req, 2, bugfixHead)
		if err != nil {
			t.Fatal(err)
		}
		path := filepath.Join("testdata", "prompt-"+c.name+".txt")
		if *update {
			if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(path)
		if err != nil {
			t.Fatalf("%v (go test -update writes it)", err)
		}
		if got != string(want) {
			t.Errorf("%s prompt differs from %s (go test -update rewrites it):\n%s", c.name, path, got)
		}
	}
}
