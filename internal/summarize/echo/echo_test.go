package echo

import (
	"os"
	"strings"
	"testing"
)

func told(t *testing.T) *Told {
	t.Helper()
	b, err := os.ReadFile("testdata/told.md")
	if err != nil {
		t.Fatal(err)
	}
	return Read(string(b))
}

// The pack in testdata is what the seventh session of a trial with the
// real claude CLI received; the sentences are what an agent says next.
func TestEchoes(t *testing.T) {
	tl := told(t)
	for _, c := range []struct {
		s    string
		echo bool
	}{
		// Recaps of the pack, in the agent's words.
		{"From memory: the service is linkshort-api, the dev server listens on 8181, rate limiting runs in Redis, and the open items are the certbot timer and reading LINKSHORT_DB in connect().", true},
		{"The dev server listens on port 8181 since the node exporter on the new box already has 8085.", true},
		{"The rate limiter uses Redis, with INCR on a key per client IP and minute and a two-minute expiry.", true},
		{"The database lives at /srv/linkshort/links.db on the new box.", true},
		{"The dev server now listens on port 8181 instead of 8085.", true},
		{"The TLS certificate for sho.rt is renewed by hand, and the database is links.db.", true},
		{"The dev server listens on port 81 on the new box.", false},
		// A recap's label, a plural and a hyphenated word the pack says
		// otherwise ("Rules:", "servers", "rate-limiting").
		{"Setup: the dev servers listen on port 8181, and rate-limiting runs in Redis.", true},
		{"Setup: the dev servers listen on port 8181, and rate-limiting runs in Memcached.", false},
		// New values, changes, denials: the session's own.
		{"The dev server listens on port 8282 since the node exporter on the new box already has 8181.", false},
		{"The database now lives at /data/linkshort/links.db on the new box.", false},
		{"The rate limiter no longer uses Redis; it keeps its counters in memory.", false},
		{"Connect() does not ignore LINKSHORT_DB anymore.", false},
		{"The certbot timer for sho.rt renews the TLS certificate every twelve hours now.", false},
		{"I added a Prometheus counter for rejected requests in linkshort/ratelimit.py.", false},
		// What is still open, said again, says it is open now.
		{"Still open from before: the TLS certificate for sho.rt should get a certbot timer, and connect() ignores LINKSHORT_DB.", false},
		// Too short to tell.
		{"Redis handles rate limiting.", false},
		{"make test passes.", false},
	} {
		if got := tl.Echoes(c.s); got != c.echo {
			t.Errorf("Echoes(%q) = %v, want %v", c.s, got, c.echo)
		}
	}
}

func TestNothingTold(t *testing.T) {
	var tl *Told = Read("  \n")
	if tl.Echoes("From memory: the service is linkshort-api, the dev server listens on 8181.") {
		t.Error("nothing told echoes")
	}
	const text = "From memory: the service is linkshort-api.\n"
	if got := tl.Strip(text); got != text {
		t.Errorf("Strip with nothing told = %q", got)
	}
}

func TestStrip(t *testing.T) {
	tl := told(t)
	for _, c := range []struct{ name, in, want string }{
		{"recap then work",
			"From memory: the service is linkshort-api, the dev server listens on 8181, rate limiting runs in Redis, and the open items are the certbot timer and reading LINKSHORT_DB in connect().\n\nI added a certbot timer unit under deploy/, renewing twice a day.",
			"\nI added a certbot timer unit under deploy/, renewing twice a day."},
		{"a recap sentence inside a paragraph",
			"Going by the project memory, the rate limiter uses Redis, with INCR on a key per client IP and minute and a two-minute expiry.\nI raised the limit to 60 requests a minute\nfor the API clients.",
			"I raised the limit to 60 requests a minute for the API clients."},
		{"a recalled list",
			"From the project memory:\n- The database lives at /srv/linkshort/links.db on the new box.\n- The limit is 60 requests a minute now.\n\nThe database lives at /srv/linkshort/links.db on the new box.",
			"- The limit is 60 requests a minute now.\n\nThe database lives at /srv/linkshort/links.db on the new box."},
		{"from what I have",
			"From what I have: the database lives at /srv/linkshort/links.db on the new box.\n\nI raised the limit to 60 requests a minute.",
			"\nI raised the limit to 60 requests a minute."},
		{"as far as I know",
			"As far as I know, the rate limiter uses Redis, with INCR on a key per client IP and minute and a two-minute expiry.",
			""},
		{"a recalled paragraph",
			"From what I have: the database lives at /srv/linkshort/links.db on the new box. The rate limiter uses Redis, with INCR on a key per client IP and minute and a two-minute expiry. I raised the limit to 60 requests a minute.",
			"I raised the limit to 60 requests a minute."},
		{"said again, not from memory",
			"Where things stand:\n- The database lives at /srv/linkshort/links.db on the new box.\n",
			"Where things stand:\n- The database lives at /srv/linkshort/links.db on the new box.\n"},
		{"from memory, with news",
			"From memory the dev server listens on 8181, but I moved it to 8282 this morning.",
			"From memory the dev server listens on 8181, but I moved it to 8282 this morning."},
		{"code stays",
			"```\nThe database lives at /srv/linkshort/links.db on the new box.\n```\n",
			"```\nThe database lives at /srv/linkshort/links.db on the new box.\n```\n"},
		{"nothing echoed",
			"I added a Prometheus counter for rejected requests.\n\n  - indented *emphasis* kept",
			"I added a Prometheus counter for rejected requests.\n\n  - indented *emphasis* kept"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := tl.Strip(c.in); got != c.want {
				t.Errorf("Strip:\n got %q\nwant %q", got, c.want)
			}
		})
	}
}

func FuzzStrip(f *testing.F) {
	b, err := os.ReadFile("testdata/told.md")
	if err != nil {
		f.Fatal(err)
	}
	tl := Read(string(b))
	f.Add("From memory: the dev server listens on 8181.\n\n- a\n```\nx\n")
	f.Fuzz(func(t *testing.T, s string) {
		out := tl.Strip(s)
		if len(strings.Fields(out)) > len(strings.Fields(s))+1 {
			t.Errorf("Strip added words: %q -> %q", s, out)
		}
	})
}

func TestRecalled(t *testing.T) {
	for _, c := range []struct {
		s    string
		want bool
	}{
		{"From memory: the service is linkshort-api.", true},
		{"Based on the project memory, the dev server listens on 8181.", true},
		{"According to my notes from the last session, the limiter uses Redis.", true},
		{"The memory says the database moved to /srv/linkshort.", true},
		{"Cairn's memory lists two open items.", true},
		{"I see from the previous sessions that the port moved.", true},
		{"In the last session we moved the database.", true},
		{"To recap: the limiter uses Redis.", true},
		{"From the logs, the limiter rejects 3% of requests.", false},
		{"Based on the stack trace, connect() fails first.", false},
		{"The memory usage is 300 MB.", false},
		{"Redis keeps the counters in memory.", false},
	} {
		if got := recalled.MatchString(c.s); got != c.want {
			t.Errorf("recalled(%q) = %v, want %v", c.s, got, c.want)
		}
	}
}
