package retire

import "testing"

// TestOnlyThatChanged: a change said of one thing alone ("only the
// catalog moved") retires what names that thing, not what shares the
// rest of its sentence, which says what stayed (quant-backtesting-engine,
// found by the pack probe with the filter off).
func TestOnlyThatChanged(t *testing.T) {
	const moved = "The results catalog now lives in Postgres, schema `bt` on research-db.internal port 5433, tables `bt.runs` and `bt.folds`; all 312 earlier runs were copied across. The parquet files under /mnt/research/results stay where they are, only the catalog moved."
	for _, tc := range []struct {
		older, newer string
		want         bool
	}{
		{"The bars live under /mnt/research/bars/minute, one parquet file per symbol per year, zstd.", moved, false},
		{"Vendor gives us a corporate actions file at /mnt/research/refdata/corp_actions.parquet (splits and cash dividends).", moved, false},
		{"I've set the impact coefficient to k = 0.15, which puts simulated slippage at 6.6 bps against 6.8 live across all buckets.", moved, false},
		{"Stay away from k-fold cross-validation, purged or not — Shuffling time blocks means training on 2023 to predict 2021, and for strategies whose parameters react to regime that flatters them in ways walk-forward doesn't.", moved, false},
		// What did move is retired as before.
		{"The results catalog is a SQLite file, catalog.db, under /mnt/research/results.", moved, true},
	} {
		if got := retiredBy(tc.older, tc.newer); got != tc.want {
			t.Errorf("%q retires %q: %v, want %v", tc.newer, tc.older, got, tc.want)
		}
	}
}

// TestCompoundCountsOfTwoThings: a count said as a compound describes
// its noun; "the 400-symbol universe" and "a 20-symbol sample" count two
// things, though both sentences name the strategy run over them.
func TestCompoundCountsOfTwoThings(t *testing.T) {
	for _, tc := range []struct {
		older, newer string
		want         bool
	}{
		{"The legacy loop took 3h40m for one 2019–2024 run of meanrev_hourly over the 400-symbol universe, and about 56% of the wall time is iterrows, `__getitem__` and the per-bar strategy call, i.e. Python dispatch rather than arithmetic.",
			"The CI job is `backtest-smoke` (`.github/workflows/backtest-smoke.yml`) and runs on every pull request: the unit tests, then meanrev_hourly on a 20-symbol sample of Q1 2023 committed under `tests/data/sample_2023q1` (13 MiB, two delisted names included on purpose so the point-in-time path is exercised), compared against `tests/golden/smoke_metrics.json` with zero tolerance", false},
		// The same noun counted otherwise is the same thing.
		{"meanrev_hourly runs over the 400-symbol universe.", "meanrev_hourly runs over a 500-symbol universe now.", true},
	} {
		if got := retiredBy(tc.older, tc.newer); got != tc.want {
			t.Errorf("%q retires %q: %v, want %v", tc.newer, tc.older, got, tc.want)
		}
	}
}

// retiredAmong is retiredBy in a memory where the statements common
// also are: their words are not rare, as the pool's name is not in a
// NAS's memory.
func retiredAmong(older, newer string, common []string) bool {
	stmts := []Statement{{Text: newer, Rank: 0}, {Text: older, Rank: 1}}
	for _, f := range append(append([]string{}, filler...), common...) {
		stmts = append(stmts, Statement{Text: f, Rank: 2})
	}
	return New(stmts, nil).Retired(older, 1)
}

// nasFiller are statements of a NAS's memory: its pool and ZFS are in
// most of them.
var nasFiller = []string{
	"The pool tank is a raidz2 of four 8 TB disks.",
	"tank/enc is encrypted with a passphrase kept in the vault.",
	"ZFS sends the snapshots of tank to the backup box weekly.",
	"The ZFS ARC is capped at 16 GB on tank's host.",
	"sanoid keeps 30 dailies of tank/enc/home.",
	"ZED mails when a vdev of tank faults.",
}

// TestPeriodOfWhatWas: a period a newer statement tells of what was,
// in a sentence that announces no change, is no period anything has now.
func TestPeriodOfWhatWas(t *testing.T) {
	for _, tc := range []struct {
		older, newer string
		want         bool
	}{
		{"Restic backs up tank/enc/home nightly at 02:00 to the B2 repository configured in /etc/restic/b2.env, and it reads from the newest sanoid daily snapshot under `.zfs/snapshot/`, never the live files, so every backup is a consistent point in time.",
			"Scrubs: the zfsutils cron scrubs once a month on the second Sunday. I disabled that line and added `zfs-scrub@tank.timer` and `zfs-scrub@fast.timer` on the 1st and 15th at 03:00, so a silent error has at most two weeks to find a friend.", false},
		// A period said in the sentence of the change still retires.
		{"The packaged app checks once at startup and then every 4 hours.", "The app checks for updates once at startup. It now checks once an hour.", true},
	} {
		if got := retiredAmong(tc.older, tc.newer, nasFiller); got != tc.want {
			t.Errorf("%q retires %q: %v, want %v", tc.newer, tc.older, got, tc.want)
		}
	}
}

// TestBackOnLine: "coming back on line" is power restored, no value
// gone back to: it read "back on" as a change to "line cancels" and
// retired the scrub timers, which share "timer" and "line".
func TestBackOnLine(t *testing.T) {
	older := "I disabled that line and added `zfs-scrub@tank.timer` and `zfs-scrub@fast.timer` on the 1st and 15th at 03:00, so a silent error has at most two weeks to find a friend."
	newer := "With your rule, upssched starts a timer on ONBATT, and after 5 minutes on battery both machines shut down; coming back on line cancels it."
	if retiredAmong(older, newer, nasFiller) {
		t.Errorf("%q retires %q", newer, older)
	}
}

// TestRouteRetiresNothing: "pulls from pbs01 to the second PBS" is where
// a sync job takes data, not pbs01 replaced (proxmox-ceph-cluster).
func TestRouteRetiresNothing(t *testing.T) {
	older := "A verify job on pbs01 re-reads every chunk each Sunday at 06:00, so bit rot on the backup disks shows up before the day we need a restore."
	newer := "The plan was a sync job that pulls from pbs01 to the second PBS at Herr Hofer's house, pbs-home, over WireGuard (10.99.0.2)."
	if retiredBy(older, newer) {
		t.Errorf("%q retires %q", newer, older)
	}
}

// TestNoLongerShowsAny: "The screen no longer shows any amount" retires
// what shows an amount, not whatever shows something (sip2-selfcheck-kiosk).
func TestNoLongerShowsAny(t *testing.T) {
	const newer = "The screen no longer shows any amount: when the 64 patron information response has a BV fee amount above zero, the patron sees \"Please see staff\" and nothing else (Screen.ShowFines is false in appsettings.json)."
	for _, tc := range []struct {
		older string
		want  bool
	}{
		{"And the kiosk gives up after 3 resends and shows \"Please see a member of staff\" instead of looping.", false},
		{"The patron screen shows the fee amount in red before checkout.", true},
	} {
		if got := retiredBy(tc.older, newer); got != tc.want {
			t.Errorf("%q retires %q: %v, want %v", newer, tc.older, got, tc.want)
		}
	}
}
