package retire

import "testing"

// TestReview36Retires: review 36's cases, real changes the round's new
// readings (dfadc578..4b11bcc4) had stopped retiring, each named by the
// rule that missed it.
func TestReview36Retires(t *testing.T) {
	for _, tc := range []struct{ rule, older, newer string }{
		// "pull from" read as a route, so "now pull from nas02" lost its new value.
		{"route", "The nightly backups pull from nas01 over NFS.", "Since Tuesday the nightly backups now pull from nas02."},
		{"route", "Logs ship from each node to Loki.", "Logs now ship from each node to OpenSearch."},
		{"route", "Mail for the domain is relayed from mx1.", "The mail relay now forwards from mx2."},
		// "fell back to" by choice is a change made.
		{"fallBack", "Local dev runs against the Postgres container from docker-compose.", "We fell back to SQLite for local dev since the Postgres container kept crashing."},
		// "as of v3" is a date, not "is swapped like a 2xx".
		{"habitual", "The default timeout is 30 s.", "The default timeout is changed as of v3: 60 s now."},
		// the alternative weighed ends at the first "but": the change after it was made.
		{"weighedInstead", "The job queue is Redis lists (BRPOPLPUSH).", "We considered keeping Redis for the queue, but moved it to NATS instead, but the session cache stays on Redis."},
		{"Only", "The parquet files live under /mnt/research/results.", "Not only the catalog moved, the parquet files did too."},
		// "pins 3.11" is Python's version.
		{"otherThingsVersion", "The API image pins 3.11 in its Dockerfile.", "The API image is on Python 3.12 now."},
		// the period in the sentence after the announcing one.
		{"announcing", "The packaged app checks once at startup and then every 4 hours.", "I changed the update check. It runs once an hour."},
		// "So far … still" and "So … still" are states said to hold for now, no purpose.
		{"stillPurpose", "So far db03 is still on CentOS 7.", "The weekend crew put Rocky 9 on db03."},
		{"stillPurpose", "So db03 is still on CentOS 7 until the vendor certifies Rocky.", "The weekend crew put Rocky 9 on db03."},
		// a word between a compound count and its noun leaves the noun the same.
		{"otherCompounds", "The backtest runs over the 400-symbol liquid universe.", "We now run the backtest over a 500-symbol universe."},
		{"otherCompounds", "Ceph runs as a 3-node cluster on pve1 to pve3.", "We added pve4, so Ceph is a 4-node ceph cluster now."},
		{"otherCompounds", "CI builds on the 8-core runner.", "CI builds on a 16-core build runner now."},
	} {
		if !retiredBy(tc.older, tc.newer) {
			t.Errorf("%q does not retire %q (%s)", tc.newer, tc.older, tc.rule)
		}
	}
}
