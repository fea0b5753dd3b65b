package recall

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/cairn-mem/cairn/internal/memory"
	"github.com/cairn-mem/cairn/internal/model"
	"github.com/cairn-mem/cairn/internal/recall/derived"
)

// The pack cache changes nothing a pack shows: the pack made from it
// equals the one made without it, a pack of the same inputs computes
// nothing (the file is not written again), and a damaged cache is said
// in one line and rebuilt.
func TestPackCache(t *testing.T) {
	ctx := context.Background()
	m, w := reopen(t, projectMemory(t))
	name := m.StatePath(derived.File)
	packText := func() string {
		t.Helper()
		p, err := Context(ctx, m, ContextOptions{Budget: 1500})
		if err != nil {
			t.Fatal(err)
		}
		return p.Text
	}
	fresh := func() string {
		t.Helper()
		if err := os.Remove(name); err != nil && !errors.Is(err, os.ErrNotExist) {
			t.Fatal(err)
		}
		return packText()
	}

	want := fresh()
	fi, err := os.Stat(name)
	if err != nil {
		t.Fatalf("no cache after a pack: %v", err)
	}
	if fi.Mode().Perm() != 0o600 {
		t.Errorf("cache mode %v, want 0600", fi.Mode().Perm())
	}
	data, _ := os.ReadFile(name)
	if got := packText(); got != want {
		t.Errorf("pack from the cache differs:\n%s\nwant:\n%s", got, want)
	}
	if again, _ := os.ReadFile(name); !bytes.Equal(again, data) {
		t.Error("a pack of the same inputs wrote the cache again")
	}
	if l := w.take(); len(l) != 0 {
		t.Errorf("warnings: %q", l)
	}

	// Damaged: a flipped byte in the answers, then a file cut short.
	for _, damage := range [][]byte{
		append(slices.Clone(data[:len(data)-1]), data[len(data)-1]^0xff),
		data[:len("cairn-packcache 1\n")+5],
	} {
		if err := os.WriteFile(name, damage, 0o600); err != nil {
			t.Fatal(err)
		}
		if got := packText(); got != want {
			t.Errorf("pack from a damaged cache differs:\n%s\nwant:\n%s", got, want)
		}
		if l := w.take(); len(l) != 1 || !strings.Contains(l[0], "damaged") {
			t.Errorf("warnings %q, want one saying the cache is damaged", l)
		}
		if again, _ := os.ReadFile(name); !bytes.Equal(again, data) {
			t.Error("the damaged cache was not rebuilt")
		}
	}

	// A new core item changes the inputs: the answers are computed again,
	// and agree with a pack made from nothing.
	it := model.NewItem(model.Fact, "The API listens on port 9090 now", m.Now())
	it.Body, it.Importance = "Moved from 8081 for the new load balancer.", 0.95
	if _, err := m.Remember(ctx, it); err != nil {
		t.Fatal(err)
	}
	got := packText()
	if again, _ := os.ReadFile(name); bytes.Equal(again, data) {
		t.Error("the cache was not made again for the new inputs")
	}
	if want := fresh(); got != want {
		t.Errorf("pack after a change differs from one made without the cache:\n%s\nwant:\n%s", got, want)
	}
	if !strings.Contains(got, "9090") {
		t.Errorf("the new item is not in the pack:\n%s", got)
	}
}

