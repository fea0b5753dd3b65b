package open

import (
	"testing"

	"github.com/cairn-mem/cairn/internal/digest"
)

// TestOpen39Idents: the things a sentence names by a number, not a
// quantity, a time or a step.
func TestOpen39Idents(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []string
	}{
		{"I'll leave it open: slave 5 (the joint_6 drive) gets occasional WKC mismatches and we don't know why yet.", []string{"slave 5"}},
		{"The replacement needs to be ordered: same model, a Samsung PM9A3 3.84 TB (MZQL23T8HCLS), from the Dell partner.", []string{"pm9a3", "mzql23t8hcls"}},
		{"I'll check the 04-15/16 thing tomorrow.", []string{"04-15"}},
		{"osd.7 is out and stays in the CRUSH map.", []string{"osd 7"}},
		{"Separately, the T46Us are on firmware 66.85 and 66.86 is pending.", []string{"t46us", "firmware 66.85"}},
		// Quantities, times and steps name nothing.
		{"It takes 671 ms, about 40 of them every 10 minutes, under 500 on the first 3 runs.", nil},
		{"Retry 3 times at most, at 5 per second.", nil},
	} {
		got := idents(tc.in)
		if len(got) != len(tc.want) {
			t.Errorf("idents(%q) = %v, want %v", tc.in, got, tc.want)
			continue
		}
		for _, w := range tc.want {
			if !got[w] {
				t.Errorf("idents(%q) = %v, want %v", tc.in, got, tc.want)
			}
		}
	}
}

// TestOpen39IdentDone: an item that names its thing by a number (a
// device, a disk model, a pair of days) is closed by a newer session
// that names it so and says it is done, gone or explained, a cause
// found for a problem nobody could explain. Not by one that names it
// with nothing ended, puts it off, or denies it, nor by one that ends
// another thing of the same word.
func TestOpen39IdentDone(t *testing.T) {
	older := summary(map[int][]string{digest.Outcome: {"The arm runs the mock hardware in CI."}})
	for _, tc := range []struct {
		todo, later string
		want        bool
	}{
		{"I'll leave it open: slave 5 (the joint_6 drive) gets occasional WKC mismatches and we don't know why yet.",
			"So the frame loss on slave 5 came from the unshielded cable between slaves 4 and 5 running along the joint 6 motor leads; with the shielded one it's gone.", true},
		{"I'll check the 04-15/16 thing tomorrow.",
			"That's the root cause of the 04-15/04-16 pair, and anything else that uses `sold_date` on BigQuery had the same skew.", true},
		{"osd.7 is out and stays in the CRUSH map; we're blocked on the backordered PM9A3 until mid March.",
			"Ceph is happy: HEALTH_OK, 12 OSDs up and in. osd.7 is done, the new disk kept the ID because you used destroy rather than purge.", true},
		// Named, nothing ended; put off; denied; another slave.
		{"I'll leave it open: slave 5 (the joint_6 drive) gets occasional WKC mismatches and we don't know why yet.",
			"Slave 5 sits behind the new switch now, on port 3.", false},
		{"I'll leave it open: slave 5 (the joint_6 drive) gets occasional WKC mismatches and we don't know why yet.",
			"Once slave 5 is replaced, we rerun the overnight test.", false},
		{"I'll leave it open: slave 5 (the joint_6 drive) gets occasional WKC mismatches and we don't know why yet.",
			"It's not fixed on slave 5, the new cable changed nothing.", false},
		{"I'll leave it open: slave 5 (the joint_6 drive) gets occasional WKC mismatches and we don't know why yet.",
			"The homing timeout on slave 7 is fixed by firmware 2.4.1.", false},
		{"I'll check the 04-15/16 thing tomorrow.",
			"04-15 is the day the export job moved to 02:00.", false},
	} {
		newer := summary(map[int][]string{digest.Outcome: {tc.later}})
		sums := []*digest.Summary{newer, older}
		v := NewVocab(sums)
		if got := v.ClosedLater(tc.todo, v.Distinct(tc.todo), sums, 1); got != tc.want {
			t.Errorf("%q after %q: closed = %v, want %v", tc.todo, tc.later, got, tc.want)
		}
	}
}

