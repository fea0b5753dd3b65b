package retire

import (
	"testing"

	"github.com/cairn-mem/cairn/internal/digest"
)

// TestDropKeepsSentence: what DropRetired keeps of a sentence one of
// whose facts changed reads as a sentence: its lead-in stays with the
// first clause left (the hB trial showed "For reference; production runs
// as …"), no conjunction opens it, and a one-clause sentence whose "with
// …" tail changed keeps its head.
func TestDropKeepsSentence(t *testing.T) {
	for _, tc := range []struct{ newer, x, want string }{
		{"The dev server now listens on port 8181 instead of 8085 — since the node exporter on the new box already has 8085.",
			"For reference, the dev server listens on port 8085 (PORT in linkshort/app.py), and production runs as the linkshort-api systemd unit with its database at /var/lib/linkshort/links.db.",
			"For reference, production runs as the linkshort-api systemd unit with its database at /var/lib/linkshort/links.db."},
		{"Postgres on db-1 was upgraded to 16.2 (previously 14.9) last night.",
			"In production, Postgres runs version 14.9 on the db-1 host, and the read replica on db-2 serves the reporting queries.",
			"In production, the read replica on db-2 serves the reporting queries."},
		{"The production database moved to /srv/linkshort/links.db, it is no longer at /var/lib/linkshort/links.db.",
			"Production runs as the linkshort-api systemd unit with its database at /var/lib/linkshort/links.db.",
			"Production runs as the linkshort-api systemd unit."},
		{"The production database moved to /srv/linkshort/links.db, it is no longer at /var/lib/linkshort/links.db.",
			"For reference, production runs as the linkshort-api systemd unit with its database at /var/lib/linkshort/links.db.",
			"For reference, production runs as the linkshort-api systemd unit."},
		{"The dev server now listens on port 8181 instead of 8085.",
			"For reference, the dev server listens on port 8085.",
			""}, // the lead-in alone says nothing
	} {
		n, o := &digest.Summary{}, &digest.Summary{}
		n.Parts[digest.Decisions] = []string{tc.newer}
		o.Parts[digest.Environment] = []string{tc.x}
		r := New(nil, []*digest.Summary{n, o})
		if got := r.DropRetired(tc.x, 1); got != tc.want {
			t.Errorf("DropRetired(%q) after %q = %q, want %q", tc.x, tc.newer, got, tc.want)
		}
	}
}

// TestDropKeepsSubject: the clause left of a sentence whose subject
// stood in a clause that went gets that subject back (second trial:
// "For the record, reads its routes from … there.").
func TestDropKeepsSubject(t *testing.T) {
	n, o := &digest.Summary{}, &digest.Summary{}
	n.Parts[digest.Outcome] = []string{"The relay's default port is 7443 now (RELAY_PORT still overrides it), and .nvmrc and the engines field in package.json both say Node 20.11.", "The box came back as relay-prod-1.internal; the name hooks-01 is gone."}
	x := "For the record, from the README: the relay listens on port 7070 (RELAY_PORT overrides it), runs in production as relaybox.service on hooks-01.internal with Node 18.19, and reads its routes from /etc/relaybox/routes.json there."
	o.Parts[digest.Environment] = []string{x}
	r := New(nil, []*digest.Summary{n, o})
	if got, want := r.DropRetired(x, 1), "For the record, the relay reads its routes from /etc/relaybox/routes.json there."; got != want {
		t.Errorf("DropRetired = %q, want %q", got, want)
	}
}

// TestDropLeavesSentence (the round of 13 January): a phrase the clause
// split cut off is no clause of its own once the clause beside it goes
// ("With the arrival-rate executor k6; the cart calls stay around 310
// ms."), and a rule asked for with "please" and taken back goes with its
// reason and with the words that go on from it, not "I never read
// success mails. To it@hofer-partner.at.".
func TestDropLeavesSentence(t *testing.T) {
	for _, tc := range []struct {
		newer   map[int]string // part: statement
		part    int            // x's
		x, want string
	}{
		{map[int]string{digest.Outcome: "The rerun with two payment-worker replicas: 300 checkouts per second held for the whole run, POST /api/checkout p95 470 ms, so we're under the 500 ms budget, 0.01 % failures, event lag p99 810 ms."},
			digest.Outcome,
			"With the arrival-rate executor k6 and the APM agree: POST /api/checkout has a p95 of 2.4 s at 150 per second, three times the 800 ms budget, while the cart calls stay around 310 ms.",
			"The cart calls stay around 310 ms."},
		{map[int]string{
			digest.Request: "So take back what I said about mails only on failure: send them for every run, I'll filter them into a folder.",
			digest.Outcome: "Backup mails now go out for every run (`mailnotification always`) to it@hofer-partner.at.",
		}, digest.Request, "Mails only when a backup fails please, I never read success mails. To it@hofer-partner.at.", ""},
	} {
		n, o := &digest.Summary{}, &digest.Summary{}
		for p, st := range tc.newer {
			n.Parts[p] = []string{st}
		}
		o.Parts[tc.part] = []string{tc.x}
		r := New(nil, []*digest.Summary{n, o})
		got := r.DropRetired(tc.x, 1)
		if tc.part == digest.Request {
			got = r.DropRetiredAsked(tc.x, 1)
		}
		if got != tc.want {
			t.Errorf("DropRetired(%q) = %q, want %q", tc.x, got, tc.want)
		}
	}
}
