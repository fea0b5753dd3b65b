package digest

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

// TestReviewDealtLaterOnlyDefects: a fact that only reads like a defect
// ("never expires", "has no passphrase", "is missing … on purpose") is
// not dealt with because a newer session used the thing it names and
// changed files.
func TestDealtLaterOnlyDefects(t *testing.T) {
	later := Parse("**Request**\n- Add a release workflow that pushes tags with the deploy key.\n\n**Outcome**\n- The release workflow pushes tags with the deploy key.\n\n**Files changed** (1)\n- .github/workflows/release.yml (created)\n")
	sums := []*Summary{later, Parse("**Outcome**\n- The cart page loads.\n"), Parse("**Outcome**\n- Images are webp.\n")}
	v := NewVocab(sums)
	for _, s := range []string{
		"The deploy key never expires, so rotating it is manual.",
		"The `deploy` key has no passphrase, so CI can use it unattended.",
		"The deploy key is missing from the staging repo on purpose.",
	} {
		if got := DropFixed(s, v.DealtLater(sums, 1)); got != s {
			t.Errorf("DropFixed(%q) = %q: a fact that still holds was dropped", s, got)
		}
	}
}

// TestReviewHypotheticalStillFixed: a problem told with "if" or "unless"
// that a newer session reports fixed goes, as it did before, and as the
// same problem told without them does.
func TestHypotheticalStillFixed(t *testing.T) {
	later := Parse("**Request**\n- The upload bug.\n\n**Outcome**\n- Fixed: uploads over 10 MB no longer fail.\n")
	sums := []*Summary{later, Parse("**Outcome**\n- The cart page loads.\n"), Parse("**Outcome**\n- Images are webp.\n")}
	v := NewVocab(sums)
	for _, s := range []string{
		"An upload over 10 MB fails with a 413.", // goes today
		"If the upload is over 10 MB, it fails with a 413.",
		"An upload over 10 MB fails with a 413 unless it is chunked.",
	} {
		if got := DropFixed(s, v.FixedLater(sums, 1)); got != "" {
			t.Errorf("DropFixed(%q) = %q: a problem reported fixed stays", s, got)
		}
	}
}