// A core item a newer one retires is asked about only when the pack gets
// to it, and then neither shown nor named or listed among what was left
// out for room, at any budget.
func TestRetiredItemNeverShownOrNamed(t *testing.T) {
	t.Parallel()
	m, _ := newTestMemory(t)
	files := map[string]string{}
	add := func(n int, title string, imp float64, day int) {
		it := model.NewItem(model.Fact, title, time.Date(2026, 3, day, 10, 0, 0, 0, time.UTC))
		it.ID = fmt.Sprintf("01JQ%020d%02d", 0, n)
		it.Importance = imp
		data, err := it.Marshal()
		if err != nil {
			t.Fatal(err)
		}
		files[it.Path()] = string(data)
	}
	add(1, "The API listens on port 8080", 0.95, 2)
	add(2, "The API listens on port 8081 now, moved from 8080 for the metrics exporter", 0.5, 6)
	for i := range 40 {
		add(10+i, fmt.Sprintf("Worker pool %d drains the %s queue", i, strings.Repeat("x", i%7+3)), 0.7, 3)
	}
	// A session between the two items, so that one is newer.
	id := "5e551011-0004"
	files["sessions/"+id+"/session.yaml"] = "schema: 1\nid: " + id + "\nagent: claude-code\nstatus: ended\ntitle: \"Tune the worker pools\"\nprompts: 2\nturns: 20\nstarted: 2026-03-04T09:00:00Z\n"
	files["sessions/"+id+"/summary.md"] = "---\nsession: " + id + "\n---\n## Segment 1\n\n**Request**\n- Tune the worker pools.\n\n**Outcome**\n- Each pool drains its own queue now.\n"
	writeFiles(t, m, files)
	for _, budget := range []int{120, 300, 600, 2000, 20000} {
		p, err := Context(context.Background(), m, ContextOptions{Budget: budget})
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(p.Text, "port 8080”") || strings.Contains(p.Text, "**The API listens on port 8080**") {
			t.Errorf("budget %d: the retired item is shown or named:\n%s", budget, p.Text)
		}
		for _, l := range p.LeftOut {
			if l.Title == "The API listens on port 8080" {
				t.Errorf("budget %d: the retired item is listed as left out", budget)
			}
		}
		if budget == 20000 && !strings.Contains(p.Text, "port 8081 now") {
			t.Errorf("budget %d: the newer item is missing:\n%s", budget, p.Text)
		}
	}
}

// A core item that states work a newer session did is not named among
// what was left out for room either: it is history, not a memory the
// pack had no room for.
func TestDoneItemNotNamed(t *testing.T) {
	t.Parallel()
	m, _ := newTestMemory(t)
	files := map[string]string{}
	add := func(n int, title, session string, imp float64, day int) {
		it := model.NewItem(model.Fact, title, time.Date(2026, 3, day, 10, 0, 0, 0, time.UTC))
		it.ID = fmt.Sprintf("01JQ%020d%02d", 0, n)
		it.Importance, it.Session = imp, session
		data, err := it.Marshal()
		if err != nil {
			t.Fatal(err)
		}
		files[it.Path()] = string(data)
	}
	older, newer := "5e551011-0001", "5e551011-0002"
	add(1, "The reindex script still has to run against the staging kvstore", older, 0.95, 2)
	for i := range 40 {
		add(10+i, fmt.Sprintf("Worker pool %d drains the %s queue", i, strings.Repeat("x", i%7+3)), "", 0.7, 3)
	}
	writeSessions(t, m, files, []testSession{
		{older, "02", "Index posts by date", "**Request**\n- Index posts by date.\n\n**Open**\n- The reindex script still has to run against the staging kvstore.\n"},
		{newer, "05", "Run the reindex", "**Request**\n- Run the reindex against the staging kvstore.\n\n**Outcome**\n- Done: the reindex ran against the staging kvstore, every post is indexed.\n"},
	})
	for _, budget := range []int{200, 400, 600, 800, 1200} {
		p, err := Context(context.Background(), m, ContextOptions{Budget: budget})
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(p.Text, "The reindex script still has to run") {
			t.Errorf("budget %d: the done to-do is shown or named:\n%s", budget, p.Text)
		}
	}
}

