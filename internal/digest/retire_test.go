package digest

import (
	"strings"
	"testing"

	"github.com/cairn-mem/cairn/internal/prose"
)

// filler are statements about other things, so that the words of the
// statements under test are rare in the memory, as they are in one.
var filler = []string{
	"The nightly report is mailed to the finance team at six.",
	"Invoices are rendered with a headless browser to PDF.",
	"The login form keeps the session in an httpOnly cookie.",
	"Migrations run with `make migrate` before the app starts.",
	"Search results are cached for ten minutes in memory.",
	"We never log request bodies because they hold card numbers.",
	"The mobile app reads the same API as the dashboard.",
	"Error pages show a support code the help desk can look up.",
	"Translations live in locales/ as one JSON file per language.",
	"The design system's buttons come from the shared UI package.",
	"Uploads larger than 20 MB are refused by the gateway.",
	"Feature flags are read once at startup from the flags table.",
}

// retiredBy reports whether newer retires older, among filler.
func retiredBy(older, newer string) bool {
	stmts := []Statement{{Text: newer, Rank: 0}, {Text: older, Rank: 1}}
	for _, f := range filler {
		stmts = append(stmts, Statement{Text: f, Rank: 2})
	}
	return NewRetirer(stmts, nil).Retired(older, 1)
}

func TestRetiredByChange(t *testing.T) {
	for _, tc := range []struct {
		family, older, newer string
	}{
		{"instead of", "The billing worker listens on port 7070 behind the proxy.",
			"The billing worker now listens on port 7171 instead of 7070, since the proxy took it."},
		{"rather than", "Thumbnails are resized by the sharp library inside the upload handler.",
			"Thumbnails are resized by a queue job rather than the upload handler, so uploads return at once."},
		{"no longer", "Session tokens are kept in Redis under the sess: prefix.",
			"Session tokens are no longer in Redis: the sess: keys went away with the cookie change."},
		{"moved", "Nightly backups are written to /srv/backups on the database host.",
			"Nightly backups moved to the s3://acme-backups bucket; the database host keeps none."},
		{"switched", "The docs site is built with mkdocs and its material theme.",
			"We switched the docs site to Hugo, so the theme is the hugo-book one."},
		{"bumped", "The toolchain pins Go 1.21.4 in go.mod and in the CI image.",
			"Bumped the toolchain: go.mod and the CI image pin Go 1.22.2."},
		{"reverted", "Payment retries back off exponentially up to an hour.",
			"Reverted the exponential backoff of payment retries: a fixed five minutes again, the provider rate-limits bursts."},
		{"turned off", "Response compression with brotli is on for every API route.",
			"Turned off brotli response compression for API routes again, because the CPU cost beat the savings."},
		{"after all", "The export job writes Parquet files for the analysts.",
			"The export job writes CSV files after all: the analysts' notebooks choke on Parquet."},
		{"from X to Y", "The cache TTL for search results is 30 seconds.",
			"Raised the cache TTL for search results from 30 seconds to 120."},
		{"arrow", "Node 18.19 runs the storybook build.",
			"Storybook build: node 18.19 → 20.11, the old one lost security support."},
		{"not any more", "Staging deploys go through the deploy.sh script on the bastion.",
			"Staging deploys are not run from the bastion's deploy.sh script any more; CI deploys staging on merge."},
		{"back to", "Feature previews use Vercel preview deployments per branch.",
			"Feature previews went back to the shared preview server; Vercel preview deployments cost too much."},
		{"now + value", "The report generator connects to replica db-ro-2.",
			"The report generator now connects to db-ro-5, which has the fresher indexes."},
		{"another value", "The billing worker listens on port 7070.",
			"The billing worker listens on port 7171."},
		{"shared word held by several statements", "I put the invoice drafts into an IndexedDB table (web/src/drafts/db.ts).",
			"Invoice drafts now sit in the server's drafts table instead of the IndexedDB table."},
		{"disabled", "Prefetching of the next page is on for the catalogue grid.",
			"Disabled prefetching of the next page in the catalogue grid: it doubled the API load."},
		{"now + a state", "A duplicate key in the manifest is an error that stops the build.",
			"A duplicate key in the manifest is now allowed, with a warning in the build log."},
		{"back on the default", "The metrics endpoint is served on port 9464.",
			"The metrics endpoint is back on its default port, 9100."},
		{"now + a path", "Training shards are read from /srv/shards on the GPU box.",
			"Training shards now come from /mnt/lake/shards; the GPU box's disk is gone."},
		{"switched off", "`prefetch: true` is set in config/app.yaml, so the grid loads the next page early.",
			"Prefetch is off again in config/app.yaml: the grid doubled the API load."},
		{"switched off after a change turned it on", "Prefetch is now on in config/app.yaml, instead of the lazy grid.",
			"Prefetch is off again in config/app.yaml: the grid doubled the API load."},
		{"switched on", "Dark mode for the admin pages is disabled until the palette is done.",
			"Dark mode for the admin pages is turned on now that the palette is done."},
		{"raised", "The package supports Node >=16 per its engines field.",
			"Raised the engines field of the package to Node >=20."},
	} {
		if !retiredBy(tc.older, tc.newer) {
			t.Errorf("%s: %q should retire %q", tc.family, tc.newer, tc.older)
		}
	}
}

