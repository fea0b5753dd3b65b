package summarize

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/cairn-mem/cairn/internal/prose"
)

// TestClassifyMisreadings: ordinary sentences the new rules misfile (each was
// filed as want before 6afedf9/6468da6, except where noted).
func TestClassifyMisreadings(t *testing.T) {
	for _, tc := range []struct {
		role Role
		text string
		want string
	}{
		// A decision (and the alternative it turned down) told after what
		// was tried is still a decision (triedIt).
		{User, "We tried SQLite first, but we'll use Postgres because of concurrent writes.", "decision"},
		{User, "I checked the benchmarks and decided to keep Redis for sessions.", "decision"},
		{Assistant, "I measured both and chose zstd over gzip because it is 3x faster at the same ratio.", "decision,rejected"},
		// Work left said with "remaining" after its noun.
		{Assistant, "Two flaky tests remaining in the payments suite.", "open"},
		{Assistant, "3 failing tests remaining.", "open"},
		// A state, not a next step (nowNext, now up to six words).
		{Assistant, "Now the API returns 404 for unknown slots.", "decision"},
		{Assistant, "Now the tests pass on all three platforms.", "decision"},
		// No alternative turned down (new rejectCue parts).
		{Assistant, "The 2.0 release is out too, with the fix.", ""},
		{Assistant, "The API route is `/v2/bookings`, but the mobile app still calls `/v1/bookings`.", "env"},
		{Assistant, "The label doesn't fit here on small screens, so I truncated it.", ""},
		{Assistant, "I didn't build the iOS target since Xcode isn't installed on this machine.", ""},
		// An error or a response is no how-to (howTo: cmdWith, cmdAfter).
		{Assistant, "The migration fails with `relation users does not exist`.", ""},
		{Assistant, "The worker crashes with `signal SIGSEGV: segmentation violation`.", ""},
		{Assistant, "The probe response was: `HTTP/1.1 502 Bad Gateway`", ""},
		{Assistant, "Reproduced it with `go test -run TestSlots ./...` first.", ""},
		// A region named in a report of an incident is no environment fact
		// (HasRegion): new in 6afedf9.
		{Assistant, "The outage in us-east-1 last night took the queue down.", ""},
		// A wish word opening a sentence does not make work left a wish.
		{Assistant, "Luck aside, the cache is still empty on cold start.", "open"},
		// The second review of 11 December: a step said with its reason is
		// a choice; a user leaving a thing as it is decides; "Remaining are …"
		// is work left.
		{Assistant, "Switching to pnpm because npm's lockfile kept drifting.", "decision"},
		{Assistant, "Replacing moment with date-fns to cut the bundle size.", "decision,rejected"},
		{Assistant, "Switching them to gRPC since REST was too chatty.", "decision"},
		{User, "Leave the retry logic as it is.", "decision"},
		{Assistant, "Remaining are the two flaky specs in spec/models.", "open"},
		{Assistant, "Streaming is the obvious next piece; the endpoint still returns the whole answer at the end.", "open"},
		// Blind AB, opened on 15 December: versions listed under a label,
		// a choice whose reason follows a colon, an alternative not used
		// for a reason, and a rejection that is a symptom.
		{Assistant, "Toolchain per Anchor.toml: anchor 0.30.1 and solana 1.18.26; the localnet program id is VstR4nGq8yX2b5C7.", "env"},
		{Assistant, "The model is gpt-4.1-mini via langchain-openai (settings.MODEL).", "env"},
		{Assistant, "Where the translations stand: German 31 of 33 finished, French 21 of 33, Spanish 4 of 33.", ""},
		{Assistant, "For the client, I'm generating it from the IDL with Codama rather than writing borsh layouts by hand: hand layouts drift from the program.", "decision,rejected"},
		{Assistant, "I didn't use `create_react_agent` because we need a node between the tool call and its execution.", "rejected"},
		{User, "Bad news: notarization rejected the 0.9.5 DMG.", ""},
		{Assistant, "Now the dev server port, in both places that name it.", ""},
		{Assistant, "While I was there I took appimage out of the targets.", ""},
		// A file named make-… is no imperative "make".
		{Assistant, "make-manifest.mjs wrote the path of each .sig file into the signature field instead of the file's contents.", "env"}, // no decision: what a script did
		{Assistant, "While I was there I noticed the upload route has no size limit.", "open"},
		{Assistant, "The grep shows Detect-LocalAdmin.ps1 has the same pattern — catch, then a trailing `exit 0`.", "open"},
		// Blind AC, opened in the round of 13 December: a permission is the user's
		// standing word, as the rule it takes back was.
		{User, "And actually, feel free to update baselines locally now — `pnpm test:visual:docker` runs the same jammy image.", "pref"},
		{User, "And actually, feel free to drain two workers at once from now — pg-main runs 3 replicas.", "pref"},
		// Blind AD, opened in the round of 14 December: an alternative ruled out
		// or a route not followed, and a behaviour kept narrow for a reason.
		{Assistant, "A pg_dump/pg_restore would need the shop down for the whole restore, roughly 9 hours, so I'd rule that out.", "rejected"},
		{Assistant, "A hand-rolled system over RPCs would have to rebuild all of that, so I would not follow Karl's route.", "rejected"},
		{Assistant, "It only prints a notice on stderr and never downloads anything itself, since brew and scoop own the install.", "decision"},
		{Assistant, "The test only runs on CI because the runner has Docker.", ""},
		{Assistant, "It only failed once in ten runs, because the fixture races.", "root"},
		// Work left said by a contraction, or as a need with its deadline.
		{Assistant, "For the Linux server we'll need the cross-compile toolchain on the Windows build box; it isn't installed yet.", "open"},
		{Assistant, "We need a replica identity on both tables before the initial sync.", "open"},
		{Assistant, "We need a lock because two writers race.", ""},
		{Assistant, "Only the rifle uses the rewind so far; the shotgun's pellets are still traced against current positions, that's open.", "open"},
		{Assistant, "The pull request is open.", ""},
		// A defect told with "never" is no rule (found trying cairn as a user).
		{User, "Slow clients never get cut off: yesterday one held a connection for ten minutes.", ""},
		{User, "Never let a slow client hold a connection for more than a minute.", "pref"},
		// Work asked for is the request, no decision (found trying cairn as a user).
		{User, "Add a /healthz endpoint for the load balancer.", ""},
		{User, "Add the retry to the client instead of the server.", "decision,rejected"},
		{User, "New rule: no third-party dependencies without asking me first.", "pref"},
		{User, "And a rule: don't restart hvacwatch.service during school hours; deploys after 17:00 only, the secretaries call me when a zone alarm flaps during a restart.", "pref"},
		// Blind AE, opened in the round of 14 December.
		{Assistant, "I didn't wrap the dictionary in an NSLock or a serial DispatchQueue: every caller is becoming async anyway.", "rejected"},
		{Assistant, "We ask for permission at launch for now.", "decision"},
		{User, "Webhook tasks are writing into the public schema instead of the tenant's.", ""},
		{User, "Move the events into the tenant's schema instead of the public one.", "decision,rejected"},
		{Assistant, "After it ran locally the same report comes back in about 180 ms instead of 14.2 s.", "env"},
		// What the numbers to meet are, and what a script in a path does.
		{Assistant, "Budgets on the RTX 3060 at 1440p: 60 fps, so 16.6 ms a frame, of which the GPU gets 12 ms.", "env"},
		{Assistant, "The backfill in scripts/backfill_region.py walks orders by id in batches of 5,000 rows with a 200 ms pause.", "env"},
		// Blind AG, opened in the round of 16 December.
		{User, "Prod runs Synapse 1.98 — that's why I pinned the compose image to the same version.", "env"},
		{Assistant, "The builds failed because the cache was stale — that's why the job timed out.", "root"},
		{Assistant, "The duplicate forum posts came from Synapse itself.", "root"},
		{User, "Bad news, we can't do tomorrow.", ""},
		{Assistant, "The disk buffers held the events meanwhile, so nothing's lost; they are draining now.", ""},
		{Assistant, "You said the canary VM (app-17) has been running this since last night; let me read its errors.", ""},
		{Assistant, "Raising it to 512 KiB for that service's files is the fix I'd make next.", "open"},
		{Assistant, "It's on LZ4, and it would be worth trying ZSTD on that column before we size the disks.", "open"},
		{Assistant, "MQTT: broker 192.168.1.20:1883 on the Pi.", "env"},
		{Assistant, "Topics: the ESP publishes each frame to `gh/1/telemetry` as JSON and subscribes to `gh/1/cmd/#`.", "env"},
		{Assistant, "Addresses are as expected: 0x23 BH1750, 0x44 SHT31, 0x48 ADS1115.", "env"},
		{Assistant, "I didn't do PID: it's a resistive heater on a relay, PID would buy nothing but relay wear.", "rejected"},
		{Assistant, "Then the sensor goes first, and a little later everything, with SDA stuck low.", ""},
		{Assistant, "One problem with the package: the build output lists what `git ls-files` returns, so spec/ goes into the .gem.", "open"},
		{Assistant, "The watermark is the problem.", "root"},
		{Assistant, "I can't run it here, so test_coordinator_retries_after_429 stays open until CI has had a few runs.", "open"},
		{Assistant, "The partition table and README still say SPIFFS.", "open"},
		{Assistant, "Checking nothing else still says 8080.", ""},
		{Assistant, "VP9 and AV1 would save bandwidth, but older iPhones can't encode them in hardware, so VP8 is the safe default.", "rejected"},
		// Blind AJ, opened in the round of 18 December.
		{Assistant, "The add is done in fp32 and the sum goes back into the residual buffer in place, because the next block consumes it anyway.", "decision"},
		{Assistant, "The limit is 500 messages per hour per tenant; past that the app gets a 450 4.7.1 tempfail and retries later, so nothing is lost.", "env"},
		{Assistant, "If the API is down or answers 5xx the hook exits 75 (EX_TEMPFAIL), so Postfix keeps the DSN in its queue.", "decision"},
		{Assistant, "`disable_mime_output_conversion = yes` in main.cf stops the rewriting; those receivers then get 8-bit mail.", "env"},
		{Assistant, "For MTA-STS domains (Gmail and Outlook publish it) the postfix-mta-sts-resolver daemon answers smtp_tls_policy_maps on 127.0.0.1:8461.", "env"},
		{Assistant, "The old s2026a TXT record stays in DNS for 7 more days so mail still in queues verifies, then it can go.", "open"},
		{Assistant, "Numerics are fine.", ""},
		// Blind AY, opened in the round of 3 January: which files are not
		// hit, and an answer that names nothing.
		{User, "Garmin ones are fine.", ""},
		{User, "Keep it, yes.", ""},
		{Assistant, "Now the autotune sweep over 24 configs, timing the first call.", ""},
		// Blind AZ, opened in the round of 4 January: a user acknowledging
		// a cause gives none, an approach with the alternative it leaves
		// out and why is a decision, a bare verdict on what the user
		// proposed is a rejection, a day's batch is no work left.
		{User, "Oh that explains a lot.", ""},
		{Assistant, "Customers sign in with a magic link emailed to the address on their account, no passwords — café staff would share one password on a sticky note anyway.", "decision"},
		{Assistant, "I'd not do WhatsApp.", "rejected"},
		{Assistant, "So every standing order was read one day early: on Friday the importer picked up the sheet's Thursday lines.", ""},
		{Assistant, "The enclosure length in the feed stays the plain file's — apps cope with a different size, and the feed can't know the listener's country.", "decision"},
		{Assistant, "The build is green — all 52 tests pass.", ""},
		{Assistant, "Each feed carries podcast:locked with the show's owner email so nobody else can import it into another host.", "decision"},
		{Assistant, "The cutoff is 13:00 now, so anything after 1pm goes to the day after tomorrow's bake.", "env"},
		{Assistant, "Confirmations: at the cutoff each customer with an email gets one message through Postmark listing tomorrow's lines.", ""},
		// Blind AK, opened in the round of 19 December.
		{Assistant, "I also tried hevc_nvenc briefly and I'd leave it: Chrome on Windows without the HEVC extension can't play it.", "rejected"},
		{Assistant, "If a job is ever delivered twice for another reason, two workers would still write the same keys; we need real idempotency next.", "open"},
		{Assistant, "Outputs are written under a per-attempt prefix and the master playlist is copied into place last, so players never see half a ladder.", "decision"},
		{Assistant, "The tests are green again, so you can merge it.", ""},
		{User, "Second time this week, always after a couple of hours, always Y. Mainsail shows nothing.", ""},
		{Assistant, "What the log tells us: the Pi runs Klipper v0.12.0-210, connected over USB as `/dev/serial/by-id/usb-Klipper_stm32f446xx-if00`.", "env"},
		{Assistant, "What happened: \"update all\" moved the host Klipper to v0.12.0-389, but the firmware on the Octopus was still built from -210.", "root"},
		// Said of no failure, "What happens:" tells a flow.
		{Assistant, "What happens: the user clicks Book, the server reserves the slot, and a confirmation email goes out.", ""},
		{Assistant, "There it is: `ST_Length(geom)` on EPSG:3857.", "root"},
		{Assistant, "The login failure was an audience mismatch: the role bound `vault` while Nomad's identity sends `vault.io`.", "root"},
		{Assistant, "The login failure was a surprise to everyone.", ""},
		{User, "Two rules for the job files: HCL2 with a variables file per environment, and no secret ever inlined in a job spec, not even for staging.", "pref"},
		{User, "htmx: no npm, no node toolchain in this repo, ever.", "pref"},
		{User, "Naming is good: partials sit next to their page and start with an underscore, keep doing that.", "pref"},
		{User, "No Docker on that box please, I want to be able to read everything with systemctl.", "pref"},
		{User, "No idea why it broke, ever since Tuesday.", ""},
		{User, "Just make the idle timeout 4 hours, for everyone, simpler.", "decision"},
		{User, "Raise the pool to 60.", "decision"},
		{User, "Just run the tests.", ""},
		{User, "And forget the parts limit, add what the circuit needs.", ""},
		// The review of the round of 21 December.
		{Assistant, "FYI, we'll use the `slog` package for all new logging.", "decision,open"},
		{Assistant, "Here it is: the updated `docker-compose.yml` with the new port mapping.", ""},
		{Assistant, "The error was the following: `ECONNREFUSED 127.0.0.1:5432` on every request.", "env"},
		{Assistant, "I'll leave it out for now and add it once you have the token.", ""},
		{Assistant, "I kept gorilla/csrf out of it on purpose: the standard library covers it.", "rejected"},
		{Assistant, "I deliberately left out gorilla/csrf: the standard library covers it.", "rejected"},
		{User, "Limit the output to 20 lines.", ""},
		{User, "Set the log level to 4 and run it again.", ""},
		{User, "Just make it compile.", ""},
		{User, "Then use the other terminal.", ""},
		{User, "No worries, please go ahead with the migration.", ""},
		{User, "Great, keep doing that until the whole suite is green.", ""},
		{Assistant, "Caddy serves boeken.gritstoneclimbing.nl, gets the certificate itself, and proxies `/events/*` with `flush_interval -1` so SSE events aren't held in a buffer.", "decision"},
		{Assistant, "Caddy reloads `Caddyfile` with `--watch` on every change, so you can't see the old certificate.", ""},
		{Assistant, "nginx proxies `/events/*` with `proxy_buffering off` so SSE events aren't held in a buffer.", "decision"},
		{Assistant, "Postgres has `max_connections = 100` set, so the pool isn't the bottleneck.", "env"},
		{Assistant, "The proxy buffers `/events/*` responses, so SSE events never arrive.", ""},
		{Assistant, "Now the load test I owed you from the double booking: `hey -n 200 -c 200 -m POST` at one 8-spot session, each request with its own member cookie.", ""},
		{Assistant, "One thing I'd still like before we call it closed: a real load test with `hey`, rather than only the in-process test.", "open"},
		{Assistant, "Next on the list is Consul: we're still on 1.19.2 and 1.20 has the fixes for the xDS memory growth.", "open"},
		{Assistant, "What worries me: bumping the tile version every night makes every cached tile useless every morning.", "open"},
		{Assistant, "I'd keep gorilla/csrf out: threading a token into every hx-post is plumbing we'd forget.", "rejected"},
		{User, "Problem. Saturday's 10:00 bouldering intro had 9 people on an 8-spot session, the instructor was not amused.", ""},
		{Assistant, "What's happening: the cron runs twice because both hosts have the timer enabled.", "root"},
		{Assistant, "The two talk a versioned protocol, and the new host sends commands the old firmware doesn't know, hence the MCU Protocol error.", "root"},
		{Assistant, "In Orca the start G-code becomes `PRINT_START BED=[bed_temperature_initial_layer_single]`.", "env"},
		{Assistant, "The web port is published on the host as 8069.", "env"},
		{Assistant, "Syntax is fine.", ""},
		{User, "The hotend is fine, I checked the wiring.", ""},
		{User, "SQLite is fine for this, we tested it at 2k writes per second.", "decision"},
		{User, "Second time today I have to say it: never force-push to main.", "pref"},
		{Assistant, "Once the silicone sock is on, PID_CALIBRATE needs another run at 240 with the fan at 100%.", "open"},
		{Assistant, "Now a real run log from the samples folder.", ""},
		{Assistant, "So the lecture queue moves to NVENC on g4dn.xlarge; x264 stays only for the marketing trailers.", "decision"},
		{Assistant, "So it goes to show that the cache was cold.", ""},
		{Assistant, "So the cursor moves to the next free slot after each write.", ""},
		{Assistant, "I pinned numpy to 1.26 in requirements.txt, hence the lockfile change.", ""},
		{Assistant, "Now the Stripe webhooks in handler.go.", ""},
		{Assistant, "Server-side rendering handles the first paint. Client-side rendering takes over after hydration.", ""},
		{User, "Did it pass on CI?", ""},
		{Assistant, "I know this costs some quiet.", ""},
		{Assistant, "I didn't build a custom executor image with libpq-dev; that would be another image to maintain.", "rejected"},
		{Assistant, "Now the X-Ray patching in both handlers.", ""},
		{Assistant, "Now a build to see how it behaves.", ""},
		{Assistant, "Now how the model session is created.", ""},
		{Assistant, "Now the API returns 404 for unknown slots and 409 for taken ones.", "decision"},
		{User, "First up: a fused residual-add + layernorm in Triton, forward only (we never run backward in serving).", ""},
		{User, "Use pnpm for installs (never npm).", "pref"},
		{Assistant, "The first pass measures. Single-pass loudnorm runs in dynamic mode and pumps the room noise.", ""},
		{Assistant, "The audio goes through two-pass loudnorm. Single-pass loudnorm runs in dynamic mode and pumps the room noise.", "rejected"},
		{Assistant, "Make it executable.", ""},
		// Found by an audit of what the packs spend their budget on.
		{User, "Please write tests for Detect-BitLocker.ps1.", ""},
		{User, "When a charge.refunded event arrives, mark the order refunded.", ""},
		// Blind AO, opened on 23 December: "stop …ing" after its own
		// subject tells what happens; said to the agent it is a rule.
		{User, "Since the announcement brought a wave of signups, confirmation mails stop arriving every afternoon.", ""},
		{User, "PR builds stop evicting the main cache once they get their own key.", ""},
		{User, "Also please stop pasting whole logs into the answer.", "pref"},
		{User, "oh and stop writing changelog entries by hand.", "pref"},
		{User, "Stop committing the generated files.", "pref"},
		// A remark on the choice made explains it; a flag leaves work.
		{Assistant, "One thing worth saying about the choice itself, since you asked whether to go grblHAL instead: the reason FluidNC is the better fit here is that every setting lives in a YAML file, so a pin change never means reflashing.", "decision"},
		{Assistant, "Postgres is the better fit here because we need concurrent writers.", "decision"},
		{Assistant, "One more thing: the backup job has no retention yet.", "open"},
		// None of a thing seen in a test just reported is no rule; a
		// remedy said not to be the cause is no cause.
		{User, "Ran the same relief again: 3 hours, checked against a reference mark, under 0.02 mm off. No alarms.", ""},
		{User, "Keep lines under 80 characters. No emojis.", "pref"},
		{Assistant, "That isn't what caused this, but it's a margin we shouldn't be without.", ""},
		// What the agent would do before a launch is left to do.
		{Assistant, "With 149 of 212 missing an email today, I'd warn everyone before this goes live.", "open"},
		// A value held until someone decides, and where files arrive
		// (blind AQ).
		{Assistant, "You said Herr Wyss (the CFO) wants to look at the tolerance - I'll leave it at 5 until he decides.", "open"},
		{User, "Both banks drop camt.053 statements every morning into /srv/bank/inbox/<bank>/ on fibu01.", "env"},
		// Where a kind of thing is kept, said without a verb.
		{Assistant, "Migrations with goose in `db/migrations` (`make migrate-up`).", "env"},
		// A setup given by its label (brewery-fermenter-plc, once "FV1-FV8"
		// no longer read as a setting).
		{User, "Setup: eight 20 hl unitanks FV1-FV8, each with a glycol jacket on one 24 V solenoid valve and a PT100 in the thermowell.", "env"},
		{User, "Setup: nothing new.", ""}, // no number: no setting said
		// A change told with what it replaced is a choice, dotted names
		// and "I've" and all.
		{Assistant, "I've changed the workflow so the entity triplet is derived from catalog-info.yaml with yq rather than typed, which makes this mistake impossible.", "decision"},
		// Blind AT, opened in the round of 28 December: a setting the
		// agent reports with "I've", whatever its number measures; what
		// is done instead of what was turned down; a rule the user says
		// they care about; a site that is fine beside two with errors,
		// and a place that never shows anybody, are no choice or rule.
		{Assistant, "I've set the batch to 12 points per request (about 324 bytes) for every site — simpler than a per-vendor setting and the extra requests don't matter at our intervals.", "decision"},
		{Assistant, "I set the log level to 3 to see what happens.", ""},
		{Assistant, "Instead every missing clock-out lands on an exceptions report for the supervisor, who enters the real time; the shift isn't paid until then.", "decision"},
		{Assistant, "Instead, I'd poll every 60 s.", ""},
		{Assistant, "Instead of polling, we subscribe.", "decision,rejected"},
		{User, "One thing I care about: keep durations as integer minutes everywhere.", "pref"},
		{User, "Lincoln and Oak are full of errors since Friday, HHS is fine.", ""},
		{User, "Other patrons are fine.", ""},
		{User, "The pages must work without JavaScript — lots of our visitors are on old phones.", "pref"},
		{User, "Please not in appsettings.json, that file goes to every kiosk through Intune and it's in git.", "pref"},
		{User, "Logins work, checkouts work — except that every time Łucja Wróblewska scans her card the kiosk gets stuck.", ""},
		{User, "SQLite is fine for this, we tested it at 2k writes per second.", "decision"},
		{User, "Two complaints from Ingrid: ships being pushed in by tugs show as \"at berth\" too late or not at all, and berth 14 never shows anybody, even though the Finnlines ship was there all weekend.", ""},
		{User, "The UI must never show raw ids.", "pref"},
		// How the work is built, said after its reason or under a
		// design answer's label; a thing left unused on purpose; where
		// a service runs and which version a tool is.
		{Assistant, "Since the ETA has no year, I take the next occurrence from now (an ETA of 2 January seen on 30 December is next year); month 0 or day 0 means \"not available\" and the board shows a dash.", "decision"},
		{Assistant, "Since it crashed, I take the logs from /var/log.", ""},
		{Assistant, "Storage: positions go into hourly Parquet files, /data/ais/positions/YYYY/MM/DD/HH.parquet, and we query them with DuckDB — no database server to run.", "decision"},
		{Assistant, "Problem: the build at /srv/ci fails on arm64.", "root"},
		{Assistant, "The catch: the trigger has to exist first, and `labeld_ro` can't create triggers.", ""},
		{Assistant, "Before: first row 121 ms, full load 8.88 s, peak RSS 1.11 GiB.", ""},
		{Assistant, "I'm deliberately not using the navigational status — a quarter of the moored ships above still say \"under way using engine\" (status 0), crews rarely switch it to \"moored\".", "rejected"},
		{Assistant, "aisd runs on ais01, the Debian 12 VM, as aisd.service.", "env"},
		{Assistant, "DuckDB on ais01 is the 1.1.3 CLI.", "env"},
		{User, "The importer crashed on db02 again last night.", ""},
	} {
		if got := strings.Join(classify(tc.role, tc.text), ","); got != tc.want {
			t.Errorf("%s %q: %q, want %q", tc.role, tc.text, got, tc.want)
		}
	}
}

