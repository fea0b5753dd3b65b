package recent

import (
	"fmt"
	"reflect"
	"testing"

	"github.com/cairn-mem/cairn/internal/digest"
	"github.com/cairn-mem/cairn/internal/digest/supersede"
)

// ReplacedBy, each session's summary read once, is supersede.By of the
// sessions' summaries, for every run of newer sessions a pack asks.
func TestReplacedByIsBy(t *testing.T) {
	var sessions []*Session
	for i, b := range [][]string{
		{"The API now listens on 4100 instead of 3001.", "No change here."},
		{},
		{"We moved from 1.7.5 to 1.8.0 of the driver.", "The pool was 128Mi and is 256Mi now."},
		{"Nothing replaced."},
		{"The worker no longer uses 8080; it is on 9090. It used to be v2.3."},
	} {
		d := &digest.Summary{}
		d.Parts[digest.Outcome], d.Parts[digest.Decisions], d.Parts[digest.Commands] = b, b, b
		sessions = append(sessions, &Session{ID: fmt.Sprintf("s%d", i), Digest: d})
	}
	for k := range len(sessions) + 1 {
		got, want := ReplacedBy(sessions[:k]), supersede.By(Digests(sessions[:k]))
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("sessions[:%d]: %v, want %v", k, got, want)
		}
		if k == len(sessions) && len(got) < 5 {
			t.Fatalf("only %d values: the test says little", len(got))
		}
	}
}