func TestNotRetired(t *testing.T) {
	for _, tc := range []struct {
		why, older, newer string
	}{
		{"two services' ports", "The billing worker listens on port 7070.",
			"The notification worker listens on port 7171."},
		{"a later mention that confirms", "The billing worker listens on port 7171 behind the proxy.",
			"Checked again: the billing worker still listens on port 7171 behind the proxy."},
		{"the older states the new value", "Let's put the billing worker on port 7171 behind the proxy.",
			"The billing worker now listens on port 7171 instead of 7070."},
		{"a question changes nothing", "Workers poll the jobs table every second for new work.",
			"Should we switch the workers from polling the jobs table to LISTEN/NOTIFY?"},
		{"another topic shares only what was turned down", "Argo CD syncs the orders service into its namespace.",
			"Cluster add-ons are installed by Terraform rather than Argo CD."},
		{"from now on is an instruction", "Helm charts for the ingress are vendored under charts/.",
			"From now on pin every helm chart for the ingress to an exact version."},
	} {
		if retiredBy(tc.older, tc.newer) {
			t.Errorf("%s: %q should not retire %q", tc.why, tc.newer, tc.older)
		}
	}
	// An older statement never retires a newer one.
	stmts := []Statement{{Text: "The billing worker listens on port 7070.", Rank: 1}, {Text: "The billing worker listens on port 7171.", Rank: 0}}
	if NewRetirer(stmts, nil).Retired("The billing worker listens on port 7171.", 0) {
		t.Error("an older statement retired a newer one")
	}
}

// TestRetiredSessions checks that a session's bullet is retired by a
// newer session's, sentence by sentence, and a core item by either.
// TestRetiredCommonWord checks that a change retires an older statement
// when the word they share besides its values is one several statements
// of the memory hold.
func TestRetiredCommonWord(t *testing.T) {
	older := "I put the invoice drafts into an IndexedDB table (web/src/drafts/db.ts)."
	newer := "Invoice drafts now sit in the server's drafts table instead of the IndexedDB table."
	stmts := []Statement{{Text: newer, Rank: 0}, {Text: older, Rank: 1}}
	for _, f := range append(filler,
		"Drafts autosave every ten seconds.", "Deleting a draft asks first.",
		"Drafts of credit notes are kept apart.", "Old drafts are purged after a year.") {
		stmts = append(stmts, Statement{Text: f, Rank: 2})
	}
	if !NewRetirer(stmts, nil).Retired(older, 1) {
		t.Errorf("%q should retire %q", newer, older)
	}
}

