package recall

import (
	"strings"
	"testing"

	"github.com/cairn-mem/cairn/internal/digest"
)

// TestPackKeepsOtherClauses: a sentence that states several facts loses
// only the one a newer session changed, and what is left reads as a
// sentence. The first case is the trial's (hB): the dev port moved to
// 8181, and every pack after it lost the production unit and the
// database path with it, since supersede.Drop took the whole sentence
// and DropRetired left "For reference; production runs as …".
func TestPackKeepsOtherClauses(t *testing.T) {
	for _, tc := range []struct {
		name       string
		old, newer string
		want       string // the older session's line, as the pack shows it
		gone       string // the changed value, which it must not show
	}{
		{"lead-in, and",
			"For reference, the dev server listens on port 8085 (PORT in linkshort/app.py), and production runs as the linkshort-api systemd unit with its database at /var/lib/linkshort/links.db.",
			"The dev server now listens on port 8181 instead of 8085 — since the node exporter on the new box already has 8085.",
			"For reference, production runs as the linkshort-api systemd unit with its database at /var/lib/linkshort/links.db.", "8085"},
		{"semicolon, port",
			"The API listens on port 3001; the worker pool has 8 goroutines and logs go to /var/log/ingest.",
			"The API now listens on 4100 instead of 3001 because the metrics sidecar took 3001.",
			"The worker pool has 8 goroutines and logs go to /var/log/ingest.", "3001"},
		{"while, version",
			"The service is built with Go 1.21, while the CLI ships as a static binary for linux/amd64 and darwin/arm64.",
			"We moved the service to Go 1.23 (was 1.21) for the new iterator functions.",
			"The CLI ships as a static binary for linux/amd64 and darwin/arm64.", "1.21"},
		{"and, time of day",
			"Backups go to s3://acme-backups/nightly at 02:00 UTC, and restores are tested every Friday by the ops rota.",
			"Backups now run at 03:30 UTC instead of 02:00 so they no longer overlap the vacuum job.",
			"Restores are tested every Friday by the ops rota.", "02:00"},
		{"and, count",
			"The staging cluster runs 4 replicas of the API, and the canary gets 10% of the traffic.",
			"Staging now runs 6 replicas of the API.",
			"The canary gets 10% of the traffic.", "4 replicas"},
		{"lead-in, name",
			"Also, the queue is named jobs-v1 in Redis, and the dead-letter queue keeps failed jobs for seven days.",
			"The queue is now named jobs-v2 instead of jobs-v1 after the payload format changed.",
			"Also, the dead-letter queue keeps failed jobs for seven days.", "jobs-v1"},
		{"lead-in of the first clause",
			"In production, Postgres runs version 14.9 on the db-1 host, and the read replica on db-2 serves the reporting queries.",
			"Postgres on db-1 was upgraded to 16.2 (previously 14.9) last night.",
			"In production, the read replica on db-2 serves the reporting queries.", "14.9"},
		{"with, path",
			"The nightly export runs as the export-cron job with its output in /data/exports/v1.",
			"The nightly export now writes its output to /data/exports/v2 instead of /data/exports/v1.",
			"The nightly export runs as the export-cron job.", "/data/exports/v1"},
		{"with, path said moved",
			"Production runs as the linkshort-api systemd unit with its database at /var/lib/linkshort/links.db.",
			"The production database moved to /srv/linkshort/links.db, it is no longer at /var/lib/linkshort/links.db.",
			"Production runs as the linkshort-api systemd unit.", "/var/lib"},
		{"but, without a comma and",
			"The gateway listens on 8443 and the config lives in gateway/conf.d, but the rate limiter allows 200 requests a minute.",
			"The gateway's rate limiter now allows 500 requests a minute instead of 200.",
			"The gateway listens on 8443; the config lives in gateway/conf.d.", "200"},
		{"three facts, the middle one changed",
			"The worker runs as the ingest-worker unit; it reads from the jobs queue on redis-2; the dashboard reads its metrics from Prometheus.",
			"The worker now reads from the jobs queue on redis-5 instead of redis-2.",
			"The worker runs as the ingest-worker unit; the dashboard reads its metrics from Prometheus.", "redis-2"},
		{"and, version first",
			"Node 18 runs the build, and pnpm manages the workspace packages.",
			"We moved the build to Node 20 instead of Node 18.",
			"manages the workspace packages.", "Node 18"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m, _ := newTestMemory(t)
			older := sess("a1", map[int][]string{
				digest.Request:     {"Write down how the service is set up."},
				digest.Environment: {tc.old},
			})
			newest := sess("c3", map[int][]string{
				digest.Request:   {"Change what needs changing."},
				digest.Decisions: {tc.newer},
			})
			text := sessionsPack(m, newest, older)
			_, old, ok := strings.Cut(text, "(session a1)")
			if !ok {
				t.Fatalf("no older session in the pack:\n%s", text)
			}
			if !strings.Contains(old, tc.want+"\n") {
				t.Errorf("want the line %q; pack:\n%s", tc.want, text)
			}
			if strings.Contains(old, tc.gone) {
				t.Errorf("the older session still shows %q; pack:\n%s", tc.gone, text)
			}
		})
	}
}

// TestPackRetiresTakenOption: an answer to "Redis or SQLite?" that took
// an option is the option alone, with the reason the agent gave for it
// ("A small table in the SQLite database we already have — The database
// is already there …"). Once a newer session replaces that option ("the
// rate limiter now uses Redis instead of the SQLite table") it goes
// whole, its reason with it, as the Rejected line of the same choice
// does; from the trial with the real claude CLI.
func TestPackRetiresTakenOption(t *testing.T) {
	m, _ := newTestMemory(t)
	newest := sess("c3", map[int][]string{
		digest.Decisions: {"The rate limiter now uses Redis instead of the SQLite table: INCR on a key rl:<ip>:<minute> with a two-minute expiry, still 30 requests a minute."},
	})
	for _, d := range []string{
		"A small table in the SQLite database we already have — The database is already there and the counters survive restarts.",
		"A small table in the SQLite database we already have.",
	} {
		older := sess("a1", map[int][]string{
			digest.Request:   {"Agreed, SQLite it is. Please never add a new pip dependency without asking me first."},
			digest.Decisions: {d},
			digest.Rejected:  {"Redis — passed over for: a small table in the SQLite database we already have."},
		})
		text := sessionsPack(m, newest, older)
		if strings.Contains(text, "small table") || strings.Contains(text, "already there") {
			t.Errorf("the option taken, or its reason, is shown after it was replaced:\n%s", text)
		}
		if !strings.Contains(text, "never add a new pip dependency") {
			t.Errorf("the request's rule went with it:\n%s", text)
		}
	}
}
