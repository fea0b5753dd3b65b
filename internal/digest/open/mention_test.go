package open

import (
	"testing"

	"github.com/cairn-mem/cairn/internal/digest"
)

// TestChanceOverlap: an open item stays open when a later session about
// something else shares a few of its words by chance, spread over its
// sentences or generic words apart in one; it goes when a sentence of
// the later session names it, by a word of its own, by a term it shares
// ("error messages") or by its thing and version, or when the session
// was asked for its thing and changed a file named after it. In a
// memory of two sessions every word is rare, so the overlaps below are
// all ones Refers takes for a mention.
//
// Two words of the item's own (not ones any project uses), or one the
// later session was asked about, spread over it still close the item:
// requiring them in one sentence kept
// open, over the 170 opened projects of testdata/recall, fifteen items
// a later session had dealt with in two sentences ("Sessions and CSRF
// today." then "CSRF: http.CrossOriginProtection wraps the whole mux"),
// for stale shows 452 → 466. So some overlaps by chance close an item
// again (a Grafana session after an item on Proxmox backups, a date
// after an item on an Ubuntu point release; cases this test had): left
// for a reading of what a sentence is about.
func TestChanceOverlap(t *testing.T) {
	for _, tc := range []struct {
		name  string
		older *digest.Summary
		item  string
		later *digest.Summary
		want  bool
	}{
		{
			// The trial with the Claude Code CLI (linkshort): the
			// session on rate limiting says "rate limiting", "counters"
			// and "handler", each in a sentence of its own.
			name: "linkshort views, then rate limiting",
			older: digest.Parse("**Request**\n- GET /stats/<slug> blows up with a 500 for links nobody has clicked yet. Can you figure out what's going on and fix it?\n\n" +
				"**Outcome**\n- I made click_rate return 0.0 when a link has no views yet, and both tests pass now.\n\n" +
				"**Root causes**\n- The root cause is in linkshort/stats.py: click_rate divides clicks by views, and a link that was just created has views = 0, so summary() raised ZeroDivisionError and the handler answered 500.\n"),
			item: "One thing is still open: nothing ever increments views, so every link will show a 0% rate until the redirect handler starts counting them.",
			later: summary(map[int][]string{
				digest.Request:   {"Next up: people are hammering /shorten, so it needs rate limiting. Would you keep the counters in Redis or in a table in SQLite?", "Agreed, SQLite it is. And from now on run make test before you tell me something is done."},
				digest.Outcome:   {"Done: linkshort/ratelimit.py keeps one row per client IP and minute in a ratelimit table, and a client over 30 requests a minute is refused. make test passes, and no new dependency was needed."},
				digest.Decisions: {"I'd go with a SQLite table keyed by client IP and minute, a fixed one-minute window: the database is already there and the counters survive restarts."},
				digest.Files:     {"linkshort/ratelimit.py (written): a fixed one-minute window per client IP"},
			}, "Nothing calls allow() yet, because there is no POST /shorten handler; wiring the limiter into it is the next step."),
			want: false,
		},
		{
			// "tests pass" and "test passes" stand together in both: a
			// clause of routine work, no term of the item's.
			name:  "linkshort guard, then rate limiting",
			older: digest.Parse("**Outcome**\n- The root cause is in linkshort/stats.py: click_rate divides clicks by views.\n"),
			item:  "I made click_rate return 0.0 when a link has no views yet, and both tests pass now.",
			later: summary(map[int][]string{
				digest.Request: {"Next up: people are hammering /shorten, so it needs rate limiting."},
				digest.Outcome: {"Done: linkshort/ratelimit.py keeps one row per client IP and minute in a ratelimit table. make test passes, and no new dependency was needed."},
			}),
			want: false,
		},
		{
			name:  "linkshort views, then the redirect handler counts them",
			older: digest.Parse("**Outcome**\n- I made click_rate return 0.0 when a link has no views yet, and both tests pass now.\n"),
			item:  "One thing is still open: nothing ever increments views, so every link will show a 0% rate until the redirect handler starts counting them.",
			later: summary(map[int][]string{
				digest.Request: {"Let's move the rate limiter to Redis after all. While you're at it, make the redirect handler count views."},
				digest.Outcome: {"The rate limiter now uses Redis; 30 requests a minute."},
			}),
			want: true,
		},
		{
			name:  "Proxmox backups to the NAS, then done",
			older: digest.Parse("**Outcome**\n- vzdump runs nightly at 02:00 for every VM on pve1.\n"),
			item:  "The Proxmox backup job still writes to the local disk of pve1; it has to go to the NAS before the disk fills up.",
			later: summary(map[int][]string{
				digest.Request: {"The NAS share is mounted on pve1 now."},
				digest.Outcome: {"The backup job writes to the NAS share; the local disk is free again."},
			}),
			want: true,
		},
		{
			// A web app: "field" and "row", generic words, apart in one
			// sentence about the signup form.
			name:  "CSV export, then the signup form",
			older: digest.Parse("**Outcome**\n- The CSV export writes one line per contact.\n"),
			item:  "The CSV export still fails when a row has an empty note field; next session.",
			later: summary(map[int][]string{
				digest.Request: {"Signups with a blank email get through."},
				digest.Outcome: {"The signup form now checks each field before it saves the row."},
			}),
			want: false,
		},
		{
			name:  "CSV export, then fixed",
			older: digest.Parse("**Outcome**\n- The CSV export writes one line per contact.\n"),
			item:  "The CSV export still fails when a row has an empty note field; next session.",
			later: summary(map[int][]string{
				digest.Outcome: {"The CSV export skips empty notes now."},
			}),
			want: true,
		},
		{
			// Generic words that stand together in both are a term.
			name:  "error messages, then translated",
			older: digest.Parse("**Outcome**\n- The login form posts to /session.\n"),
			item:  "The error messages of the login form are still in English only.",
			later: summary(map[int][]string{
				digest.Outcome: {"The error messages are translated now, German and French."},
			}),
			want: true,
		},
		{
			// Asked for the item's thing, and a file named after it
			// changed: the work names the item's other words apart.
			name:  "loudness, then the audio session",
			older: digest.Parse("**Outcome**\n- The ladder is four H.264 renditions.\n"),
			item:  "The volume complaints are next on the list: loudness normalisation in the audio path, which we don't have yet.",
			later: summary(map[int][]string{
				digest.Request: {"Now the audio. I'd go with EBU R128, -23 LUFS, that's the standard, right?"},
				digest.Outcome: {"Normalisation is two-pass loudnorm to -23 LUFS integrated, true peak -1.5 dB.", "The chain downmixes to mono first."},
				digest.Files:   {"worker/audio.py (written): the mono downmix and the two loudnorm passes"},
			}),
			want: true,
		},
		{
			// A thing and the version the item gives it, at a newer
			// patch level.
			name:  "Ubuntu point release, then upgraded",
			older: digest.Parse("**Outcome**\n- Postfix relays for the three app servers.\n"),
			item:  "The mail relay is still on Ubuntu 22.04.3 from the hoster's image; the other VMs are the same.",
			later: summary(map[int][]string{
				digest.Outcome: {"Ubuntu is at 22.04.5 on every box since the maintenance window.", "The VMs came back one by one."},
			}),
			want: true,
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.older.Open = append(tc.older.Open, tc.item)
			sums := []*digest.Summary{tc.later, tc.older}
			v := NewVocab(sums)
			d := v.Distinct(tc.item)
			if !v.Refers(d, v.mentions(tc.later)) {
				t.Fatalf("the later session shares too few of %v to be a case", d)
			}
			if got := v.ClosedLater(tc.item, d, sums, 1); got != tc.want {
				t.Errorf("closed = %v, want %v", got, tc.want)
			}
		})
	}
}