// TestManifestSaid checks that a memory left out because a taken bullet
// says the same is not listed as left out for room.
// TestRetiredByNamedValue covers a change that names the older
// statement's value under other words, and its near misses.
func TestRetiredByNamedValue(t *testing.T) {
	for _, tc := range []struct {
		name, older, newer string
		want               bool
	}{
		{"number beside the new one", "The docs site is served locally on port 4000 by jekyll.",
			"The preview server now binds 4100 (the profiler agent grabs 4000 on Linux).", true},
		{"path inside the moved directory", "Thumbnails are written to var/tmp/thumbs/ before upload, then deleted.",
			"The thumbnail spool moved from var/tmp to var/spool: thumbs now survive a reboot.", true},
		{"number of another shape", "The docs site is served locally on port 4000 by jekyll.",
			"The preview server now binds 4100 and keeps 12 workers.", false},
		{"the new value given already", "The docs site is served locally on port 4100, not 4000.",
			"The preview server now binds 4100 (the profiler agent grabs 4000 on Linux).", false},
		{"another version of the thing set", "I pinned the linter to 2.3 because our minimum Python is 3.9.",
			"The minimum Python is now 3.11 in setup.cfg and in CI.", true},
		{"another version beside a change of something else", "The minimum Python is 3.9, per setup.cfg.",
			"The minimum Python is now 3.11 in setup.cfg, and the loader no longer reads ini files.", true},
		{"the change names the version it replaced", "The docs builder for the minimum Python runs sphinx 7.2.",
			"The minimum Python went from 3.9 to 3.11 in setup.cfg.", false},
		{"a version of something else", "The notebooks pin pandas to 2.1 for the plots.",
			"The minimum Python is now 3.11 in setup.cfg and in CI.", false},
		{"the new version given already", "Our minimum Python is 3.11, set in setup.cfg.",
			"The minimum Python is now 3.11 in setup.cfg and in CI.", false},
		{"a path beside, not inside", "Thumbnails are written to var/tmpfiles/thumbs before upload.",
			"The thumbnail spool moved from var/tmp to var/spool: thumbs now survive a reboot.", false},
	} {
		if got := retiredBy(tc.older, tc.newer); got != tc.want {
			t.Errorf("%s: retired(%q) by %q = %v, want %v", tc.name, tc.older, tc.newer, got, tc.want)
		}
	}
}

func TestRetiredByNamedOldVersion(t *testing.T) {
	// A sixth of the statements name the build target, so its words are
	// not rare; the old version the change names says which one it
	// retires.
	stmts := []Statement{{Text: "The build target was raised from Android 11 to Android 13 (gradle.properties).", Rank: 0}}
	older := "Keep to APIs of the build target, which is Android 11, in the player."
	stmts = append(stmts, Statement{Text: older, Rank: 1})
	for i := range 3 {
		stmts = append(stmts, Statement{Text: "The build target matters for the player " + strings.Repeat("x", i+3), Rank: 2})
	}
	for _, f := range append(filler, filler...) {
		stmts = append(stmts, Statement{Text: f, Rank: 2})
	}
	if !NewRetirer(stmts, nil).Retired(older, 1) {
		t.Errorf("%q not retired by the version it names as old", older)
	}
	if NewRetirer(stmts, nil).Retired("The player targets Android 13 since the raise.", 1) {
		t.Error("a statement of the new version retired")
	}
}

// TestRetiredReply checks that a short reply naming its topic by a
// pronoun takes the topic of the statement around it.
func TestRetiredReply(t *testing.T) {
	older := "ok leave it on. The nightly export ran fine (before prefetch)."
	newer := "Prefetch is off again in config/app.yaml: the grid doubled the API load."
	stmts := []Statement{{Text: newer, Rank: 0}, {Text: older, Rank: 1}}
	for _, f := range filler {
		stmts = append(stmts, Statement{Text: f, Rank: 2})
	}
	r := NewRetirer(stmts, nil)
	if got := r.DropRetired(older, 1); got != "The nightly export ran fine (before prefetch)." {
		t.Errorf("dropRetired = %q, want the reply gone", got)
	}
	if got := r.DropRetired("ok leave it on. The nightly export ran fine.", 1); !strings.HasPrefix(got, "ok leave it on") {
		t.Errorf("a reply about another topic dropped: %q", got)
	}
}