// A core item whose title was cut inside its body's first sentence is
// retired by what retires that sentence: the title alone ("… with 25
// threads that serves every") lacks the words a newer statement shares
// with it, and the rest of the sentence ("queue, and DB_POOL is 25")
// says nothing of the change alone.
func TestCutTitleRetiredWithItsSentence(t *testing.T) {
	t.Parallel()
	m, _ := newTestMemory(t)
	files := map[string]string{}
	older, newer := "5e551011-0011", "5e551011-0012"
	it := model.NewItem(model.Fact, "Background jobs run in one worker container with 25 threads that serves every", time.Date(2026, 3, 2, 10, 0, 0, 0, time.UTC))
	it.ID = fmt.Sprintf("01JQ%020d%02d", 0, 1)
	it.Importance, it.Session = 0.9, older
	it.Body = "Background jobs run in one worker container with 25 threads that serves every queue, and the pool size is 25 to match."
	data, err := it.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	files[it.Path()] = string(data)
	// Workers and threads are what this memory speaks of everywhere.
	for i, w := range []string{"mail", "push", "media", "search", "import", "export", "thumbnail", "digest"} {
		f := model.NewItem(model.Fact, fmt.Sprintf("The %s worker's threads log to the %s channel", w, w), time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC))
		f.ID = fmt.Sprintf("01JQ%020d%02d", 0, 10+i)
		data, err := f.Marshal()
		if err != nil {
			t.Fatal(err)
		}
		files[f.Path()] = string(data)
	}
	writeSessions(t, m, files, []testSession{
		{older, "02", "Overview of the jobs", "**Request**\n- Write an overview of the jobs.\n\n**Outcome**\n- Overview written to runbooks/overview.md.\n"},
		{newer, "05", "Split the workers", "**Request**\n- Split the workers by queue.\n\n**Outcome**\n- `worker-pull`: pull and scheduler, 10 threads. The scheduler queue must only ever be worked by one process.\n"},
	})
	p, err := Context(context.Background(), m, ContextOptions{Budget: 2000})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(p.Text, "25 threads") {
		t.Errorf("the retired sentence is shown:\n%s", p.Text)
	}
	if !strings.Contains(p.Text, "worker-pull") {
		t.Errorf("the newer statement is missing:\n%s", p.Text)
	}
}

// A core item whose title leads its sentence in, up to a colon, goes
// when what follows the colon is retired: the title alone says nothing.
func TestLeadTitleRetiredWithItsSentence(t *testing.T) {
	t.Parallel()
	m, _ := newTestMemory(t)
	files := map[string]string{}
	older, newer := "5e551011-0031", "5e551011-0032"
	it := model.NewItem(model.Fact, "Last night settles the trade-off I weighed before", time.Date(2026, 3, 2, 10, 0, 0, 0, time.UTC))
	it.ID = fmt.Sprintf("01JQ%020d%02d", 0, 1)
	it.Importance, it.Session = 0.9, older
	it.Body = "Last night settles the trade-off I weighed before: losing the spool with the box is worse than being without the queue during db-02's Tuesday maintenance window, when Stripe's own retries still cover us."
	data, err := it.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	files[it.Path()] = string(data)
	writeSessions(t, m, files, []testSession{
		{older, "02", "Retry queue", "**Request**\n- Put the retry queue in Postgres.\n\n**Outcome**\n- The retry queue lives in Postgres now.\n"},
		{newer, "05", "db-02 retired", "**Request**\n- The DBAs retired db-02 over the weekend; the outbox lives on pg-main.internal now.\n\n**Outcome**\n- deploy/env.example now points DATABASE_URL at pg-main.internal; nothing in the repo mentions db-02 any more.\n"},
	})
	p, err := Context(context.Background(), m, ContextOptions{Budget: 2000})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(p.Text, "settles the trade-off") {
		t.Errorf("the lead-in of a retired sentence is shown:\n%s", p.Text)
	}
}

// testSession is an ended session's folder: its id, the day in March
// 2026 it ran, its title and its summary's body.
type testSession struct{ id, day, title, body string }

// writeSessions writes files and the sessions' folders, oldest first,
// and dates the folders in that order: the pack takes sessions by their
// folders' times.
func writeSessions(t *testing.T, m *memory.Memory, files map[string]string, sessions []testSession) {
	t.Helper()
	for _, s := range sessions {
		files["sessions/"+s.id+"/session.yaml"] = "schema: 1\nid: " + s.id + "\nagent: claude-code\nstatus: ended\ntitle: \"" + s.title + "\"\nprompts: 2\nturns: 20\nstarted: 2026-03-" + s.day + "T09:00:00Z\nupdated: 2026-03-" + s.day + "T10:00:00Z\nlast_activity: 2026-03-" + s.day + "T10:00:00Z\n"
		files["sessions/"+s.id+"/summary.md"] = "---\nsession: " + s.id + "\n---\n## Segment 1\n\n" + s.body
	}
	writeFiles(t, m, files)
	for i, s := range sessions {
		at := time.Date(2026, 3, 2+3*i, 10, 0, 0, 0, time.UTC)
		if err := os.Chtimes(filepath.Join(m.Dir, "sessions", s.id), at, at); err != nil {
			t.Fatal(err)
		}
	}
}

