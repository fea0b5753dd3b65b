package digest

import "testing"

// TestEditCommand: commands that edit files are told apart from those
// that run something again.
func TestEditCommand(t *testing.T) {
	for b, want := range map[string]bool{
		"`sed -i -e 's#debezium/connect:2.5#debezium/connect:2.7.3.Final#' docker-compose.yml`": true,
		"`mkdir -p deploy/connect && git mv connectors/orders-source.json deploy/connect/`":     true,
		"`cd web && git mv src/old.ts src/new.ts`":                                              true,
		"`sh scripts/smoke.sh`":      false,
		"`make test` ×3: exit 2, ok": false,
		"`sed -n 1,20p Makefile`":    false,
		"`mvn -q test`":              false,
		"`printf 'model StripeEvent {}' >> prisma/schema.prisma`": true,
		"`cat > .env.local <<'EOF'`":                              true,
		"`echo hello`":                                            false,
		"`cat README.md`":                                         false,
		"`cp .env.example .env && docker compose up -d`":          false,
		"`sed -i '/Esc drops/d' TODO.md && cat TODO.md`":          true,
		"`rm ops/crontab.billing && ls ops ops/rundeck`":          true,
		"`ls ops && cat ops/crontab.billing`":                     false,
		"`sed -i 's/500/2000/' Job.java && ./gradlew test`":       false,
		"`sed -i 's/a/b/' x.yaml && sed -i 's/c/d/' y.json && …`": true, // the steps Elide left out
	} {
		if got := EditCommand(b); got != want {
			t.Errorf("EditCommand(%q) = %v, want %v", b, got, want)
		}
	}
}

// TestScaffoldCommand: loops, inline scripts and printed text are
// one-offs; a tool run, even with arguments, is not.
func TestScaffoldCommand(t *testing.T) {
	for b, want := range map[string]bool{
		"`for run in 1 2 3; do …`":                                                   true,
		"`python3 -c \"import sqlite3, os; db = sqlite3.connect(…`":                  true,
		"`python3 - <<'EOF' …`":                                                      true,
		"`printf 'HTTP/2 200\\ncontent-type: text/plain' …`":                         true,
		"`node -e 'console.log(1)'`":                                                 true,
		"`python3 scripts/seed.py --target local`":                                   false,
		"`sh scripts/test.sh`":                                                       false,
		"`sam local start-api --docker-network cragbook-local` ×2: ok":               false,
		"`cat config.yaml`":                                                          false,
		"`echo \"$CR_PAT\" | docker login ghcr.io -u octo --password-stdin`: ok":     false,
		"`printf 'y\\n' | npx prisma migrate reset`: ok":                             false,
		"`while ! pg_isready -h localhost; do sleep 1; done && npm run migrate`: ok": false,
		"`for i in 1 2 3; do curl -s localhost:8080/health; done`":                   true,
	} {
		if got := ScaffoldCommand(b); got != want {
			t.Errorf("ScaffoldCommand(%q) = %v, want %v", b, got, want)
		}
	}
}

// TestStatesValue: a bullet with a number, code or a named host states
// what holds; one that only tells what happened does not.
func TestStatesValue(t *testing.T) {
	for b, want := range map[string]bool{
		"WAN is PPPoE on wan.6, the ISP's VLAN 6.":                   true,
		"Desk phones use `allow=!all,g722,alaw`.":                    true,
		"The EDI host is edi01.internal.":                            true,
		"Found and fixed, the tests pass.":                           false,
		"The early return on Monday was the estimate, not the pack.": false,
	} {
		if got := StatesValue(b); got != want {
			t.Errorf("StatesValue(%q) = %v, want %v", b, got, want)
		}
	}
}

// TestFilesLineOnce: a file two segments changed is named once (found
// trying cairn as a user: "main.go, server_test.go, main.go").
func TestFilesLineOnce(t *testing.T) {
	got := FilesLine([]string{"main.go (edited ×2)", "server_test.go (written)", "main.go (edited ×2: `:8080` → `:8090`)", "README.md (edited)"})
	if want := "- Files changed: main.go, server_test.go, README.md\n"; got != want {
		t.Errorf("FilesLine = %q, want %q", got, want)
	}
}

// TestCutInSentence: a title cut inside its body's first sentence is
// told from one that is the sentence, or a label before a colon.
func TestCutInSentence(t *testing.T) {
	for _, tc := range []struct {
		title, body string
		want        bool
	}{
		{"Copy from the replica", "Copy from the replica, the primary runs at 70% CPU at peak.", true},
		{"Brightmart's guide wants GS1-128 pallet labels", "Brightmart's guide wants GS1-128 pallet labels with SSCC-18.", true},
		{"Backups go to the NAS", "Backups go to the NAS — the cloud bucket costs too much.", true},
		{"Backups go to the NAS", "Backups go to the NAS. The cloud bucket costs too much.", false},
		{"About expected files", "About expected files: show me the diff first.", false},
		{"Backups go to the NAS", "Nightly, backups go to the NAS.", false},
		{"Use Postgres", "Use Postgres", false},
		{"Use Postgres…", "Use Postgres 16 for the queue.", true},
		{"Run make", "Run make deploy first.", true},
		{"Run make", "Run make. Deploy first.", false},
	} {
		if _, got := CutInSentence(tc.title, tc.body); got != tc.want {
			t.Errorf("CutInSentence(%q, %q) = %v, want %v", tc.title, tc.body, got, tc.want)
		}
	}
}

// An item's body that repeats its title is shown without it, also when a
// word joined it to what was said before: the rule's title is its
// clause.
func TestItemTextRepeatedTitle(t *testing.T) {
	for _, tc := range []struct{ title, body, want string }{
		{"Use the by-id paths when you create it", "and use the by-id paths when you create it, never sda/sdb. write the commands and the dataset layout.", "never sda/sdb. write the commands and the dataset layout."},
		{"Use Postgres", "Use Postgres: it is already deployed.", "it is already deployed."},
		{"No ORMs", "but no ORMs.", ""},
		{"Use Postgres", "and Postgres is already deployed.", "and Postgres is already deployed."},
		{"Use the cache", "and use the cached copy.", "and use the cached copy."},
	} {
		if _, got := ItemText(tc.title, tc.body); got != tc.want {
			t.Errorf("ItemText(%q, %q) body = %q, want %q", tc.title, tc.body, got, tc.want)
		}
	}
}
