package summarize

import (
	"strings"
	"testing"
)

func TestClaimOf(t *testing.T) {
	for _, tc := range []struct {
		kind    Kind
		text    string
		subject string
		values  string // comma-separated
		dropped string
	}{
		{Fact, "The API listens on port 8080", "api port", "8080", ""},
		{Fact, "The API now listens on 8081.", "api port", "8081", ""},
		{Fact, "We moved the API to port 9090 because 8080 clashed with the admin UI.", "api port", "9090", ""},
		{Fact, "The admin UI is served on :3000.", "admin ui port", "3000", ""},
		{Fact, "Postgres runs on localhost:5433 in the compose setup.", "postgres port", "5433", ""},
		{Fact, "The exporter is back on the default :9100.", "exporter port", "9100", ""},
		{Fact, "We're on Python 3.12 now.", "python version", "3.12", ""},
		{Fact, "Bumped pydantic from 1.10 to 2.7.", "pydantic version", "2.7", ""},
		{Fact, "staging lives at https://staging.acme.dev", "staging url", "https://staging.acme.dev", ""},
		{Fact, "Tests are run with `make test` which spins up the db container.", "test command", "make test", ""},
		{Fact, "Run the tests with `pytest -q tests/`.", "test command", "pytest -q tests/", ""},
		{Fact, "`DATABASE_URL` points to the local replica.", "database_url", "local,replica", ""},
		{Fact, "The config lives in /etc/tally/config.toml.", "config path", "/etc/tally/config.toml", ""},
		{Decision, "Let's go with chi for the HTTP router because it is net/http compatible.", "http router", "chi", ""},
		{Decision, "Switched the HTTP router from chi to gorilla/mux.", "http router", "gorilla/mux", "chi"},
		{Decision, "We'll use Redis for pub/sub between the API and the workers.", "pub/sub", "redis", ""},
		{Decision, "we're dropping Redis after all, Postgres LISTEN/NOTIFY is enough", "postgres listen/notify", "postgres,listen/notify", "redis"},
		{Decision, "OK, sqlc it is.", "sqlc", "sqlc", ""},
		{Decision, "Use rename instead of copying for claims", "claims", "rename", "copying"},
		{Decision, "The exporter now flushes each chunk with `w.Flush`", "w.flush", "w.flush", ""},
		{Preference, "Please don't add comments that restate the code.", "add comments restate", "", ""},
	} {
		c := ClaimOf(tc.kind, tc.text)
		if c.Subject != tc.subject || strings.Join(c.Values, ",") != tc.values || strings.Join(c.Dropped, ",") != tc.dropped {
			t.Errorf("ClaimOf(%s, %q) = %+v, want {%s %s %s}", tc.kind, tc.text, c, tc.subject, tc.values, tc.dropped)
		}
	}
}

func TestCommandSubjects(t *testing.T) {
	for in, want := range map[string]string{
		"The billing service is in services/billing and its tests run with `make test-billing`.": "billing service test command",
		"Billing tests now run with `just test billing`.":                                        "billing test command",
		"We deploy with `fly deploy` from the main branch.":                                      "deploy command",
		"Lint with `make lint` before pushing.":                                                  "lint command",
	} {
		if got := ClaimOf(Fact, in).Subject; got != want {
			t.Errorf("ClaimOf(%q).Subject = %q, want %q", in, got, want)
		}
	}
}

func TestConjuncts(t *testing.T) {
	for in, want := range map[string]string{
		"The API listens on port 8080 and the admin UI serves on port 3000.":                       "The API listens on port 8080|the admin UI serves on port 3000",
		"Postgres runs on localhost:5433, Redis is on localhost:6379, and MinIO on localhost:9000": "Postgres runs on localhost:5433|Redis is on localhost:6379, and MinIO on localhost:9000",
		"The worker pins Go 1.22 in go.mod, but the CI image still has 1.21.":                      "The worker pins Go 1.22 in go.mod, but the CI image still has 1.21.",
		// Only full clauses stand alone: no item from a verbless part, a
		// prepositional phrase or a relative clause.
		"The fallback in internal/app/main.go and deploy.yaml is unchanged.":                "The fallback in internal/app/main.go and deploy.yaml is unchanged.",
		"The loader needs tomlkit 0.12, which pip 23.1 is happy with.":                      "The loader needs tomlkit 0.12, which pip 23.1 is happy with.",
		"The seed data is in db/seed.sql and in both fixtures/a.json and b.json.":           "The seed data is in db/seed.sql and in both fixtures/a.json and b.json.",
		"Workers read jobs from /var/spool/jobs and the janitor runs from /etc/cron.daily.": "Workers read jobs from /var/spool/jobs|the janitor runs from /etc/cron.daily",
		"Staging lives at https://staging.acme.dev and deploys from the release branch.":    "Staging lives at https://staging.acme.dev and deploys from the release branch.",
		"The config lives in `a, b and c.toml`.":                                            "The config lives in `a, b and c.toml`.",
	} {
		if got := strings.Join(conjuncts(in), "|"); got != want {
			t.Errorf("conjuncts(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestDropTopic(t *testing.T) {
	for in, want := range map[string]string{
		"Quick aside on the tooling: the repo pins Go 1.22 in go.mod.": "The repo pins Go 1.22 in go.mod.",
		"One more thing: staging runs on port 8443.":                   "Staging runs on port 8443.",
		"The API moved to port 4100: the old default clashed.":         "The API moved to port 4100: the old default clashed.",
		"Remember: be careful.":                                        "Remember: be careful.",
	} {
		if got := dropTopic(in); got != want {
			t.Errorf("dropTopic(%q) = %q, want %q", in, got, want)
		}
	}
}
