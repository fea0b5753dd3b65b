package weigh

import (
	"reflect"
	"testing"
)

func TestOptions(t *testing.T) {
	for _, tc := range []struct {
		text string
		want []string
	}{
		{"The api job spec is ancient. Right now it's a hand-rolled nginx on cli-1 with upstreams edited by hand. Fabio or Traefik?", []string{"Fabio", "Traefik"}},
		{"The front desk tablet should see slots fill up live, especially Saturday mornings. Polling every few seconds, or server-sent events?", []string{"Polling every few seconds", "server-sent events"}},
		{"Backups then. I have a Backblaze B2 account already. Litestream? Or just a nightly sqlite3 .backup with restic, which I know?", []string{"Litestream", "a nightly sqlite3 .backup with restic"}},
		{"Tile server. I've seen both Martin and pg_tileserv mentioned. Which one, and why?", []string{"Martin", "pg_tileserv"}},
		{"Checking the purge API. Options: purge everything after each update, or version the tile URLs.", []string{"purge everything after each update", "version the tile URLs"}},
		{"Should we use sqlc, GORM or ent?", []string{"sqlc", "GORM", "ent"}},
		{"The offline queue: should we store it in SQLite or in a plain JSON file?", []string{"store it in SQLite", "in a plain JSON file"}},
		{"For sync, should we shell out to git or use go-git? I prefer not to depend on a git binary.", []string{"shell out to git", "go-git"}},
		{"Which would you pick, Fabio or Traefik?", []string{"Fabio", "Traefik"}},
		{"Which is better here, Fabio or Traefik?", []string{"Fabio", "Traefik"}},
		{"Fabio vs Traefik?", []string{"Fabio", "Traefik"}},
		{"Should we use Redis or Memcached or just an in-process LRU?", []string{"Redis", "Memcached", "an in-process LRU"}},
		{"Do you want me to open a PR, or push straight to main?", []string{"open a PR", "push straight to main"}},
		// Not a choice to take.
		{"Could you run the migration on staging or is the VPN still down?", nil},
		{"Do we still need the v1 endpoint or can I delete it?", nil},
		{"Can you make the tests pass on Go 1.21 or later?", nil},
		{"Is it the cache or the network?", nil},
		{"Why does it hang on the first or second run?", nil},
		{"Did the deploy go through or not?", nil},
		{"I use Martin and pg_tileserv both. Restart them.", nil},
		{"The front desk tablet and people's phones should see slots fill up live on a Saturday morning or a weekday evening?", nil},
		{"Fabio or Traefik, I don't mind. Set it up.", nil},
	} {
		if got := Options(tc.text); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("Options(%q) = %q, want %q", tc.text, got, tc.want)
		}
	}
}

