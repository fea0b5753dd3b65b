package recall

import (
	"fmt"
	"os"
	"testing"
)

// TestSearchAssociations: a keyword or hybrid search reads the term
// associations at its first query, keeps them in .state/assoc, and reads
// a damaged file again from the index rather than fail.
func TestSearchAssociations(t *testing.T) {
	m, _ := newTestMemory(t)
	files := map[string]string{}
	for i := range 60 {
		files[fmt.Sprintf("core/facts/f%02d.md", i)] = fmt.Sprintf("# Note\n\nThe weather report number %c%c.\n", 'a'+i%26, 'a'+i/26)
	}
	for i, s := range []string{"a book, a novel", "the book was a novel", "another book, another novel", "a novel book"} {
		files[fmt.Sprintf("core/facts/b%d.md", i)] = "# Reading\n\n" + s + "\n"
	}
	writeFiles(t, m, files)
	name := m.StatePath("assoc")

	x := mustOpenIndex(t, m)
	if got := paths(t, x, "vector weather", SearchOptions{Mode: "vector"}); len(got) == 0 {
		t.Fatal("vector search found nothing")
	}
	if _, err := os.Stat(name); err == nil {
		t.Fatal("a vector search read the associations")
	}
	if got := paths(t, x, "which book", SearchOptions{Mode: "keyword"}); len(got) != 4 {
		t.Fatalf("keyword search: %v", got)
	}
	if _, err := os.Stat(name); err != nil {
		t.Fatalf("associations not kept: %v", err)
	}
	x.Close()

	if err := os.WriteFile(name, []byte("cairn-assoc 1\ngarbage"), 0o600); err != nil {
		t.Fatal(err)
	}
	m2, w := reopen(t, m)
	x2 := mustOpenIndex(t, m2)
	if got := paths(t, x2, "which book", SearchOptions{}); len(got) != 4 {
		t.Fatalf("search with a damaged file: %v", got)
	}
	if l := w.take(); len(l) > 0 {
		t.Errorf("warnings: %q", l)
	}
	if data, _ := os.ReadFile(name); string(data) == "cairn-assoc 1\ngarbage" {
		t.Error("damaged file not written again")
	}
}
