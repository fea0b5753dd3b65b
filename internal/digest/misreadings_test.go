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

// TestRound11NoFalseRetirement: the second review of 11 December. A port
// mapping, an address, a lower bound, a command run with another count, a
// URL's last part and a test passing somewhere are each tied to what
// they name, not retired by a number or a word they share.
func TestRound11NoFalseRetirement(t *testing.T) {
	for _, tc := range []struct {
		x, cmd string
		want   bool
	}{
		{"Grafana listens on port 3000 inside the container.", "`sed -i 's/\"3000:3000\"/\"3001:3000\"/' docker-compose.yaml`", false},
		{"The Next.js dev server runs on port 3000.", "`sed -i 's/\"3000:3000\"/\"3001:3000\"/' docker-compose.yaml`", false},
		{"Jenkins serves its UI on port 8080.", "`sed -i \"s#http://127.0.0.1:8080#http://127.0.0.1:8081#\" tally.conf`", false},
		{"Node 18+ is required.", "`sed -i 's/\"react\": \"^18.0.0\"/\"react\": \"^19.0.0\"/' package.json`", false},
	} {
		newer := &Summary{}
		newer.Parts[Commands] = []string{tc.cmd}
		older := &Summary{}
		older.Parts[Environment] = []string{tc.x}
		if got := NewRetirer(nil, []*Summary{newer, older}).Retired(tc.x, 1); got != tc.want {
			t.Errorf("%s retires %q: %v, want %v", tc.cmd, tc.x, got, tc.want)
		}
	}
	for _, tc := range []struct {
		older, newer string
		want         bool
	}{
		{"The API serves requests on port 8080.", "The admin UI serves requests on port 9000.", false},
		{"Traefik forwards requests to the API on port 8080.", "Caddy forwards requests to the docs site on port 4000.", false},
		{"The gateway exposes metrics on port 9100.", "The worker exposes metrics on port 9200.", false},
		{"Production runs `gunicorn app.wsgi -w 8 --timeout 60`.", "To reproduce locally, run `gunicorn app.wsgi -w 2 --timeout 60`.", false},
		{"CI uses `pytest -n 4 tests/`.", "Locally `pytest -n 1 tests/` is easier to debug.", false},
		{"The web app calls https://api.acme.io/graphql.", "The mobile app now calls https://mobile-api.acme.io/graphql.", false},
		{"The e2e suite is flaky on Firefox.", "The e2e suite passes 10 runs in a row on Chrome.", false},
		{"Set MAX_WORKERS=8 apart from CI.", "MAX_WORKERS=16 now.", true},
	} {
		if got := retiredBy(tc.older, tc.newer); got != tc.want {
			t.Errorf("%q retires %q: %v, want %v", tc.newer, tc.older, got, tc.want)
		}
	}
}
