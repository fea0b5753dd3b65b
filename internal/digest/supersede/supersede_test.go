package supersede

import (
	"testing"

	"github.com/cairn-mem/cairn/internal/digest"
)

func outcome(b string) *digest.Summary {
	d := &digest.Summary{}
	d.Parts[digest.Outcome] = []string{b}
	return d
}

func TestDrop(t *testing.T) {
	newer := []*digest.Summary{outcome("The worker pool now has 16 threads instead of 4, since the box has 16 cores.")}
	rs := By(newer)
	for _, tc := range []struct{ in, want string }{
		{"The worker pool has 4 threads. Jobs are claimed in batches.", "Jobs are claimed in batches."},
		{"The HTTP client retries 4 times.", "The HTTP client retries 4 times."},             // another subject
		{"The worker pool was 4 threads, now 16.", "The worker pool was 4 threads, now 16."}, // says so itself
	} {
		if got := Drop(tc.in, rs); got != tc.want {
			t.Errorf("Drop(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// TestDropClauses: of a sentence of several facts only the clause that
// holds the replaced value goes (the hB trial: the dev port moved, and
// the pack lost the production unit with it); what points back at it
// goes too, and a sentence no one clause of which holds it goes whole.
func TestDropClauses(t *testing.T) {
	rs := By([]*digest.Summary{outcome("The dev server now listens on port 8181 instead of 8085, since the node exporter has 8085.")})
	for _, tc := range []struct{ in, want string }{
		{"For reference, the dev server listens on port 8085 (PORT in app.py), and production runs as the linkshort-api systemd unit.",
			"For reference, production runs as the linkshort-api systemd unit."},
		{"The dev server listens on port 8085; the tests run with make test.", "The tests run with make test."},
		{"The dev server listens on port 8085, and the frontend proxies to it.", ""},
		{"The dev server listens on port 8085.", ""},
		{"The dev server runs as the dev-api unit with its port at 8085.", "The dev server runs as the dev-api unit."},
		{"Locally, the dev server runs as the dev-api unit with its port at 8085.", "Locally, the dev server runs as the dev-api unit."},
		{"The dev server listens on port 8085, and the admin server listens on port 8085 too.", ""},
		{"Dev server ports — my suggestion: the dev server on 8085, the admin server on 9090.", ""},
		{"The dev server listens on port 8085, the part of the setup where the admin tools are read.", ""},
	} {
		if got := Drop(tc.in, rs); got != tc.want {
			t.Errorf("Drop(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