// TestReviewRuleByPronoun: a rule whose object is a pronoun for the
// sentence before ("Keep them under 72 characters.") is still the user's
// preference; asksThat/doThat make it a decision about the sentence
// before and lose the rule.
func TestRuleByPronoun(t *testing.T) {
	for _, tc := range []struct{ text, pref string }{
		{"Imports are grouped by module. Keep them sorted alphabetically.", "sorted alphabetically"},
		{"Commit subjects go in the imperative. Keep them under 72 characters.", "72 characters"},
		{"The new logger is in pkg/log. Use it for every new package.", "every new package"},
	} {
		a := &analysis{byPath: map[string]*fileUse{}, seen: map[string]bool{}}
		a.prose(User, 0, tc.text)
		if !strings.Contains(strings.Join(a.prefs, "|"), tc.pref) {
			t.Errorf("%q: preferences %q, decisions %q: the rule %q is lost", tc.text, a.prefs, a.decisions, tc.pref)
		}
	}
}

// TestNoRuleInTask: a short ask about what was just said ("Put it back
// in service.") and what someone never did ("never touched Spack") are no
// standing rule and no decision; a past "never" beside a rule leaves the
// rule (blind AQ's core memory). An imperative about the thing at hand
// ("put Caddy in front of it", the user trial's) is a decision.
func TestNoRuleInTask(t *testing.T) {
	for _, tc := range []struct{ text, pref string }{
		{"Dell swapped the DIMM on cn03. Put it back in service.", ""},
		{"The session notes are good. Write that down somewhere.", ""},
		{"I used EasyBuild at my last job, never touched Spack.", ""},
		{"I never touched the old box, and never touch it now either.", "never touch it now"},
		{"Never exceed 80 °C on the hotend.", "80 °C"},
		// The thing at hand makes a task (a decision), not a rule; what it
		// is for does not ("use tabs so the diffs stay small").
		{"Put Caddy in front of it so the family can watch from outside.", "-"},
		{"Use the staging key for this test so we don't burn quota.", "-"},
		{"Use tabs so the diffs stay small.", "Use tabs"},
	} {
		a := &analysis{byPath: map[string]*fileUse{}, seen: map[string]bool{}}
		a.prose(User, 0, tc.text)
		got := strings.Join(a.prefs, "|")
		if tc.pref == "-" {
			if got != "" || len(a.decisions) == 0 {
				t.Errorf("%q: preferences %q, decisions %q, want a decision", tc.text, a.prefs, a.decisions)
			}
			continue
		}
		if tc.pref == "" && (got != "" || len(a.decisions) > 0) {
			t.Errorf("%q: preferences %q, decisions %q, want none", tc.text, a.prefs, a.decisions)
		}
		if tc.pref != "" && !strings.Contains(got, tc.pref) {
			t.Errorf("%q: preferences %q, want the rule %q", tc.text, a.prefs, tc.pref)
		}
	}
}

