package retire

import "testing"

// TestDropSubjectlessClause: a sentence a newer statement retires whole,
// none of its clauses alone, loses the clause with no subject of its own
// that the retirement rests on ("…, and is cut after 90 s"): it says of
// the sentence's subject what changed, and the rest still holds. A
// clause with a subject of its own, or a sentence no newer statement
// retires, is left as it is.
func TestDropSubjectlessClause(t *testing.T) {
	for _, tc := range []struct {
		name, older, newer, want string
	}{
		{"how long the pump runs changed, not when it starts",
			"pump: starts below 30 % soil moisture, stops above 45 %, and is cut after 90 s regardless.",
			"The pump is now cut after 120 s at most (pump_max_ms 120000), still absolute; tests updated and green.",
			"Pump: starts below 30 % soil moisture, stops above 45 %."},
		{"how long sessions live changed, not where they are kept",
			"Sessions are stored in Redis, and are dropped after 30 minutes of inactivity.",
			"Sessions are now dropped after 2 hours of inactivity.",
			"Sessions are stored in Redis."},
		{"another thing's clause has its own subject",
			"The backend runs on Django 4.2, and the worker is cut after 90 s.",
			"The pump is now cut after 120 s.",
			"The backend runs on Django 4.2, and the worker is cut after 90 s."},
		{"a change of another kind leaves the sentence whole",
			"The nightly export writes to S3, and is retried three times on failure.",
			"The nightly import now reads from SFTP.",
			"The nightly export writes to S3, and is retried three times on failure."},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := droppedBy(tc.older, tc.newer); got != tc.want {
				t.Errorf("droppedBy(%q, %q) = %q, want %q", tc.older, tc.newer, got, tc.want)
			}
		})
	}
}