// TestRetiredBySetting checks that a newer statement that gives a named
// setting another value retires the older, whatever the verb, and so
// does a command that rewrites the setting in place.
func TestRetiredBySetting(t *testing.T) {
	for _, tc := range []struct {
		why, older, newer string
	}{
		{"a verb between", "The redis connection's retry_after stays at 90 as it is in config/queue.php.",
			"Set retry_after to 300 — retry_after has to be larger than the longest job timeout."},
		{"words and camel case", "And set the okhttp read timeout to 20 seconds, the default 10 is too short.",
			"Raised readTimeout to 45 after the first full sync timed out."},
	} {
		if !retiredBy(tc.older, tc.newer) {
			t.Errorf("%s: %q should retire %q", tc.why, tc.newer, tc.older)
		}
	}
	if retiredBy("The okhttp read timeout is 20 seconds.", "The okhttp write timeout is 30 seconds.") {
		t.Error("another setting retired the read timeout")
	}
	older := "The redis connection's retry_after stays at 90."
	sum := &Summary{}
	sum.Parts[Commands] = []string{"`sed -i \"s/'retry_after' => 90/'retry_after' => 300/\" config/queue.php`"}
	sums := []*Summary{sum}
	if !NewRetirer([]Statement{{Text: older, Rank: 1}}, sums).Retired(older, 1) {
		t.Error("a sed substitution that sets retry_after to 300 did not retire the fact that it is 90")
	}
	title := "The harness is too slow for the calibration run, 115200 is a bottleneck"
	sum.Parts[Commands] = []string{"`sed -i 's/baud=115200/baud=921600/' tests/harness/link.py && grep -n baud tests/harness/link.py`"}
	if got := NewRetirer([]Statement{{Text: title, Rank: 1}}, sums).Title(title, 1); got != "Session" {
		t.Errorf("Title = %q after the baud rate went from 115200 to 921600", got)
	}
}

func TestDropRetiredClause(t *testing.T) {
	older := "The backend runs locally on port 5000 (swift run Run serve in Server/), and the app's deployment target is iOS 16, so keep to APIs that exist there."
	newer := "The backend now listens on 8080 instead of 5000, which AirPlay owns."
	stmts := []Statement{{Text: newer, Rank: 0}}
	for _, f := range filler {
		stmts = append(stmts, Statement{Text: f, Rank: 2})
	}
	got := NewRetirer(stmts, nil).DropRetired(older, 1)
	if want := "The app's deployment target is iOS 16, so keep to APIs that exist there."; got != want {
		t.Errorf("DropRetired = %q, want %q", got, want)
	}
}

func TestRetiredByVersion(t *testing.T) {
	if !retiredBy("The build uses the Gradle toolchain with Java 17, and pattern matching is fine there.",
		"The toolchain is Java 21 now, matching the temurin 21 image.") {
		t.Error("Java 21 did not retire Java 17 of the same toolchain")
	}
	if !retiredBy("The project pins Unity 2022.3.21f1 in its editor settings.", "The editor settings now say Unity 2022.3.40f1.") {
		t.Error("a newer Unity editor did not retire the older")
	}
	if r := NewRetirer([]Statement{{Text: "The iPhone simulator runs iOS 17.4.", Rank: 0}}, nil); r.otherVersionOf(prose.Versions("The deployment target is iOS 16."), topicKeys("The deployment target is iOS 16."), &r.stmts[0]) {
		t.Error("the simulator's iOS is another version of the deployment target's")
	}
}

func TestRetiredFileChanged(t *testing.T) {
	read := "`/home/me/app/.tool-versions`: elixir 1.16.3-otp-26, erlang 26.2.5"
	newer := &Summary{}
	newer.Parts[Files] = []string{".tool-versions (written)", "config/dev.exs (edited)"}
	other := &Summary{}
	other.Parts[Files] = []string{"lib/app.ex (edited)"}
	if !NewRetirer(nil, []*Summary{newer, other}).Retired(read, 1) {
		t.Error("a file a newer session changed still says what it said when read")
	}
	if NewRetirer(nil, []*Summary{other, newer}).Retired(read, 0) {
		t.Error("an older session's change retired what was read after it")
	}
	if !NewRetirer(nil, []*Summary{other, newer}).Retired(read, 1) {
		t.Error("what a session read and then changed is still shown as current")
	}
}

func TestRetiredStill(t *testing.T) {
	if !retiredBy("db03 is still on CentOS 7 with firewalld 0.6.3, and the rule template fails there.",
		"The weekend crew put Rocky 9 on db03, so the template applies there too.") {
		t.Error("a newer value for db03 did not retire what was still so")
	}
	if retiredBy("db03 is still on CentOS 7.", "The backup job on db04 runs at 02:00.") {
		t.Error("another host retired db03's state")
	}
}