func TestTurned(t *testing.T) {
	for _, tc := range []struct {
		name   string
		opts   []string
		answer string
		want   []Verdict
	}{
		{"took another, said why", []string{"Fabio", "Traefik"},
			"Between the two: Fabio reads Consul tags and is simple, but it has no ACME support, so certificates would stay a separate problem. Traefik v3 has a Consul Catalog provider and Let's Encrypt built in. I'd go with Traefik, as a system job pinned to the ingress node.",
			[]Verdict{{Option: "Fabio", Line: "Fabio reads Consul tags and is simple, but it has no ACME support, so certificates would stay a separate problem.", For: "Traefik"}}},
		{"faulted, none taken in words", []string{"Litestream", "a nightly sqlite3 .backup with restic"},
			"The database is 3 MB and writes come in bursts. A nightly `.backup` with restic would be simple, but it loses everything since the last run: a disk failure on Saturday would take that morning's bookings with it. Litestream streams WAL frames to B2 every second, so we'd lose at most a second.",
			[]Verdict{{Option: "a nightly sqlite3 .backup with restic", Line: "A nightly `.backup` with restic would be simple, but it loses everything since the last run: a disk failure on Saturday would take that morning's bookings with it."}}},
		{"the answer's own options", []string{"purge everything after each update", "version the tile URLs"},
			"Options: purge everything after each update, or version the tile URLs. Purging everything every night means the first visitors each morning hit a cold cache. I'd rather version the URLs: the style's tile URL gets `?v=20260428`.",
			[]Verdict{{Option: "purge everything after each update", Line: "Purging everything every night means the first visitors each morning hit a cold cache.", For: "version the tile URLs"}}},
		{"took another, said nothing of it", []string{"sqlc", "GORM"},
			"I'd go with sqlc: the queries are few and hot.",
			[]Verdict{{Option: "GORM", For: "sqlc"}}},
		{"faults both, takes none", []string{"Fabio", "Traefik"},
			"Fabio is simple, but it has no ACME support. Traefik does ACME, but it needs a DNS token.", nil},
		{"praise after but", []string{"Fabio", "Traefik"},
			"Traefik is heavier, but it does ACME with the Hetzner DNS challenge.", nil},
		{"a take naming one word of its option, a cost after but", []string{"store it in SQLite", "in a plain JSON file"},
			"A JSON file is easy to read by hand, but it has to be rewritten whole on every change, and a crash mid-write loses the whole queue. I'd go with SQLite through the sqflite package.",
			[]Verdict{{Option: "in a plain JSON file", Line: "A JSON file is easy to read by hand, but it has to be rewritten whole on every change, and a crash mid-write loses the whole queue.", For: "store it in SQLite"}}},
		{"a take turned against", []string{"Redis", "Postgres for the job queue"},
			"I'd recommend against Redis here: it's one more service to run and back up. Postgres with SKIP LOCKED handles our volume fine.", nil},
		{"a bare name first", []string{"Postgres", "SQLite for the local cache"},
			"SQLite. I'll use Postgres only for the shared store, where we need concurrent writers.",
			[]Verdict{{Option: "Postgres", For: "SQLite for the local cache"}}},
		{"praise after but, a fault later", []string{"Fabio", "Traefik"},
			"Traefik is heavier, but it does ACME itself, so no separate certbot timer to babysit. Fabio reads Consul tags directly.", nil},
		{"names both in its pick", []string{"Fabio", "Traefik"},
			"I'd go with Traefik and Fabio side by side for a week.", nil},
	} {
		if got := Turned(tc.opts, tc.answer); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s: Turned = %+v, want %+v", tc.name, got, tc.want)
		}
	}
}

func TestPicked(t *testing.T) {
	opts := Options("All four views are templ components now. Question: commit the generated `*_templ.go` files, or generate them in CI and on the build machine?")
	if len(opts) != 2 {
		t.Fatalf("options %q", opts)
	}
	for _, tc := range []struct {
		reply string
		want  int
	}{
		{"Commit them. I don't want CI or the VPS build to need the templ CLI.", 0},
		{"Generate them in CI.", 1},
		{"CI and the build machine, please.", 1},
		{"Don't commit them.", -1},
		{"Commit them? Why?", -1},
		{"Hmm. Let me think about the build machine first, it is slow and old and nobody likes it.", -1},
		{"Looks good.", -1},
		{"Generate them.", 1},
		{"The second.", 1},
		{"The first one.", 0},
		{"Generate them first, then commit.", -1},
	} {
		if got := Picked(opts, tc.reply); got != tc.want {
			t.Errorf("Picked(%q) = %d, want %d", tc.reply, got, tc.want)
		}
	}
}

func TestPickedOrder(t *testing.T) {
	opts := Options("Tests pass. Shall I deploy to staging or production?")
	if len(opts) != 2 {
		t.Fatalf("options %q", opts)
	}
	if got := Picked(opts, "Staging first."); got != -1 {
		t.Errorf("Picked(Staging first.) = %d, want -1: an order of work", got)
	}
}
