package pick

import (
	"testing"
)

func TestPicked(t *testing.T) {
	const listed = `Stripe only promises at-least-once delivery, so we have to be idempotent on the event id. What I'd do:

1. A ` + "`stripe_events`" + ` table with a unique index on the Stripe event id. The controller
   inserts the row and returns 200 at once.
2. A job on the critical queue that does the invoice update and the email.

An alternative would be a Redis SETNX key per event id, which is less code. Which do you prefer?`
	const prose = `The fix is to let the watermark wait for the batches: two minutes of out-of-orderness covers the 105 s tail. The quick alternative would be processing-time windows.`
	for _, tc := range []struct{ s, offer, want string }{
		{"Go with the table.", listed, "A `stripe_events` table with a unique index on the Stripe event id"},
		{"ok, do the 2 minutes.", prose, "The fix is to let the watermark wait for the batches: two minutes of out-of-orderness covers the 105 s tail"},
		{"yes, go with the second one", listed, "A job on the critical queue that does the invoice update and the email"},
		{"Makes sense, do both.", listed, "A `stripe_events` table with a unique index on the Stripe event id; A job on the critical queue that does the invoice update and the email"},
		{"Let's go with the Redis key though", listed, "An alternative would be a Redis SETNX key per event id, which is less code"},
		{"Go with go-git plus our own merge.", listed, ""}, // names its choice
		{"Go with the cursor.", listed, ""},                // the offer has none
		{"Go with the table.", "", ""},                     // nothing offered
		{"Use the idea from before.", listed, ""},          // says nothing of which
		{"We keep the table as it is.", listed, ""},        // not a pick
	} {
		if got := Of(tc.s, tc.offer); got != tc.want {
			t.Errorf("Of(%q) = %q, want %q", tc.s, got, tc.want)
		}
	}
}
