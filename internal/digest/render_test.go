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
	} {
		if got := EditCommand(b); got != want {
			t.Errorf("EditCommand(%q) = %v, want %v", b, got, want)
		}
	}
}
