package change

import "testing"

// TestReview36Readings: what change.Of reads of sentences the round's
// new rewrites (route, described, habitual, fallBack) spoil. key is a
// key the change must hold ("": any change will do); old says whether
// it is the old value.
func TestReview36Readings(t *testing.T) {
	for _, tc := range []struct {
		s, key string
		old    bool
		rule   string
	}{
		// route turns "the mirror from pbs01 to pbs02" into "mirror out
		// of pbs01", and the old value of a change is gone.
		{"We switched the mirror from pbs01 to pbs02.", "pbs01", true, "route"},
		{"Switched routing from nginx to Traefik last week.", "nginx", true, "route"},
		{"We moved the nightly sync from cron to a systemd timer.", "cron", true, "route"},
		{"Changed the upload from S3 to R2.", "s3", true, "route"},
		// route: "now pull out of nas02" is three words after "now".
		{"Since Tuesday the nightly backups now pull from nas02.", "nas02", false, "route"},
		// fallBack: going back to SQLite on purpose is a change.
		{"We fell back to SQLite for local dev since the Postgres container kept crashing.", "sqlite", false, "fallBack"},
		// described: "A" is a rack's name here, not an article.
		{"Rack A moved to room 3.02 last week.", "3.02", false, "described"},
		// habitual: "changed as of" is a date, not "swapped like".
		{"The default port is changed as of 2.4: it listens on 9090 now.", "", false, "habitual"},
	} {
		c := Of(tc.s)
		if c == nil {
			t.Errorf("Of(%q) = nil, want a change (%s)", tc.s, tc.rule)
			continue
		}
		if tc.key == "" {
			continue // a change, whatever its values
		}
		vals := c.New
		if tc.old {
			vals = c.Old
		}
		found := false
		for _, v := range vals {
			found = found || v[tc.key]
		}
		if !found {
			t.Errorf("Of(%q) = %+v, want %s in Old=%v (%s)", tc.s, c, tc.key, tc.old, tc.rule)
		}
	}
}
