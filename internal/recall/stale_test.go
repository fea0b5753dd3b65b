package recall

import (
	"strings"
	"testing"
)

// sess is a session of the given summary parts, for the rules below.
func sess(id string, parts map[int][]string, open ...string) *sessionInfo {
	d := &digest{open: open}
	for p, b := range parts {
		d.parts[p] = b
	}
	return &sessionInfo{id: id, dir: "sessions/" + id, title: "", digest: d}
}

func TestChitChat(t *testing.T) {
	for _, tc := range []struct {
		s    string
		want bool
	}{
		{"great, thanks! anything else I should know before I go?", true},
		{"cool, looks good. what's left on the list?", true},
		{"thanks. now make the invoice export stream its rows", false},
		{"morning. rate limiter today?", false},
	} {
		if got := isChitChat(tc.s); got != tc.want {
			t.Errorf("isChitChat(%q) = %v, want %v", tc.s, got, tc.want)
		}
	}
	if !noResponse("No response requested.") || noResponse("No response from the upstream.") {
		t.Error("noResponse")
	}
}

// TestOpenItemsLater checks that an open item goes once a later session
// names it by a few of its rare words, and that when a later session
// says it again, its own statement is the one shown.
func TestOpenItemsLater(t *testing.T) {
	older := sess("a1", map[int][]string{partRequest: {"Add a gateway for the billing service."}},
		"Tomorrow I'll wire the token-bucket rate limiter into the gateway middleware.",
		"Still to do: rotate the webhook signing secret.")
	mid := sess("b2", map[int][]string{partRequest: {"The invoice PDF renders blank pages; fix it."},
		partOutcome: {"The PDF renderer now embeds its fonts."}},
		"Still open: rotating the webhook signing secret, which the vault migration blocks.")
	newest := sess("c3", map[int][]string{partRequest: {"let's do the rate limiter now"},
		partOutcome: {"Requests over 50 per second get a 429 from the gateway."}})
	sessions := []*sessionInfo{newest, mid, older}
	g := openGroup(sessions, newVocab(sessions))
	var got []string
	for _, u := range g.units {
		got = append(got, u.text)
	}
	text := strings.Join(got, "")
	if strings.Contains(text, "rate limiter") {
		t.Errorf("a to-do the newest session did is listed:\n%s", text)
	}
	if !strings.Contains(text, "vault migration blocks") || strings.Contains(text, "session a1") {
		t.Errorf("the newest statement of a to-do should be the one listed:\n%s", text)
	}
}

func TestDropDone(t *testing.T) {
	done := func(string) bool { return true }
	for _, tc := range []struct{ in, want string }{
		{"Never bring lodash back in — we still need a test for the leap day though.", "Never bring lodash back in."},
		{"Still open: the retry jitter — it hammers the broker at startup. The queue drains in 2 s.", "The queue drains in 2 s."},
		{"The cache holds 10k entries.", "The cache holds 10k entries."},
	} {
		if got := dropDone(tc.in, done); got != tc.want {
			t.Errorf("dropDone(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestDropReplaced(t *testing.T) {
	newer := []*sessionInfo{sess("n1", map[int][]string{partOutcome: {"The worker pool now has 16 threads instead of 4, since the box has 16 cores."}})}
	rs := replacedBy(newer)
	for _, tc := range []struct{ in, want string }{
		{"The worker pool has 4 threads. Jobs are claimed in batches.", "Jobs are claimed in batches."},
		{"The HTTP client retries 4 times.", "The HTTP client retries 4 times."},             // another subject
		{"The worker pool was 4 threads, now 16.", "The worker pool was 4 threads, now 16."}, // says so itself
	} {
		if got := dropReplaced(tc.in, rs); got != tc.want {
			t.Errorf("dropReplaced(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestHeading(t *testing.T) {
	for _, tc := range []struct {
		title, req   string
		head, bullet string
	}{
		{"Checkout is slow since the upgrade. Can you…", "Checkout is slow since the upgrade. Can you profile the cart service?", "Checkout is slow since the upgrade", "Can you profile the cart service?"},
		{"Rotate the keys", "Rotate the keys", "Rotate the keys", ""},
		{"Billing cleanup", "Drop the legacy invoices table.", "Billing cleanup", "Drop the legacy invoices table."},
	} {
		s := sess("h", map[int][]string{partRequest: {tc.req}})
		s.title = tc.title
		head, reqs := s.heading()
		if head != tc.head || strings.Join(reqs, "|") != tc.bullet {
			t.Errorf("heading(%q, %q) = %q, %q; want %q, %q", tc.title, tc.req, head, reqs, tc.head, tc.bullet)
		}
	}
}

func TestIsTodo(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want bool
	}{
		{"All done here apart from one thing: nothing else pending but the retry budget.", true},
		{"Parked for later: rate limiting, the endpoint takes any number of calls.", true},
		{"Picking a log format is the next step, per the README.", true},
		{"Still pending: the CSV export.", true},
		// A state, not work left: a queue's jobs may be pending.
		{"The worker skipped rows whose status was pending.", false},
		{"The next release ships the new parser.", false},
		{"Later the cron job runs the export.", false},
	} {
		if got := isTodo(tc.in); got != tc.want {
			t.Errorf("isTodo(%q) = %v, want %v", tc.in, got, tc.want)
		}
	}
}
