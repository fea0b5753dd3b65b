package change

import (
	"slices"
	"testing"
)

func TestSiblings(t *testing.T) {
	for _, tc := range []struct {
		x, n string
		want bool
	}{
		{"`src/storage.ts` keeps clips in `chrome.storage.sync` alongside settings.", "Clips are in `chrome.storage.local` now, settings stay in `chrome.storage.sync`.", true},
		{"Settings are kept in `chrome.storage.sync`.", "Clips are in `chrome.storage.local` now, settings stay in `chrome.storage.sync`.", false},
		{"The handler is src/bg/api.ts.", "The worker code is under src/background/ now.", false},     // another parent: src/bg vs src
		{"Config lives in config/app.yaml.", "Config lives in config/app.toml, see the docs.", false}, // no change said
		{"Config lives in config/app.yaml.", "Config is in config/app.toml now.", true},
	} {
		if got := ReadSiblings(tc.n).Of(tc.x); got != tc.want {
			t.Errorf("ReadSiblings(%q).Of(%q) = %v, want %v", tc.n, tc.x, got, tc.want)
		}
	}
}

func TestNowIs(t *testing.T) {
	for _, tc := range []struct {
		older, newer string
		want         bool
	}{
		{"Write the release workflow; the Marketplace publisher is harborlabs.", "The org transfer went through, so the publisher is quill-lang now, update package.json.", true},
		{"The publisher is quill-lang.", "The org transfer went through, so the publisher is quill-lang now.", false},
		{"The default is 100 problems per file.", "The default is 250 now.", false}, // which default is not said
		{"The region is eu-west-1.", "The bucket is now pw-raw-html.", false},
	} {
		noun, value := NowIs(tc.newer)
		if got := noun != "" && IsValue(tc.older, noun, value); got != tc.want {
			t.Errorf("NowIs(%q) = %q, %q against %q: %v, want %v", tc.newer, noun, value, tc.older, got, tc.want)
		}
	}
}

func TestOtherHome(t *testing.T) {
	newer := "The queue is on NATS JetStream now, stream JOBS, in queue.go; failed jobs retry with exponential backoff."
	for _, tc := range []struct {
		x    string
		want bool
	}{
		{"Jobs go through Postgres LISTEN/NOTIFY on the jobs channel, and the API listens on port 8080.", true},
		{"Jobs are published on NATS JetStream.", false},
		{"Deploys go through GitHub Actions.", false},
	} {
		if got := OtherHome(tc.x, newer, func(string) bool { return true }); got != tc.want {
			t.Errorf("OtherHome(%q) = %v, want %v", tc.x, got, tc.want)
		}
	}
	// "on PRs" names when, not where.
	if OtherHome("CI runs the eval with --min-hit 0.80 on PRs.", "Retrieval runs on Qdrant now; the eval reads from it.", func(string) bool { return true }) {
		t.Error("\"on PRs\" taken for where the eval runs")
	}
}

func TestTookOver(t *testing.T) {
	for _, tc := range []struct{ s, noun, now, was string }{
		{"Jonas took over the Figma library from Mariko this week, he's the one to ping for token exports now.", "library", "Jonas", "Mariko"},
		{"I'm taking over labeld, the label printing service, from Petra.", "", "", ""},
		{"I'm taking over labeld from Petra.", "labeld", "I", "Petra"},
		{"Priya took over from Dana as the owner of the billing service.", "service", "Priya", "Dana"},
		{"Priya took over from Dana.", "", "Priya", "Dana"},
		{"Dana handed the on-call rota over to Priya.", "rota", "Priya", "Dana"},
		{"The standby takes over through a Postgres advisory lock.", "", "", ""},
		{"The first search took over ten seconds.", "", "", ""},
		{"OpenSearch 2.19 takes over under the same es service name.", "", "", ""},
	} {
		noun, now, was := TookOver(tc.s)
		if noun != tc.noun || now != tc.now || was != tc.was {
			t.Errorf("TookOver(%q) = %q, %q, %q; want %q, %q, %q", tc.s, noun, now, was, tc.noun, tc.now, tc.was)
		}
	}
}

func TestOwner(t *testing.T) {
	for _, tc := range []struct{ s, noun, who string }{
		{"Priya moved to the payments team, so Tomás owns the Stripe account from now on.", "account", "Tomás"},
		{"I've noted that Priya is the person for the Stripe account and webhook secrets from now on, not Marcus.", "account", "Priya"},
		{"Priya is the contact for the Stripe account.", "account", "Priya"},
		{"The on-call rota is run by Dana.", "rota", "Dana"},
		{"The relay runs the retry loop every 30 seconds.", "", ""},
		{"It runs the tests.", "", ""},
	} {
		noun, who := Owner(tc.s)
		if noun != tc.noun || who != tc.who {
			t.Errorf("Owner(%q) = %q, %q; want %q, %q", tc.s, noun, who, tc.noun, tc.who)
		}
	}
}

func TestGone(t *testing.T) {
	for s, want := range map[string][]string{
		"The box came back as relay-prod-1.internal; the name hooks-01 is gone.":                                       {"hooks-01"},
		"The DBAs retired db-02 over the weekend; the outbox lives on pg-main.internal now.":                           {"db-02"},
		"deploy/env.example now points DATABASE_URL at pg-main.internal; nothing in the repo mentions db-02 any more.": {"db-02"},
		"About 40 queued deliveries are gone.":                                                                         nil,
		"src/spool.js and its test are gone.":                                                                          nil,
		"The old host build-mac-02 was decommissioned last week.":                                                      {"build-mac-02"},
	} {
		if got := Gone(s); !slices.Equal(got, want) {
			t.Errorf("Gone(%q) = %q, want %q", s, got, want)
		}
	}
}
