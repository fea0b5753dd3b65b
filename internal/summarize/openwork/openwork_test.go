package openwork

import (
	"slices"
	"testing"

	"github.com/cairn-mem/cairn/internal/lazyre"
)

func TestPatternsCompile(t *testing.T) {
	if err := lazyre.Check(); err != nil {
		t.Fatal(err)
	}
}

func TestList(t *testing.T) {
	for s, want := range map[string][]string{
		"Still open, as far as I know: an index for the worker's query; billing-svc still has to drop repeats; and the TLS certificate expires March 14.": {
			"An index for the worker's query.", "Billing-svc still has to drop repeats.", "The TLS certificate expires March 14."},
		"Still open: the limiter has no POST /shorten handler; wiring it into that is the next step.": nil, // points back
		"The relay listens on 7070; routes come from /etc/relaybox.":                                  nil, // no label
	} {
		if got := List(s); !slices.Equal(got, want) {
			t.Errorf("List(%q) = %q, want %q", s, got, want)
		}
	}
	if got := Text("Still needed: an alert on the dead-letter queue."); got != "An alert on the dead-letter queue." {
		t.Errorf("Text = %q", got)
	}
	if !PointsBack("That's fine at today's volume, but it will read the whole table.") || PointsBack("The relay listens on 7070.") {
		t.Error("PointsBack")
	}
}
