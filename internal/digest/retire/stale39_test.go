package retire

import (
	"testing"

	"github.com/cairn-mem/cairn/internal/digest"
)

// TestRetiredClausePort: a port one clause gives is one setting, however
// the rest of either sentence reads: "cluster on port 5417" at the end
// of a list of local build settings, said "from now on", retires "your
// cluster on 5416" inside a sentence about something else, which keeps
// its other clauses. Another thing's port stays.
func TestRetiredClausePort(t *testing.T) {
	for _, tc := range []struct {
		name  string
		newer string
		older string
		want  string // what DropRetired leaves of older
	}{
		{"a clause of a list said from now on",
			"Local builds from now on: `make PG_CONFIG=/usr/lib/postgresql/17/bin/pg_config installcheck`, cluster on port 5417.",
			"`installcheck` runs against an installed server, while the CI's `pg-build-test` uses a temp instance with our temp-config; locally your cluster on 5416 needs `shared_preload_libraries = 'pg_querylens'` in its postgresql.conf.",
			"`installcheck` runs against an installed server; the CI's `pg-build-test` uses a temp instance with our temp-config."},
		{"from now on before the sentence",
			"From now on the cluster is on port 5417.",
			"Your cluster is on port 5416.",
			""},
		{"a server named before its port",
			"Local builds: cluster on port 5417.",
			"Your cluster on 5416 needs a restart after the upgrade.",
			""},
		{"another thing's port stays",
			"Local builds from now on: `make installcheck`, cluster on port 5417.",
			"Grafana is on port 3000; the staging cluster on 5433 is Amir's.",
			"Grafana is on port 3000; the staging cluster on 5433 is Amir's."},
		{"the same port stays",
			"Local builds from now on: `make installcheck`, cluster on port 5417.",
			"The cluster on 5417 has pg_querylens preloaded.",
			"The cluster on 5417 has pg_querylens preloaded."},
		{"a count with a thousands suffix",
			"The buffer holds 256K entries now, one per thread.",
			"Events go into one global buffer of 64K entries.",
			""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			newer, older := &digest.Summary{}, &digest.Summary{}
			newer.Parts[digest.Outcome] = []string{tc.newer}
			older.Parts[digest.Outcome] = []string{tc.older}
			r := New(nil, []*digest.Summary{newer, older})
			if got := r.DropRetired(tc.older, 1); got != tc.want {
				t.Errorf("DropRetired(%q) = %q, want %q", tc.older, got, tc.want)
			}
		})
	}
}

// TestRetiredGoneList: names taken out together ("OpenDKIM and postfwd
// are gone") retire what states each as current; what came in, common
// words taken out ("the logs and metrics are gone") and days keep
// theirs.
func TestRetiredGoneList(t *testing.T) {
	for _, tc := range []struct {
		newer  string
		checks map[string]bool
	}{
		{"Rspamd is in and OpenDKIM and postfwd are gone from both relays.", map[string]bool{
			"Rate limits: postfwd runs as a policy service on 127.0.0.1:10040, keyed on sasl_username.": true,
			"OpenDKIM signs with selector s2026a.":                                                      true,
			"Rspamd's proxy worker is the milter.":                                                      false,
		}},
		{"Husky, lint-staged and `tslint` are out.", map[string]bool{
			"Husky runs lint-staged before every commit.": true,
			"Prettier formats on save.":                   false,
		}},
		{"The logs and metrics are gone after the crash.", map[string]bool{
			"The logs rotate daily.": false,
		}},
		{"Monday and Tuesday are out for the migration.", map[string]bool{
			"Deploys happen on Monday mornings.": false,
		}},
	} {
		t.Run(tc.newer, func(t *testing.T) { checkRetired(t, digest.Outcome, tc.newer, tc.checks) })
	}
}

// TestRetiredDurationByChange: a duration a statement gives while it says
// what it replaced ("… five daily partitions instead of three") is what
// holds now, as one said with "now" is: the thing named in one word in
// an older clause ("our lookback is only 3 days") is the same thing.
// Another thing's duration stays.
func TestRetiredDurationByChange(t *testing.T) {
	newer, older := &digest.Summary{}, &digest.Summary{}
	newer.Parts[digest.Outcome] = []string{"The lookback default is 5 days (`sales_lookback_days`). Each run rebuilds five daily partitions instead of three, still a few GB."}
	x := "Its POS files arrived yesterday, four days late, and fct_sales missed them because our lookback is only 3 days."
	keep := "The Snowflake query timeout is 2 hours."
	older.Parts[digest.Outcome] = []string{x, keep}
	r := New(nil, []*digest.Summary{newer, older})
	if got, want := r.DropRetired(x, 1), "Its POS files arrived yesterday, four days late."; got != want {
		t.Errorf("DropRetired(%q) = %q, want %q", x, got, want)
	}
	if r.Retired(keep, 1) {
		t.Errorf("Retired(%q) = true, want false", keep)
	}
}

