package recall

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/cairn-mem/cairn/internal/memory"
	"github.com/cairn-mem/cairn/internal/model"
)

// What a newer session quotes under "**No longer true**" leaves the pack
// from every part of an older session that shows it: a root cause, a
// rejected alternative, an open item, a decision; what it did not quote
// stays, and the quotes themselves are never shown.
func TestPackUntrue(t *testing.T) {
	m, _ := newTestMemory(t)
	const (
		cause    = "Root causes**\n- The importer read the CSV as Latin-1, so every umlaut came out as two characters."
		rejected = "Rejected**\n- Pandas was rejected: the container image must stay under 200 MB."
		open     = "Open**\n- Ask Priya whether the refund SLA is 5 or 10 business days."
		decision = "Decisions**\n- Deploys go out every Monday at 09:00 from the release branch."
		kept     = "- Imports run nightly at 02:00 from the SFTP drop."
	)
	writeSessions(t, m, map[string]string{}, []testSession{
		{"0ld00000-0001", "01", "", "**Request**\n- Fix the importer's umlauts.\n\n**" + cause + "\n\n**" + rejected + "\n\n**" + decision + "\n" + kept + "\n\n**" + open + "\n"},
		{"new00000-0002", "02", "", "**Request**\n- Move deploys to Fridays and switch to pandas.\n\n**Outcome**\n- Deploys go out on Fridays now; the image limit is gone, so pandas is in.\n\n**No longer true**\n" +
			"- The importer read the CSV as Latin-1, so every umlaut came out as two characters.\n" +
			"- Pandas was rejected: the container image must stay under 200 MB.\n" +
			"- Ask Priya whether the refund SLA is 5 or 10 business days.\n" +
			"- Deploys go out every Monday at 09:00 from the release branch.\n"},
	})
	checkShows(t, packText(t, m),
		[]string{"Latin-1", "Pandas was rejected", "Ask Priya", "every Monday", "No longer true"},
		[]string{"Imports run nightly at 02:00", "Fix the importer's umlauts", "Deploys go out on Fridays now"})
}

// packText is the pack of m at a budget of 2,000 tokens.
func packText(t *testing.T, m *memory.Memory) string {
	t.Helper()
	p, err := Context(context.Background(), m, ContextOptions{Budget: 2000})
	if err != nil {
		t.Fatal(err)
	}
	return p.Text
}

// checkShows checks that pack shows none of gone and all of stays.
func checkShows(t *testing.T, pack string, gone, stays []string) {
	t.Helper()
	for _, g := range gone {
		if strings.Contains(pack, g) {
			t.Errorf("the pack shows %q:\n%s", g, pack)
		}
	}
	for _, s := range stays {
		if !strings.Contains(pack, s) {
			t.Errorf("the pack lacks %q:\n%s", s, pack)
		}
	}
}

// A session with nothing else to show (an `outdated` call right after
// /clear) takes no place in the pack, but what it quotes is taken back
// from the sessions older than it, not from a newer one that says it
// again.
func TestPackUntrueWithoutSubstance(t *testing.T) {
	m, _ := newTestMemory(t)
	const (
		monday  = "Deploys go out every Monday morning from the release branch."
		imports = "Imports run nightly at 02:00 from the SFTP drop."
	)
	sessions := []testSession{
		{"0ld00000-0001", "01", "", "**Request**\n- Write the deploy runbook.\n\n**Decisions**\n- " + monday + "\n\n**Environment**\n- " + imports + "\n- The runbook is in docs/deploy.md.\n"},
		{"c1ea0000-0002", "02", "", "**No longer true**\n- " + monday + "\n- " + imports + "\n"},
		{"new00000-0003", "03", "", "**Request**\n- Check the SFTP drop.\n\n**Outcome**\n- " + imports + "\n"},
	}
	writeSessions(t, m, map[string]string{}, sessions)
	for _, newest := range []int{2, 1} { // the quotes between two sessions, then newest of all
		if newest == 1 {
			chtimes(t, m, "sessions/"+sessions[2].id, time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC))
		}
		text := packText(t, m)
		for _, gone := range []string{"every Monday", "No longer true", "c1ea0000"} {
			if strings.Contains(text, gone) {
				t.Errorf("newest %s: the pack shows %q:\n%s", sessions[newest].id, gone, text)
			}
		}
		stays := []string{"docs/deploy.md"}
		if newest == 2 {
			stays = append(stays, imports)
		}
		for _, s := range stays {
			if !strings.Contains(text, s) {
				t.Errorf("newest %s: the pack lacks %q:\n%s", sessions[newest].id, s, text)
			}
		}
	}
}

// A session's heading is its title, its first request cut short: once a
// newer session quotes that request, the heading says what still holds
// of the session instead.
func TestPackUntrueHeading(t *testing.T) {
	m, _ := newTestMemory(t)
	const monday = "Deploys go out every Monday morning from the release branch, please write the runbook."
	writeSessions(t, m, map[string]string{}, []testSession{
		{"0ld00000-0001", "01", "Deploys go out every Monday morning from the release…", "**Request**\n- " + monday + "\n\n**Outcome**\n- The runbook is in docs/deploy.md.\n\n**Environment**\n- Imports run nightly at 02:00 from the SFTP drop.\n"},
		{"new00000-0002", "02", "We ship on Fridays after the code freeze now", "**Request**\n- We ship on Fridays after the code freeze now.\n\n**Outcome**\n- Updated the runbook for Fridays.\n\n**No longer true**\n- " + monday + "\n"},
	})
	text := packText(t, m)
	if strings.Contains(text, "every Monday") || !strings.Contains(text, "### The runbook is in docs/deploy.md") || !strings.Contains(text, "Imports run nightly") {
		t.Errorf("pack:\n%s", text)
	}
}

// What a session with nothing else to show quotes takes back no core item:
// neither one written after the quote (the fact holds again) nor one of
// that session's own. Consolidation retired the items it titled when the
// quote was written.
func TestPackUntrueWithoutSubstanceCore(t *testing.T) {
	ctx := context.Background()
	m, _ := newTestMemory(t)
	const (
		monday = "Deploys go out every Monday morning from the release branch"
		vet    = "Run go vet before every commit"
	)
	day := func(d int) time.Time { return time.Date(2026, 3, d, 9, 0, 0, 0, time.UTC) }
	writeSessions(t, m, map[string]string{}, []testSession{
		{"0ld00000-0001", "01", "", "**Request**\n- Write the deploy runbook.\n\n**Outcome**\n- The runbook is in docs/deploy.md.\n"},
		{"c1ea0000-0002", "02", "", "**No longer true**\n- " + monday + ".\n- " + vet + ".\n"},
		{"new00000-0003", "04", "", "**Request**\n- Check the SFTP drop.\n\n**Outcome**\n- Imports run nightly at 02:00 from the SFTP drop.\n"},
	})
	later := model.NewItem(model.Fact, monday, day(3)) // said again after the quote
	own := model.NewItem(model.Preference, vet, day(2))
	own.Session = "c1ea0000-0002"
	for _, it := range []*model.Item{later, own} {
		if _, err := m.Remember(ctx, it); err != nil {
			t.Fatal(err)
		}
	}
	text := packText(t, m)
	for _, stays := range []string{monday, vet, "Imports run nightly"} {
		if !strings.Contains(text, stays) {
			t.Errorf("the pack lacks %q:\n%s", stays, text)
		}
	}
}
