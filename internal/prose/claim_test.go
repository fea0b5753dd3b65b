package prose

import (
	"slices"
	"strings"
	"testing"
)

func TestDurations(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []string // subject=value per clause
	}{
		{"Access tokens live 15 minutes, refresh tokens 30 days.", []string{"access token duration=900s", "refresh token duration=2592000s"}},
		{"The reset link now stays valid for an hour.", []string{"reset link duration=3600s"}},
		{"Make reset links last a quarter of an hour and the job half an hour", []string{"reset link duration=900s", "job duration=1800s"}},
		{"The timeout moved from 30 seconds to 2 minutes.", []string{"timeout duration=120s"}},
		{"Upload URLs are signed with HS256 and expire after 10 minutes.", []string{"upload urls duration=600s"}},
		{"The nightly export writes to S3, and after 30 days the files move to Glacier.", nil},
		{"The build takes three quarters of an hour.", []string{"build duration=2700s"}},
		{"The build takes an hour and a half.", []string{"build duration=5400s"}},
		{"No duration here.", nil},
		// What lasts is named where the sentence starts, further back
		// than the three words before the duration.
		{"A weight is only taken when the indicator has said ST continuously for 1 second.", []string{"said st continuously duration=1s", "weight taken duration=1s"}},
		{"A weight is now taken only after 3 seconds of unbroken ST.", []string{"weight taken duration=3s"}},
		// What the thing took before, beside what it takes now, is no
		// duration the statement gives.
		{"The 3-hour ride parses in 11 ms now, against 180 ms before.", []string{"3-hour ride pars duration=0.011s"}},
		{"The build takes 4 minutes, down from 11 minutes.", []string{"build duration=240s"}},
		{"The build takes 4 minutes (compared with 11 minutes earlier).", []string{"build duration=240s"}},
	} {
		var got []string
		for _, c := range Durations(tc.in) {
			got = append(got, c.Subject+"="+strings.Join(c.Values, ","))
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("Durations(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// TestClaimSubject: the port a verb puts a thing on is that thing's, not
// its subject's, and what a server carries owns none; a sentence that
// only says what a dotfile holds is about the file's content.
func TestClaimSubject(t *testing.T) {
	for in, want := range map[string]string{
		"The compose file publishes Grafana on port 3000 with the plugin mounted from `./dist`.": "grafana port",
		"Grafana is published on port 3001 now.":                                                 "grafana port",
		"The API listens on port 8080.":                                                          "api port",
		"The API serves requests on port 8080.":                                                  "api port",
		"The gateway exposes metrics on port 9100.":                                              "gateway port",
		"The .nvmrc says 20.15.1.":                                                               ".nvmrc content",
		"The `.python-version` is 3.12.4 now.":                                                   ".python-version content",
	} {
		if got := FactClaim(in).Subject; got != want {
			t.Errorf("FactClaim(%q).Subject = %q, want %q", in, got, want)
		}
	}
}

func TestCapitalize(t *testing.T) {
	for in, want := range map[string]string{"t/minion.t failed": "t/minion.t failed", "the spec": "The spec", "go.mod has it": "go.mod has it", "`x` is": "`x` is", "pnpm runs it": "pnpm runs it", "npm: ok": "npm: ok", "a list": "A list", "my note": "My note"} {
		if got := Capitalize(in); got != want {
			t.Errorf("Capitalize(%q) = %q", in, got)
		}
	}
}

// TestDropLeadIn: talk before the point goes, with the colon that ends
// it; a sentence that opens on the same words and no colon stays whole.
func TestDropLeadIn(t *testing.T) {
	for in, want := range map[string]string{
		"OK, use Postgres.": "use Postgres.",
		"Good. One thing I want as a rule: no macro ever heats the nozzle before the mesh.": "no macro ever heats the nozzle before the mesh.",
		"One rule from my side: no shell=True.":                                             "no shell=True.",
		"What happened: the host moved to -389.":                                            "the host moved to -389.",
		"One thing is clear now.":                                                           "One thing is clear now.",
		"About the environment: the service runs from the venv in /opt/hvacwatch/venv.":     "the service runs from the venv in /opt/hvacwatch/venv.",
		"Background so you have it: 14 school buildings on 10.60.0.0/16.":                   "14 school buildings on 10.60.0.0/16.",
		"Background checks run nightly.":                                                    "Background checks run nightly.",
	} {
		if got := DropLeadIn(in); got != want {
			t.Errorf("DropLeadIn(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestPeriods: how often a thing happens, in seconds, whatever the words.
func TestPeriods(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []float64
	}{
		{"The packaged app checks once at startup and then every 4 hours.", []float64{14400}},
		{"The app now checks once an hour.", []float64{3600}},
		{"It runs nightly and every hour.", []float64{86400, 3600}},
		{"Twice an hour, then daily.", []float64{1800, 86400}},
		{"Every two weeks, 3 times per day.", []float64{1209600, 28800}},
		{"Every time it starts.", nil},
	} {
		if got := Periods(tc.in); !slices.Equal(got, tc.want) {
			t.Errorf("Periods(%q) = %v, want %v", tc.in, got, tc.want)
		}
	}
}

func TestBareOption(t *testing.T) {
	for _, c := range []struct{ s, want string }{
		{"A small table in the SQLite database we already have — The database is already there.", "A small table in the SQLite database we already have"},
		{"A small table in the SQLite database we already have.", "A small table in the SQLite database we already have"},
		{"The Pi 4 in the garage", "The Pi 4 in the garage"},
		{"The nightly backup runs at 02:00 and writes to s3://acme-backups.", ""},
		{"The guard lives in click_rate itself.", ""},
		{"Keep the theme in a Redux slice.", ""},
		{"The API is on 8080.", ""},
		{"Redis.", ""},
		{"The", ""},
	} {
		if got := BareOption(c.s); got != c.want {
			t.Errorf("BareOption(%q) = %q, want %q", c.s, got, c.want)
		}
	}
}