// TestReviewJoinedBlockNotHowTo: a one-line block joined to the sentence
// that introduces it (6468da6) is output as often as a command: an
// assertion's message is no environment fact.
func TestJoinedBlockNotHowTo(t *testing.T) {
	in := "The failing assertion in the CI run is this one:\n\n```\nexpected 200, got 502\n```\n"
	for _, s := range prose.Sentences(in) {
		if got := strings.Join(classify(Assistant, s), ","); got != "" {
			t.Errorf("%q: %q, want nothing", s, got)
		}
	}
}

// TestRequestAndOpenItem: an instruction before pasted text is the
// request and only an intro to output goes; an open item after a long
// sentence keeps what it says (the second review of 11 December).
func TestRequestAndOpenItem(t *testing.T) {
	if got := request("Thanks. Add these env vars to .env.example and document them in the README:\n\nFOO=1\nBAR=2"); !strings.Contains(got, "Add these env vars to .env.example") {
		t.Errorf("request = %q", got)
	}
	if got := request("Jonas sent a file exported from Excel and check blows up with:\n\n```\nCSV::MalformedCSVError\n  from lib/check.rb:12\n```\n\nCan you fix it?"); strings.Contains(got, "blows up with:") {
		t.Errorf("request = %q: the intro to a pasted log stayed", got)
	}
	long := "I refactored the payment reconciliation job so that it reads settlements in pages of 500, matches them against the ledger by provider reference and amount, writes mismatches into the reconciliation_issues table with the raw payloads attached, and emails finance a daily digest of whatever is still unmatched at 07:00."
	a := analyze([]Turn{{Role: User, Text: "refactor the reconciliation job"}, {Role: Assistant, Text: long + " They still need a backfill for March, which I haven't run yet."}}, "", nil)
	if open := a.openPoints(); len(open) != 1 || !strings.Contains(open[0], "backfill for March") {
		t.Errorf("open %q", open)
	}
}

