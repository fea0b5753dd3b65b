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