// TestOpen39Sibling: two open items of one session about one thing
// named by a number go together: the newer session that dealt with the
// thing names it by what one of them said. An item about another thing
// stays.
func TestOpen39Sibling(t *testing.T) {
	older := summary(map[int][]string{digest.Outcome: {"Ceph has been warning about slow ops on osd.7 since Monday."}},
		"osd.7 is out and stays in the CRUSH map; we're blocked on the backordered PM9A3 until mid March, and once it's there you've OK'd the destroy.",
		"The replacement needs to be ordered: same model, a Samsung PM9A3 3.84 TB (MZQL23T8HCLS), from the Dell partner.",
		"The tunnel to the offsite box still needs a WireGuard key from Hofer.")
	newer := summary(map[int][]string{digest.Outcome: {"Ceph is happy: HEALTH_OK, 12 OSDs up and in. osd.7 is done, the new disk kept the ID because you used destroy rather than purge."}})
	sums := []*digest.Summary{newer, older}
	v := NewVocab(sums)
	for i, want := range []bool{true, true, false} {
		o := older.Open[i]
		if got := v.ClosedLater(o, v.Distinct(o), sums, 1); got != want {
			t.Errorf("%q: closed = %v, want %v", o, got, want)
		}
	}
	// A newer session that only shares words with the first item by
	// chance closes it (a mention), not the second with it.
	chance := summary(map[int][]string{digest.Outcome: {"We're blocked on the WireGuard tunnel.", "The crush rules stay as they are and I would destroy no pool in March."}})
	sums = []*digest.Summary{chance, older}
	v = NewVocab(sums)
	o := older.Open[1]
	if v.ClosedLater(older.Open[0], v.Distinct(older.Open[0]), sums, 1) && v.ClosedLater(o, v.Distinct(o), sums, 1) {
		t.Errorf("%q: closed by a mention of its sibling", o)
	}
}

// TestOpen39BareNeed: "we need an off-node copy" names its thing by
// too few words to be known alone; the clauses before it say what it
// is for, and a newer session that did the work names those. Then the
// lack they tell goes with it. A short to-do that is not a thing asked
// for ("tomorrow: auth") takes nothing from the clauses before it.
func TestOpen39BareNeed(t *testing.T) {
	older := summary(map[int][]string{digest.Outcome: {"cp1's cron runs the script at 02:30."}})
	newer := summary(map[int][]string{
		digest.Request: {"Two small things while I have you: bump snapshot retention to a month, and get the snapshots off cp1 — there's a MinIO at minio.backup.lab.internal, bucket etcd-snapshots."},
		digest.Outcome: {"The script keeps 30 days locally now and, after each snapshot, copies it with `mc cp` to the etcd-snapshots bucket, so a dead cp1 no longer takes the snapshots with it."},
	})
	sums := []*digest.Summary{newer, older}
	v := NewVocab(sums)
	done := v.DoneLater(sums, 1)
	for _, tc := range []struct{ in, want string }{
		{"The weak spot: they sit only on cp1's local disk, so losing cp1 loses the snapshots too — we need an off-node copy.", ""},
		// Not asked for: the to-do alone decides, and it is not done.
		{"The snapshots sit on cp1's local disk — tomorrow: the auth proxy.", "The snapshots sit on cp1's local disk — tomorrow: the auth proxy."},
		// Asked for, but a thing the newer session did not touch.
		{"The ingress answers on 443 — we need a rate limit.", "The ingress answers on 443 — we need a rate limit."},
	} {
		if got := NewVocab(nil).DropDone(tc.in, done); got != tc.want {
			t.Errorf("DropDone(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// TestOpen39NothingDoes: a gap told as what nothing in the code does
// is a problem a newer session's work on it fixes; "nothing changes"
// or "nothing else uses it" is none.
func TestOpen39NothingDoes(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want bool
	}{
		{"The queue breaks ties between orders on the same bar with Python's `random` and nothing seeds it.", true},
		{"What it doesn't do: nothing records who changed whose role or when, so after the fact nobody can tell.", true},
		{"Nothing changes for the mobile clients.", false},
		{"Nothing else uses the legacy table, so it can go.", false},
	} {
		if got := problemMark.MatchString(tc.in); got != tc.want {
			t.Errorf("problem(%q) = %v, want %v", tc.in, got, tc.want)
		}
	}
	older := summary(map[int][]string{digest.Outcome: {"The queue breaks ties between orders on the same bar with Python's `random` and nothing seeds it."}})
	newer := summary(map[int][]string{
		digest.Outcome: {"The tie-break seed is a config field that feeds the run_id; repeated runs give identical fills."},
		digest.Root:    {"The simulator's ADV included the trading day itself."},
		digest.Files:   {"backtest/queue.py (edited)"},
	})
	other := summary(map[int][]string{
		digest.Outcome: {"The commission table now starts on 1 March."},
		digest.Root:    {"The simulator's ADV included the trading day itself."},
		digest.Files:   {"backtest/costs.py (edited)"},
	})
	for _, tc := range []struct {
		later *digest.Summary
		want  string
	}{
		{newer, ""},
		{other, older.Parts[digest.Outcome][0]},
	} {
		sums := []*digest.Summary{tc.later, older}
		v := NewVocab(sums)
		if got := DropFixed(older.Parts[digest.Outcome][0], v.DealtLater(sums, 1)); got != tc.want {
			t.Errorf("DropFixed after %q = %q, want %q", tc.later.Parts[digest.Outcome][0], got, tc.want)
		}
	}
}
