package digest

import (
	"slices"
	"testing"
)

func TestLeadIn(t *testing.T) {
	for _, tc := range []struct{ s, want string }{
		{"For reference, the dev server listens on port 8085.", "For reference"},
		{"In production, Postgres runs version 14.9 on db-1.", "In production"},
		{"Also, the queue is named jobs-v1.", "Also"},
		{"Currently, the API listens on 3001.", "Currently"},
		{"On the new box, the exporter has 8085.", "On the new box"},
		{"On 8085, the exporter answers.", ""},           // names a value
		{"As the API moved, the proxy changed too.", ""}, // a clause of its own
		{"Alice, Bob and Carol own the deploys.", ""},    // names, no lead-in
		{"The API listens on 3001, and logs go to stdout.", ""},
		{"In the `deploy` job, the cache is off.", ""},
		{"For the nightly export of the billing data, the job runs at two.", ""}, // too long to scope
	} {
		if got := LeadIn(tc.s); got != tc.want {
			t.Errorf("LeadIn(%q) = %q, want %q", tc.s, got, tc.want)
		}
	}
}

func TestJoinClauses(t *testing.T) {
	for _, tc := range []struct {
		lead string
		kept []string
		sep  string
		want string
	}{
		{"For reference", []string{"production runs as the linkshort-api unit."}, "; ", "For reference, production runs as the linkshort-api unit."},
		{"For reference", []string{"For reference, the dev server listens on 8085 (PORT in app.py)"}, "; ", "For reference, the dev server listens on 8085 (PORT in app.py)."},
		{"", []string{"the API listens on 3001", "logs go to stdout"}, "; ", "The API listens on 3001; logs go to stdout."},
		{"", []string{"and a 12 hour limit."}, ", ", "A 12 hour limit."},
		{"Also", []string{"and the dead-letter queue keeps jobs for a week."}, "; ", "Also, the dead-letter queue keeps jobs for a week."},
		{"", []string{"is it on 3001?"}, "; ", "Is it on 3001?"},
		{"", nil, "; ", ""},
	} {
		if got := JoinClauses(tc.lead, tc.kept, tc.sep); got != tc.want {
			t.Errorf("JoinClauses(%q, %q) = %q, want %q", tc.lead, tc.kept, got, tc.want)
		}
	}
}

func TestWithoutLead(t *testing.T) {
	parts := []string{"For reference", "the dev server listens on 8085"}
	if got := WithoutLead(parts, "For reference"); !slices.Equal(got, parts[1:]) {
		t.Errorf("WithoutLead = %q", got)
	}
	if got := WithoutLead(parts, ""); !slices.Equal(got, parts) {
		t.Errorf("WithoutLead without a lead-in = %q", got)
	}
}

func TestTrailingAside(t *testing.T) {
	for _, tc := range []struct {
		s, head, aside string
		ok             bool
	}{
		{"Debezium 2.5 Postgres connector against the local compose Postgres (it's published on host port 5433).", "Debezium 2.5 Postgres connector against the local compose Postgres", "it's published on host port 5433", true},
		{"The worker runs on app-02 (port 7070)", "The worker runs on app-02", "port 7070", true},
		{"The new one is pbx01 at 10.20.0.5 — a Debian 12 NUC — and I built Asterisk 20.11.1 on it.", "The new one is pbx01 at 10.20.0.5 — a Debian 12 NUC", "and I built Asterisk 20.11.1 on it", true},
		{"The worker (on app-02) listens on 7070.", "", "", false}, // not at the end
		{"Ports (7070).", "", "", false},                           // too little before it
		{"It runs f(x) and g (see (a) below).", "", "", false},     // nested
	} {
		head, aside, ok := TrailingAside(tc.s)
		if head != tc.head || aside != tc.aside || ok != tc.ok {
			t.Errorf("TrailingAside(%q) = %q, %q, %v; want %q, %q, %v", tc.s, head, aside, ok, tc.head, tc.aside, tc.ok)
		}
	}
}

func TestWithTail(t *testing.T) {
	for _, tc := range []struct {
		s, head, tail string
		ok            bool
	}{
		{"Production runs as the linkshort-api systemd unit with its database at /var/lib/linkshort/links.db.", "Production runs as the linkshort-api systemd unit", "its database at /var/lib/linkshort/links.db", true},
		{"The nightly export runs as the export-cron job with its output in /data/exports/v1.", "The nightly export runs as the export-cron job", "its output in /data/exports/v1", true},
		{"Passwords are hashed with bcrypt.", "", "", false},                                   // nothing named without it
		{"Jobs are claimed with SELECT ... FOR UPDATE SKIP LOCKED.", "", "", false},            // how, not what it has
		{"The api-gateway talks with the billing service with a shared token.", "", "", false}, // two withs
		// The with-phrase is its verb's subject's, no tail.
		{"Last night settles the trade-off: losing the spool with the box is worse than being without the queue during db-02's maintenance.", "", "", false},
	} {
		head, tail, ok := WithTail(tc.s)
		if head != tc.head || tail != tc.tail || ok != tc.ok {
			t.Errorf("WithTail(%q) = %q, %q, %v; want %q, %q, %v", tc.s, head, tail, ok, tc.head, tc.tail, tc.ok)
		}
	}
}
