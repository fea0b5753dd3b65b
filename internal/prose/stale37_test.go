package prose

import (
	"slices"
	"strings"
	"testing"
)

// TestDurationsSubjectless: a clause with no subject of its own, a verb
// in the passive after "and" or a comma ("…, and is cut after 90 s"),
// says how long the sentence's subject lasts, as "… and expire after 10
// minutes" does; a clause that opens on a preposition ("after 30 days
// the files move"), names its own subject, or says how long the thing is
// kept somewhere ("are kept 30 days in the audit log") keeps its reading.
func TestDurationsSubjectless(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []string // subject=value per clause
	}{
		{"pump: starts below 30 % soil moisture, stops above 45 %, and is cut after 90 s regardless.", []string{"pump start duration=90s"}},
		{"Failed uploads are kept in the inbox and are deleted after 7 days.", []string{"fail upload delet duration=604800s"}},
		{"The worker drains the queue, and gets killed after 30 seconds if it hangs.", []string{"work drain kill duration=30s"}},
		{"The nightly export writes to S3, and after 30 days the files move to Glacier.", nil},
		{"Access tokens are signed with RS256 and are kept 30 days in the audit log.", nil},
		{"The pump is now cut after 120 s at most (pump_max_ms 120000), still absolute; tests updated and green.", []string{"pump duration=120s"}},
	} {
		var got []string
		for _, c := range Durations(tc.in) {
			got = append(got, c.Subject+"="+strings.Join(c.Values, ","))
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("Durations(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
