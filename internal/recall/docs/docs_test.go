package docs

import (
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cairn-mem/cairn/indexer"
)

// What a session's files become: a transcript in turns, headed by its
// session, day and speakers; its prompts not at all; a summary without
// the lines that quote the transcript; observations only when there are
// some.
func TestSessionDocuments(t *testing.T) {
	root := t.TempDir()
	dir := "sessions/maya-tom-s07"
	files := map[string]string{
		"session.yaml":    "id: maya-tom-s07\nstatus: active\nstarted: 2024-11-28T21:10:00Z\n",
		"transcript.md":   "# Transcript of session maya-tom-s07\n\n## Session 7 · 2024-11-28 21:10:00 UTC\n\n**Maya:** I found a flat in Delfshaven, third floor.\n\n**Tom:** Delfshaven, with the old boats?\n",
		"prompts.md":      "# Prompts of session maya-tom-s07\n\n## 1\n\nMaya: I found a flat in Delfshaven, third floor.\n",
		"summary.md":      "# Summary of session maya-tom-s07\n\n## Segment 1\n\n**Request**\n- Maya: I found a flat in Delfshaven, third floor.\n\n**Outcome**\n- Maya is moving to Delfshaven on the 7th.\n",
		"observations.md": "# Observations of session maya-tom-s07\n\nFiles read and changed, commands run.\n",
	}
	if err := os.MkdirAll(filepath.Join(root, dir), 0o755); err != nil {
		t.Fatal(err)
	}
	for name, data := range files {
		if err := os.WriteFile(filepath.Join(root, dir, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	s := NewSessions(root)
	doc := func(name string) (indexer.Document, bool) {
		return Document(dir+"/"+name, []byte(files[name]), s)
	}
	tr, ok := doc("transcript.md")
	if !ok || tr.Cut != indexer.ByTurns || tr.Header != "Session 7 · 2024-11-28 · Maya, Tom" || tr.Created.IsZero() {
		t.Errorf("transcript: ok %v cut %v header %q created %v", ok, tr.Cut, tr.Header, tr.Created)
	}
	if _, ok := doc("prompts.md"); ok {
		t.Error("prompts.md indexed beside its transcript")
	}
	if _, ok := doc("observations.md"); ok {
		t.Error("observations.md without observations indexed")
	}
	sum, ok := doc("summary.md")
	if !ok || sum.Cut != indexer.BySection || strings.Contains(sum.Body, "I found a flat") || !strings.Contains(sum.Body, "moving to Delfshaven") || sum.Header != "Session 7 · 2024-11-28" {
		t.Errorf("summary: ok %v cut %v header %q body:\n%s", ok, sum.Cut, sum.Header, sum.Body)
	}
	if got, want := strings.Count(sum.Body, "\n"), strings.Count(files["summary.md"], "\n"); got != want {
		t.Errorf("summary has %d lines, the file %d", got, want)
	}
	// Without a transcript, the prompts are indexed.
	os.Remove(filepath.Join(root, dir, "transcript.md"))
	if _, ok := Document(dir+"/prompts.md", []byte(files["prompts.md"]), NewSessions(root)); !ok {
		t.Error("prompts.md of a session without a transcript not indexed")
	}
}

// normal is the same in one pass over ASCII as in four.
func TestNormal(t *testing.T) {
	slow := func(s string) string {
		return strings.Join(strings.Fields(strings.ToLower(strings.ReplaceAll(s, "*", ""))), " ")
	}
	r := rand.New(rand.NewSource(1))
	pieces := []string{"a", "Z", "word", "**Maya:**", "*", " ", "  ", "\t", "\n", "\r\n", "\v", "\f", "x*y", "É", "\u00a0", "\u0085", "1.5", "-"}
	for range 20000 {
		var b strings.Builder
		for range r.Intn(12) {
			b.WriteString(pieces[r.Intn(len(pieces))])
		}
		if s := b.String(); normal(s) != slow(s) {
			t.Fatalf("normal(%q) = %q, want %q", s, normal(s), slow(s))
		}
	}
}