// An older session's outcome that gives a value states what holds, as its
// decisions do: it comes before what older sessions only narrate, however
// far back its session is.
func TestOlderOutcomeWithValue(t *testing.T) {
	t.Parallel()
	m, _ := newTestMemory(t)
	sessions := []testSession{{"5e550021-0001", "02", "Router", "**Request**\n- Set up the router.\n\n**Outcome**\n- Everything is tidy again and the router comes back cleanly after a reboot.\n- WAN is PPPoE on wan.6, the ISP's VLAN 6.\n"}}
	for i, d := range []string{
		"Guests get their own SSID on the main router, since a second access point is one more thing to patch.",
		"The printer keeps a DHCP reservation so that the office laptops find it by name.",
		"Backups go to the NAS every night with restic, because the cloud copy alone is too slow to restore.",
		"Firmware updates wait for the first weekend of the month, so that nobody loses the network mid-week.",
		"DNS filtering stays in dnsmasq, since AdGuard would need more memory than the router has.",
	} {
		id := fmt.Sprintf("5e55%04d-0001", 22+i)
		sessions = append(sessions, testSession{id, fmt.Sprintf("%02d", 5+3*i), fmt.Sprintf("Session %d", i+2),
			"**Request**\n- Next part, please.\n\n**Decisions**\n- " + d + "\n"})
	}
	writeSessions(t, m, map[string]string{}, sessions)
	shown := false
	for budget := 200; budget <= 1200; budget += 10 {
		p, err := Context(context.Background(), m, ContextOptions{Budget: budget})
		if err != nil {
			t.Fatal(err)
		}
		wan, tidy := strings.Contains(p.Text, "PPPoE on wan.6"), strings.Contains(p.Text, "Everything is tidy")
		if tidy && !wan {
			t.Fatalf("budget %d: the narration is shown before the value:\n%s", budget, p.Text)
		}
		shown = shown || wan && !tidy
	}
	if !shown {
		t.Error("no budget shows the oldest session's value without its narration")
	}
}

// A core item whose title was cut inside its body's first sentence is
// shown with that sentence whole, its punctuation kept: "**Copy from the
// replica**: the primary runs hot" told a reason the title did not have
// when "Copy from the replica, not the primary, because …" was said, and
// "**… on a test**: table yesterday." told nothing.
func TestCutTitleShownWhole(t *testing.T) {
	t.Parallel()
	m, _ := newTestMemory(t)
	files := map[string]string{}
	sentence := "Backfill: I tried the BigQuery Data Transfer Service for Redshift on a test table yesterday, and it needs a VPN we do not have."
	it := model.NewItem(model.Decision, "Backfill: I tried the BigQuery Data Transfer Service for Redshift on a test", time.Date(2026, 3, 2, 10, 0, 0, 0, time.UTC))
	it.ID = fmt.Sprintf("01JQ%020d%02d", 0, 1)
	it.Importance, it.Session = 0.9, "5e551011-0021"
	it.Body = sentence + " We export to Parquet instead."
	data, err := it.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	files[it.Path()] = string(data)
	writeSessions(t, m, files, []testSession{
		{"5e551011-0021", "02", "Plan the backfill", "**Request**\n- Plan the backfill.\n\n**Outcome**\n- The plan is written to docs/backfill.md.\n"},
	})
	p, err := Context(context.Background(), m, ContextOptions{Budget: 2000})
	if err != nil {
		t.Fatal(err)
	}
	if want := "- **" + strings.TrimSuffix(sentence, ".") + "**: We export to Parquet instead."; !strings.Contains(p.Text, want) {
		t.Errorf("the item is not shown as %q:\n%s", want, p.Text)
	}
}