// TestDecisionReasonIts: the merits of the choice told with its
// possessive ("Its prediction keys let …") are the decision's reason.
func TestDecisionReasonIts(t *testing.T) {
	a := &analysis{byPath: map[string]*fileUse{}, seen: map[string]bool{}}
	a.prose(Assistant, 0, "I'd go with GAS. Its prediction keys let the owning client activate an ability at once and roll it back if the server disagrees.")
	if got := strings.Join(a.decisions, "|"); !strings.Contains(got, "GAS") || !strings.Contains(got, "prediction keys") {
		t.Errorf("decisions %q: the choice and its reason are apart", a.decisions)
	}
}

// TestOpenOnBoth: work left on "both" of what the sentence before named
// takes that sentence with it.
func TestOpenOnBoth(t *testing.T) {
	a := &analysis{byPath: map[string]*fileUse{}, seen: map[string]bool{}}
	a.prose(Assistant, 0, "One blocker: audit_log and legacy_events have no primary key. We need a replica identity on both before the initial sync.")
	if len(a.open) != 1 || !strings.Contains(a.open[0].text, "audit_log") {
		t.Errorf("open %+v: the item does not say on what", a.open)
	}
}

// TestOpenFlaggedShort: an item flagged in a few words ("One thing:
// actor reentrancy.") takes the sentence that says what is wrong (blind
// AE).
func TestOpenFlaggedShort(t *testing.T) {
	a := &analysis{byPath: map[string]*fileUse{}, seen: map[string]bool{}}
	a.prose(Assistant, 0, "One thing: actor reentrancy. Two requests for the same URL can both miss during the await and download twice.")
	if len(a.open) != 1 || !strings.Contains(a.open[0].text, "download twice") {
		t.Errorf("open %+v", a.open)
	}
}

