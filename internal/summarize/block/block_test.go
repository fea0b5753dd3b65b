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

func TestListAfter(t *testing.T) {
	text := "Nothing we do inside that loop will help.\n\nMy recommendation is a hybrid, weighted heavily to one side:\n\n" +
		"1. Signals and targets become vectorised polars pipelines. Strategies barely change.\n" +
		"2. Fills stay event-driven, in a small per-order loop.\n   Fill logic is path-dependent.\n\nI wouldn't adopt zipline either."
	got := ListAfter(text, "My recommendation is a hybrid, weighted heavily to one side:", 2)
	want := []string{"Signals and targets become vectorised polars pipelines.", "Fills stay event-driven, in a small per-order loop."}
	if !slices.Equal(got, want) {
		t.Errorf("ListAfter = %q, want %q", got, want)
	}
	if got := ListAfter(text, "Nothing we do inside that loop will help.", 2); got != nil {
		t.Errorf("ListAfter of a sentence no list follows = %q", got)
	}
}
