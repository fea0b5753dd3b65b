package retire

import "testing"

// Review 36: misreadings the round's new readings (dfadc578..4b11bcc4)
// introduce or leave. Each case says the rule concerned; want is what a
// reader of the two sentences would answer.

// TestReview36NowSentFrom: route rewrites "pull from" to "pull out of",
// so "now pull from nas02" no longer gives nas02 as the new value (the
// "now … value" reading allows two words between) and the change is lost.
func TestReview36NowSentFrom(t *testing.T) {
	for _, tc := range []struct{ older, newer string }{
		{"The nightly backups pull from nas01 over NFS.", "Since Tuesday the nightly backups now pull from nas02."},
		{"Logs ship from each node to Loki.", "Logs now ship from each node to OpenSearch."},
		{"Mail for the domain is relayed from mx1.", "The mail relay now forwards from mx2."},
	} {
		if !retiredBy(tc.older, tc.newer) {
			t.Errorf("%q does not retire %q (route)", tc.newer, tc.older)
		}
	}
}

// TestReview36FellBackByChoice: fallBack drops every "fell back to", also
// the one that tells what we went back to: a real change, no more read.
func TestReview36FellBackByChoice(t *testing.T) {
	older := "Local dev runs against the Postgres container from docker-compose."
	newer := "We fell back to SQLite for local dev since the Postgres container kept crashing."
	if !retiredBy(older, newer) {
		t.Errorf("%q does not retire %q (fallBack)", newer, older)
	}
}

// TestReview36ChangedAsOf: habitual reads "is changed as" as "is
// swapped like a 2xx"; "as of v3" is a date, and the change is lost.
func TestReview36ChangedAsOf(t *testing.T) {
	older := "The default timeout is 30 s."
	newer := "The default timeout is changed as of v3: 60 s now."
	if !retiredBy(older, newer) {
		t.Errorf("%q does not retire %q (habitual)", newer, older)
	}
}

// TestReview36WeighedThenChanged: weighedInstead is lazy only up to the
// first "instead"; after "considered X, but moved it to Y instead, but"
// it removes the change made, not just the alternative turned down.
func TestReview36WeighedThenChanged(t *testing.T) {
	older := "The job queue is Redis lists (BRPOPLPUSH)."
	newer := "We considered keeping Redis for the queue, but moved it to NATS instead, but the session cache stays on Redis."
	if !retiredBy(older, newer) {
		t.Errorf("%q does not retire %q (weighedInstead)", newer, older)
	}
}

// TestReview36NotOnly: Only reads "not only the catalog moved" as the
// catalog alone, and the parquet files that moved too are kept.
func TestReview36NotOnly(t *testing.T) {
	older := "The parquet files live under /mnt/research/results."
	newer := "Not only the catalog moved, the parquet files did too."
	if !retiredBy(older, newer) {
		t.Errorf("%q does not retire %q (Only)", newer, older)
	}
}

// TestReview36VersionWithoutName: otherThingsVersion keeps an older
// statement that gives a bare version and names the carrier, not the
// language: "pins 3.11" is Python's version.
func TestReview36VersionWithoutName(t *testing.T) {
	older := "The API image pins 3.11 in its Dockerfile."
	newer := "The API image is on Python 3.12 now."
	if !retiredBy(older, newer) {
		t.Errorf("%q does not retire %q (otherThingsVersion)", newer, older)
	}
}

// TestReview36PeriodAfterChange: announcing keeps only sentences that
// announce a change or say "now"; the period said in the sentence after
// "I changed the update check." is dropped, and the change with it.
func TestReview36PeriodAfterChange(t *testing.T) {
	older := "The packaged app checks once at startup and then every 4 hours."
	newer := "I changed the update check. It runs once an hour."
	if !retiredBy(older, newer) {
		t.Errorf("%q does not retire %q (announcing)", newer, older)
	}
}

// TestReview36SoStill: stillPurpose takes any "so … still" for a
// purpose, also "So far … still" and a sentence opening with "So": the
// state said to hold for now is no more moved by its change.
func TestReview36SoStill(t *testing.T) {
	newer := "The weekend crew put Rocky 9 on db03."
	for _, older := range []string{
		"So far db03 is still on CentOS 7.",
		"So db03 is still on CentOS 7 until the vendor certifies Rocky.",
	} {
		if !retiredBy(older, newer) {
			t.Errorf("%q does not retire %q (stillPurpose)", newer, older)
		}
	}
}

// TestReview36CompoundWithModifier: a word between a compound count and
// its noun ("the 400-symbol liquid universe") leaves the noun the same.
func TestReview36CompoundWithModifier(t *testing.T) {
	for _, tc := range []struct{ older, newer string }{
		{"The backtest runs over the 400-symbol liquid universe.", "We now run the backtest over a 500-symbol universe."},
		{"Ceph runs as a 3-node cluster on pve1 to pve3.", "We added pve4, so Ceph is a 4-node ceph cluster now."},
		{"CI builds on the 8-core runner.", "CI builds on a 16-core build runner now."},
	} {
		if !retiredBy(tc.older, tc.newer) {
			t.Errorf("%q does not retire %q (otherCompounds)", tc.newer, tc.older)
		}
	}
}