// TestRetiredPoolLabel: a quantity set after a label's verb ("For the
// pool: go to 20") is the pool's, as "the pool to 20" is, and a newer
// "drop the pool to 15" retires it.
func TestRetiredPoolLabel(t *testing.T) {
	newer, older := &digest.Summary{}, &digest.Summary{}
	newer.Parts[digest.Request] = []string{"3 × 20 = 60, that doesn't fit. Drop the pool to 15: that's 45, with room for psql."}
	x := "For the pool: go to 20 with a 3 s acquire timeout."
	keep := "The worker pool runs 4 jobs at once."
	older.Parts[digest.Request] = []string{x, keep}
	r := New(nil, []*digest.Summary{newer, older})
	if !r.Retired(x, 1) {
		t.Errorf("Retired(%q) = false, want true", x)
	}
	if r.Retired(keep, 1) {
		t.Errorf("Retired(%q) = true, want false", keep)
	}
}

// TestRetiredRejectedValue: a value a newer statement says will not do
// ("… kept 90 days for incident investigations, 14 isn't enough") retires
// what gives that many of the unit the newer one gives instead.
func TestRetiredRejectedValue(t *testing.T) {
	for _, tc := range []struct {
		newer  string
		checks map[string]bool
	}{
		{"Also Tom says accounting has to be kept 90 days for incident investigations, 14 isn't enough.", map[string]bool{
			"The rule in deploy/logrotate-freeradius-radacct compresses them and keeps 14 days.": true,
			"Detail files rotate daily and are compressed after 2 days.":                         false,
			"14 accounting records arrived yesterday.":                                           false,
		}},
		{"Chunks of 512 tokens are too big; go to 350 tokens with an overlap of 50.", map[string]bool{
			"Chunking: 512 tokens per chunk, no overlap.": true,
			"The eval has 40 questions.":                  false,
		}},
	} {
		t.Run(tc.newer, func(t *testing.T) { checkRetired(t, digest.Request, tc.newer, tc.checks) })
	}
}

// TestRetiredOwnRelease: the version a project itself has out ("0.2.0 is
// the current release on Maven Central") is retired by a newer one said
// so ("Pushed, 1.0.0 is on Central"), not by a dependency's release.
func TestRetiredOwnRelease(t *testing.T) {
	for _, tc := range []struct {
		newer string
		want  bool
	}{
		{"Pushed, 1.0.0 is on Central.", true},
		{"1.1.0 went out this morning with its release notes.", true},
		{"Openapi-generator 7.10.0 is out with the 3.1 type-array work.", false},
		{"0.2.0 is the current release, and Kotlin 2.1.0 is out.", false},
	} {
		t.Run(tc.newer, func(t *testing.T) {
			x := "0.2.0 is the current release on Maven Central."
			newer, older := &digest.Summary{}, &digest.Summary{}
			newer.Parts[digest.Outcome] = []string{tc.newer}
			older.Parts[digest.Outcome] = []string{x}
			r := New(nil, []*digest.Summary{newer, older})
			if got := r.Retired(x, 1); got != tc.want {
				t.Errorf("Retired(%q) = %v, want %v", x, got, tc.want)
			}
		})
	}
}

// checkRetired builds a retirer of a newer summary saying newer in its
// part part and an older one whose outcome holds the sentences of checks,
// and checks which of those it retires.
func checkRetired(t *testing.T, part int, newer string, checks map[string]bool) {
	t.Helper()
	n, o := &digest.Summary{}, &digest.Summary{}
	n.Parts[part] = []string{newer}
	for x := range checks {
		o.Parts[digest.Outcome] = append(o.Parts[digest.Outcome], x)
	}
	r := New(nil, []*digest.Summary{n, o})
	for x, want := range checks {
		if got := r.Retired(x, 1); got != want {
			t.Errorf("Retired(%q) = %v, want %v", x, got, want)
		}
	}
}
