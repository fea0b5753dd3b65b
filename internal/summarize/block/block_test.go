package block

import (
	"slices"
	"testing"
)

func TestItemsAndSame(t *testing.T) {
	text := "Done on all three:\n- CSS: fixed.\n- CLI: `--json` added.\n\n```\nnot prose\n```\n\nMy take: Postgres. The platform runs RDS.\n\nSeparately, the tests pass."
	got, listed := Items(text)
	want := []string{"Done on all three:", "CSS: fixed.", "CLI: `--json` added.", "My take: Postgres. The platform runs RDS.", "Separately, the tests pass."}
	if !listed || !slices.Equal(got, want) {
		t.Errorf("Items = %q, %v; want %q, true", got, listed, want)
	}
	if got := Same(text, "My take: Postgres.", "The platform runs RDS."); got != "The platform runs RDS." {
		t.Errorf("Same in one paragraph = %q", got)
	}
	if got := Same(text, "My take: Postgres.", "Separately, the tests pass."); got != "" {
		t.Errorf("Same across paragraphs = %q, want none", got)
	}
}