// TestRequestSkipsGoAhead: a request that opens by agreeing ("ok makes
// sense, go on.") is what it asks after that; agreeing with a choice in
// it ("Yes, use Redis.") is part of what it asks.
func TestRequestSkipsGoAhead(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"ok makes sense, go on. fyi the local database is the queue-db service in docker compose.", "fyi the local database is the queue-db service in docker compose."},
		{"morning. did the double delivery test get written in the end? if not do it now", "did the double delivery test get written in the end? if not do it now"},
		{"Yes, use Redis. Also add a TTL of 5 minutes.", "Yes, use Redis. Also add a TTL of 5 minutes."},
		{"Thanks!", "Thanks!"},
		{"No. Keep the old parser.", "No. Keep the old parser."},
	} {
		if got := request(tc.in); got != tc.want {
			t.Errorf("request(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// TestPreferenceEmptied: a sentence its idiom empties ("No worries.")
// asks nothing and breaks nothing (blind AR's replay stopped at a
// session start on it).
func TestPreferenceEmptied(t *testing.T) {
	for _, s := range []string{"", " ", "No worries.", "No worries!"} {
		if got := preference(s); got != 0 {
			t.Errorf("preference(%q) = %v, want 0", s, got)
		}
	}
	preference("no worries, please go ahead") // what is left after the idiom is read, and nothing breaks
}

// TestPreferenceTellAsk: an ask to be told how something would be done
// "going forward" is a request (blind AS's zebra-label-print-service
// kept it as a core preference); a rule that asks to be told is one.
func TestPreferenceTellAsk(t *testing.T) {
	for _, s := range []string{
		"Please look around the repo and tell me how you'd render labels going forward.",
		"Read the config and explain to me what the sweep would do in the future.",
	} {
		if got := preference(s); got != 0 {
			t.Errorf("preference(%q) = %v, want 0", s, got)
		}
	}
	for _, s := range []string{
		"Always tell me what you are about to delete.",
		"From now on, tell me which tests you skipped.",
		"I'd like you to tell me why a test is skipped before you skip it.",
		"Please make sure to tell me if the schema changes.",
		"I want you to tell me whether the fixtures changed.",
	} {
		if preference(s) == 0 {
			t.Errorf("%q is no preference", s)
		}
	}
}

// TestPreferenceUnknowing: "Don't know …" with its "I" left out says
// what the speaker does not know, and forbids nothing (blind AY's organ
// console kept "Don't know the coil current, Alan will measure one on
// Thursday" as a preference that outlived the measurement); a rule after
// it still counts, and "Don't touch …" is one. A bare answer to a
// proposal ("Keep it, yes.") is no rule either; "Keep it short." is.
func TestPreferenceUnknowing(t *testing.T) {
	for _, s := range []string{
		"Don't know the coil current, Alan will measure one on Thursday.",
		"Don't think we need a driver change.",
		"Dunno the exact baud rate yet.",
		// A bare answer to a proposal (blind AY's organ console kept
		// "Keep it, yes" as a core preference).
		"Keep it, yes.",
		"Leave them.",
		"Yes, use that one then.",
	} {
		if got := preference(s); got != 0 {
			t.Errorf("preference(%q) = %v, want 0", s, got)
		}
	}
	for _, s := range []string{
		"Don't know why, but always run the host tests first.",
		"Don't touch the vendored code.",
		"Keep it short.",
		"Keep them sorted by date, always.",
	} {
		if preference(s) == 0 {
			t.Errorf("%q is no preference", s)
		}
	}
}

// TestAnalyzeAT: what blind AT's sessions said that a session's summary
// lost: an ask for a deliverable past the request's cut, a proposal
// opened by its topic with the reason after it, and a tool call's
// caption.
func TestAnalyzeAT(t *testing.T) {
	a := analyze([]Turn{{Role: User, Text: "5 min and 60 s it is. From now on please tag every Influx point with the building code, tag key bldg, the three-letter codes (LIN, OAK, HHS...), not the long names — the names change whenever a school gets renamed after somebody. The service will run as hvacwatch.service on fmvm03, it's an Ubuntu 22.04 VM the VMware guys made for us. And one more thing: I want a weekly CSV of zone temperatures per building that I can send to the principals on Monday morning."}}, "", nil)
	if !slices.ContainsFunc(a.requests, func(r string) bool { return strings.Contains(r, "weekly CSV") }) {
		t.Errorf("requests %q: the weekly CSV is lost", a.requests)
	}
	a = analyze([]Turn{
		{Role: Assistant, Text: "The preview is at /export/preview.\n\nAbout uploading: I'd leave the upload to ADP manual — Patty uploads the file herself. ADP's API would need a partner contract that costs more than the ten minutes it saves every two weeks."},
		{Role: User, Text: "Agreed, manual upload."},
	}, "", nil)
	if len(a.decisions) != 1 || !strings.HasPrefix(a.decisions[0], "Leave the upload to ADP manual") || !strings.Contains(a.decisions[0], "partner contract") {
		t.Errorf("decisions %q, want the upload left manual with both reasons", a.decisions)
	}
	a = analyze([]Turn{
		{Role: User, Text: "Stop rounding. Pay exact minutes."},
		{Role: Assistant, Text: "Tests (the rounding tests now expect exact minutes):"},
		{Role: Tool, Tool: "Bash", Input: "sh scripts/test.sh", Text: "ok"},
	}, "", nil)
	if slices.ContainsFunc(a.decisions, func(d string) bool { return strings.HasPrefix(d, "Tests") }) {
		t.Errorf("decisions %q: a caption is no decision", a.decisions)
	}
}

// TestOutcomeRestatesRule: an outcome that only says the agent follows
// the rule the user just stated is the rule said again (ais-harbour-traffic).
func TestOutcomeRestatesRule(t *testing.T) {
	a := analyze([]Turn{
		{Role: User, Text: "Please keep MMSI as a u32 everywhere — I don't want to see it as a string anywhere in this code base."},
		{Role: Assistant, Text: "Positions go into hourly Parquet files. MMSI is a `u32` in every struct, as you asked."},
	}, "", nil)
	if len(a.prefs) == 0 {
		t.Fatalf("no preference read")
	}
	if slices.ContainsFunc(a.outcomes, func(o string) bool { return strings.Contains(o, "as you asked") }) {
		t.Errorf("outcomes %q: the rule said again", a.outcomes)
	}
	if !slices.ContainsFunc(a.outcomes, func(o string) bool { return strings.Contains(o, "Parquet") }) {
		t.Errorf("outcomes %q: the rest of the outcome is lost", a.outcomes)
	}
}

// The review of the round of 28 December: what its new rules misread, each
// mended.
// TestReviewClassify: sentences the rules of 79467fac, bb43a394 and
// b8c1e7ca file under the wrong kind (or under none).
func TestReviewed28Classify(t *testing.T) {
	for _, tc := range []struct {
		role Role
		text string
		want string
	}{
		// cue.SetDone: a count the work brought down is a progress report, not a setting chosen.
		{Assistant, "I've reduced the failing tests to 3.", ""},
		{Assistant, "I've lowered the open lint warnings to 14.", ""},
		// cue.SetDone: a value set to try something out is no choice, "I've" or not ("I set the log level to 3 to see what happens" is "").
		{Assistant, "I've set the worker count to 1 to see if the race goes away.", ""},
		// cue.ChoiceAfterReason: "since <time>, we <verb>" tells a measurement or a fault, not a choice.
		{Assistant, "Since the last deploy, we use about 2 GB more memory per pod.", ""},
		{Assistant, "Since Tuesday, we drop about 5% of the incoming webhooks.", ""},
		// cue.ChoiceAfterReason: an assumption the agent makes for lack of access is no design decision.
		{Assistant, "Since I don't have access to production, I assume the config matches staging.", ""},
		// cue.ChoiceAfterReason: what the trace shows the code doing (the bug being diagnosed) is no decision.
		{Assistant, "As you can see in the trace, we read the whole file into memory before parsing.", ""},
		// designAnswer: a topic label over a measurement is a report, as "On compute: …" is (b8c1e7ca only caught the preposition).
		{Assistant, "Performance: the query takes 4.2 s on the 10M-row table.", ""},
		{Assistant, "Startup: the service takes 2.3 s cold and 0.4 s warm.", ""},
		// insteadDone: "Instead, <what happened>" after an expectation is the symptom, not what is done in place of a rejected option.
		{Assistant, "Instead, the job hangs at 99% and never exits.", ""},
		{Assistant, "Instead it returns an empty list, so the UI shows nothing.", ""},
		// cue.OnHost: a load figure on a numbered host is a symptom, not an environment fact.
		{Assistant, "Memory sits at 90% on web03 since the last deploy.", ""},
		// cue.OnHost: what the user is running right now is a passing activity, not where a service lives.
		{User, "I'm running the load test on perf01 right now.", ""},
		// telling.troubleBefore: "error"/"down" in the topic lead-in is no trouble elsewhere; the choice was a decision before.
		{User, "For error handling, plain errors.Is is fine.", "decision"},
		{User, "For the timeout errors, plain exponential backoff is fine.", "decision"},
		{Assistant, "When the primary is down, plain read replicas are fine for the dashboard.", "decision"},
		// telling.Fault ("never lists"): a rule the user asks for is no fault; it was a preference before.
		{User, "Please make sure the API never lists soft-deleted records.", "pref"},
		// cue.DeliberatelyNot: the same turn-down with a verb outside its short list, or in the past tense, is missed.
		{Assistant, "I'm deliberately not logging the request body — it contains card numbers.", "rejected"},
		{Assistant, "We're intentionally not retrying on 4xx responses.", "rejected"},
		{Assistant, "I deliberately didn't use the navigational status — crews rarely switch it.", "rejected"},
	} {
		if got := strings.Join(classify(tc.role, tc.text), ","); got != tc.want {
			t.Errorf("%s %q: %q, want %q", tc.role, tc.text, got, tc.want)
		}
	}
}

// TestReviewStepCaption: stepNamed now skips any one-line message that
// ends in a colon before a tool call, so a choice or a cause said as the
// call's lead-in is lost (both were filed before).
func TestReviewed28StepCaption(t *testing.T) {
	a := analyze([]Turn{
		{Role: User, Text: "The cache keeps losing entries on restart, can you fix it?"},
		{Role: Assistant, Text: "I'll move the cache from memory to SQLite so it survives restarts:"},
		{Role: Tool, Tool: "Edit", Input: "cache.go", Text: "ok"},
	}, "", nil)
	if !slices.ContainsFunc(a.decisions, func(d string) bool { return strings.Contains(d, "SQLite") }) {
		t.Errorf("decisions %q: the move to SQLite is lost", a.decisions)
	}
	a = analyze([]Turn{
		{Role: User, Text: "The orders page takes 9 seconds to load, can you look?"},
		{Role: Assistant, Text: "The cause is a missing index on orders.customer_id, adding it:"},
		{Role: Tool, Tool: "Edit", Input: "migrations/0042.sql", Text: "ok"},
	}, "", nil)
	if len(a.rootCauses) == 0 {
		t.Errorf("root causes %q: the missing index is lost", a.rootCauses)
	}
}

// TestReviewAcceptWhy: accept now appends the sentence after a proposal
// even when its dash already gave the reason, so an unrelated remark
// becomes part of the decision.
func TestReviewed28AcceptWhy(t *testing.T) {
	a := analyze([]Turn{
		{Role: Assistant, Text: "I'd keep the sessions in Redis — it's already deployed for the job queue. The CSS build on main is broken since yesterday's merge, by the way."},
		{Role: User, Text: "Agreed, Redis."},
	}, "", nil)
	if slices.ContainsFunc(a.decisions, func(d string) bool { return strings.Contains(d, "CSS build") }) {
		t.Errorf("decisions %q: the broken CSS build is no reason for Redis", a.decisions)
	}
}

// TestReviewUnrestated: an outcome that says "as you said" and shares
// two words with a preference is dropped, though it reports new work.
func TestReviewed28Unrestated(t *testing.T) {
	a := analyze([]Turn{
		{Role: User, Text: "Please don't touch the billing tables without asking me first."},
		{Role: Assistant, Text: "As you said, the billing tables had a stale index on invoice_date; I rebuilt it and the monthly report dropped from 40 s to 2 s."},
	}, "", nil)
	if !slices.ContainsFunc(a.outcomes, func(o string) bool { return strings.Contains(o, "stale index") }) {
		t.Errorf("outcomes %q: the index rebuild is lost", a.outcomes)
	}
}

// TestReviewWantsThing: a sentence past the request's cut that says what
// the team needs (a rule, or the user's own task) is filed as a request
// for work.
func TestReviewed28WantsThing(t *testing.T) {
	long := "The nightly import from the partner SFTP failed again with a checksum mismatch on two of the files, and the on-call person had to re-run it by hand at 3am, which is the third time this month, so please find out what is going on with the checksum step and make it retry on its own. "
	for _, tail := range []string{
		"We need two approvals on every pull request in this repo.",
		"I need some time to talk to the partner about their upload window first.",
	} {
		a := analyze([]Turn{{Role: User, Text: long + tail}}, "", nil)
		if slices.Contains(a.requests, tail) {
			t.Errorf("requests %q: %q asks for no work", a.requests, tail)
		}
	}
}

// TestDecisionAntecedent: a decision on what a pronoun stands for keeps
// the label that names it, before its colon in the sentence ("the mail
// catcher: replace it with smtp4dev") or opening the proposal's
// paragraph ("Developer fields: … My suggestion is to skip them for
// now"), also when the proposal was the message before the segment the
// answer opens; the answer itself ("Skip them, yes.") is no item (blind
// AY's FIT parser kept "Skip them for now" and "Skip them, yes" as core
// decisions naming nothing).
func TestDecisionAntecedent(t *testing.T) {
	for in, want := range map[string]string{
		"Also, the mail catcher: replace it with smtp4dev, it shows the raw MIME which I need for the reset templates.": "The mail catcher: replace it with smtp4dev",
		"For the recompute job: let's use a fake clock.":                                                                "Use a fake clock",
	} {
		if got := decisionTitle(in); got != want {
			t.Errorf("decisionTitle(%q) = %q, want %q", in, got, want)
		}
	}
	before := "The Karoo writes compressed-timestamp headers.\n\nDeveloper fields: the Karoo files have Connect IQ fields from two apps. My suggestion is to skip them for\nnow — the definition tells us their sizes, so we can step over them safely — and decode them once\nsomeone needs one.\n"
	turns := []Turn{
		{Role: User, Text: "Skip them, yes. Fuzzing next time?"},
		{Role: Assistant, Text: "Committed. Developer fields are skipped by size."},
	}
	res, err := Extractive{}.Summarize(context.Background(), Request{Segment: Segment{Turns: turns, Before: before}})
	if err != nil {
		t.Fatal(err)
	}
	var titles []string
	for _, it := range res.Items {
		titles = append(titles, it.Title)
	}
	if len(titles) != 1 || !strings.HasPrefix(titles[0], "Developer fields: skip them for now") {
		t.Errorf("items %q, want one decision titled \"Developer fields: skip them for now …\"", titles)
	}
}

// TestDecisionAntecedentSentence: a proposal that names what it takes by
// "both" alone ("I'd add both. OK?") is decided as the sentence before
// it, which says what both are; the symptom it follows ("makes it
// recurse forever") is no decision of its own (ocaml-dns-resolver kept
// "Decision: Add both.").
func TestDecisionAntecedentSentence(t *testing.T) {
	turns := []Turn{
		{Role: User, Text: "dune test hangs for 10s and then the qcheck property for read_name fails. what's up"},
		{Role: Assistant, Text: "It found a real bug. A packet with `C0 0C` at offset 12 makes it recurse forever, which in the test shows as the 10 s timeout.\n\nThe fix is a hop limit on pointers (and, strictly, pointers may only point\nbackwards). I'd add both. OK?"},
		{Role: User, Text: "go ahead"},
		{Role: Assistant, Text: "Adding a hop counter and the backwards-only rule."},
	}
	res, err := Extractive{}.Summarize(context.Background(), Request{Segment: Segment{Turns: turns}, First: true})
	if err != nil {
		t.Fatal(err)
	}
	var decisions []string
	for _, it := range res.Items {
		if it.Kind == Decision {
			decisions = append(decisions, it.Title)
		}
	}
	if len(decisions) != 1 || !strings.HasPrefix(decisions[0], "The fix is a hop limit on pointers") {
		t.Errorf("decisions %q, want one, the hop limit", decisions)
	}
}
