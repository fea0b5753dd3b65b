package retire

import "testing"

// TestReviewDeletedSaysWhatWent: "X.cs was deleted" takes out the type
// in X.cs, not the English word its name is; "deleted" of a cache, a
// build folder or rows takes out nothing that is rebuilt or still there.
func TestDeletedSaysWhatWent(t *testing.T) {
	for _, tc := range []struct {
		older, newer string
		want         bool
	}{
		{"The POST to `inspections` goes through `RetryHandler`.", "Retries come from AddStandardResilienceHandler now; RetryHandler.cs was deleted.", true}, // the commit's own case
		{"Startup takes about 4 seconds, most of it EF Core migrations.", "Startup.cs was deleted; its registrations moved to Program.cs.", false},
		{"The database is SQLite in dev and Postgres in prod.", "Database.java was deleted, the repositories use JPA now.", false},
		{"`node_modules` is mounted as a named volume in docker-compose.", "I deleted `node_modules` and reinstalled from the lockfile.", false},
		{"Build artifacts land in `dist/` and nginx serves them.", "The clean target deleted `dist/` and the build recreated it.", false},
		{"The Orders table is partitioned by month.", "The cleanup deleted Orders from 2019.", false},
	} {
		if got := retiredBy(tc.older, tc.newer); got != tc.want {
			t.Errorf("%q retires %q: %v, want %v", tc.newer, tc.older, got, tc.want)
		}
	}
}

// TestRuleBesideRule: a second rule on the same file of rules leaves the
// first standing; "a bumped config_version" read as a change retired it
// (proxmox-ceph-cluster, found by the pack probe at budget 8,000).
func TestRuleBesideRule(t *testing.T) {
	older := "A rule for the whole repo: please never run anything with --yes-i-really-mean-it"
	newer := "It's in runbooks/rules.md: corosync.conf only ever changes through a corosync.conf.new with a bumped config_version, never in place."
	if retiredBy(older, newer) {
		t.Errorf("%q retires %q", newer, older)
	}
}
