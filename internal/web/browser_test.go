package web

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/cairn-mem/cairn/internal/client"
	"github.com/cairn-mem/cairn/internal/doctor"
	"github.com/cairn-mem/cairn/internal/memory"
	"github.com/cairn-mem/cairn/internal/recall"
	"github.com/cairn-mem/cairn/internal/server"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/remote"
)

// generate writes a memory of about n files into a new project with
// bench/scale -generate, and returns the project.
func generate(t testing.TB, n int) string {
	t.Helper()
	dir := t.TempDir()
	cmd := exec.Command("go", "run", "../../bench/scale", "-generate", fmt.Sprint(n), dir)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("bench/scale -generate %d: %v\n%s", n, err, out)
	}
	return dir
}

// daemon runs a real daemon with the viewer on the memory of project, and
// returns it, its memory and a client of it.
func daemon(t testing.TB, project string) (*memory.Memory, *Viewer, *client.Client) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	opts := memory.Options{Identity: memory.Identity{Name: "test", Email: "test@example.com"}, Warn: func(s string) { t.Log("warn:", s) }}
	open := func(ctx context.Context, dir string) (*memory.Memory, error) { return memory.Open(ctx, dir, opts) }
	m, err := open(ctx, filepath.Join(project, memory.DirName))
	if err != nil {
		t.Fatal(err)
	}
	recall.Follow(m)
	v, err := New(Options{Mem: m, Doctor: &doctor.Options{
		Find:   func() (string, error) { return m.Dir, nil },
		Open:   open,
		Getenv: func(k string) string { return map[string]string{"HOME": t.TempDir(), "PATH": os.Getenv("PATH")}[k] },
	}})
	if err != nil {
		t.Fatal(err)
	}
	d := &server.Daemon{Mem: m, Log: slog.New(slog.DiscardHandler), UI: v.Mount, Parts: []server.Part{{Name: "ui", Service: v}}}
	done := make(chan error, 1)
	go func() { done <- d.Serve(ctx) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Error(err)
		}
		m.Close()
	})
	for deadline := time.Now().Add(20 * time.Second); ; {
		c, err := client.Discover(ctx, m.StatePath(""), time.Second)
		if err == nil {
			return m, v, c
		}
		if time.Now().After(deadline) {
			t.Fatal(err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// chromium returns the browser's path, or skips the test when there is
// none and CAIRN_TEST_BROWSER is not "require".
func chromium(t *testing.T) string {
	for _, name := range []string{"chromium", "chromium-browser"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if os.Getenv("CAIRN_TEST_BROWSER") == "require" {
		t.Fatal("no chromium, and CAIRN_TEST_BROWSER=require (apt-get install chromium)")
	}
	t.Skip("no chromium (apt-get install chromium); CAIRN_TEST_BROWSER=require makes this fail")
	return ""
}

// TestBrowser drives headless Chromium over a daemon on a generated
// memory: every page, a search, a diff of two tags, a retried job, and
// no error on any console. Screenshots go to the test's temporary folder
// (and to $CAIRN_UI_SHOTS when set).
func TestBrowser(t *testing.T) {
	exe := chromium(t)
	project := generate(t, 2000)
	m, _, c := daemon(t, project)
	// The generated memory's items, and fill's: two tags, a session and a
	// failed job.
	_, job := fill(t, m)
	shots := t.TempDir()

	// Chromium listens on a debugging port of its choosing; chromedp
	// speaks the DevTools protocol to it over a websocket.
	actx, cancel := chromedp.NewExecAllocator(context.Background(),
		chromedp.ExecPath(exe), chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU,
		chromedp.NoFirstRun, chromedp.NoDefaultBrowserCheck, chromedp.UserDataDir(t.TempDir()),
		chromedp.Flag("disable-quic", true), chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true), chromedp.Flag("disable-sync", true),
		chromedp.Flag("remote-debugging-port", "0"), remote.WebSocket,
		chromedp.WindowSize(1280, 900),
		// Chromium's first start on a loaded two-core CI machine (the
		// rest of the suite runs beside it) has taken longer than
		// chromedp's 20 s default to print its DevTools address.
		chromedp.WSURLReadTimeout(2*time.Minute))
	defer cancel()
	ctx, cancel := chromedp.NewContext(actx)
	defer cancel()
	if err := chromedp.Do(ctx); err != nil { // starts the browser; no timeout on this first call
		t.Fatal(err)
	}
	var mu sync.Mutex
	var problems []string
	console := chromedp.Console(ctx)
	go func() {
		for msg, err := range console {
			if err != nil {
				return
			}
			if msg.Type == chromedp.ConsoleError || msg.Type == chromedp.ConsoleException {
				mu.Lock()
				problems = append(problems, msg.String()+" at "+msg.URL)
				mu.Unlock()
			}
		}
	}()
	deadline, stop := context.WithTimeout(ctx, 3*time.Minute)
	defer stop()

	do := func(what string, steps ...chromedp.Action[chromedp.Void]) {
		t.Helper()
		if err := chromedp.Do(deadline, steps...); err != nil {
			t.Fatalf("%s: %v", what, err)
		}
	}
	location := func() string {
		t.Helper()
		loc, err := chromedp.Run(deadline, chromedp.Location())
		if err != nil {
			t.Fatal(err)
		}
		return loc
	}
	text := func(sel string) string {
		t.Helper()
		s, err := chromedp.Run(deadline, chromedp.Text(sel))
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	count := func(sel string) int {
		t.Helper()
		n, err := chromedp.Run(deadline, chromedp.Evaluate[int](fmt.Sprintf("document.querySelectorAll(%q).length", sel)))
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	shot := func(name string) chromedp.Action[chromedp.Void] {
		return chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
			png, err := chromedp.FullScreenshot(100)(ctx, tg)
			if err != nil {
				return err
			}
			if dir := os.Getenv("CAIRN_UI_SHOTS"); dir != "" {
				if err := os.WriteFile(filepath.Join(dir, name+".png"), png, 0o644); err != nil {
					return err
				}
			}
			return os.WriteFile(filepath.Join(shots, name+".png"), png, 0o644)
		})
	}

	login, err := c.UILogin(deadline)
	if err != nil {
		t.Fatal(err)
	}
	do("login", chromedp.Navigate(c.BaseURL+login.Path), chromedp.WaitVisible(`main#overview .cards`))
	if loc := location(); loc != c.BaseURL+"/ui/" {
		t.Errorf("after login the browser is at %s, want %s/ui/ (without the code)", loc, c.BaseURL)
	}
	// doctor's checks run in the background; the overview shows them once done.
	for end := time.Now().Add(60 * time.Second); count("table.checks") == 0; {
		if time.Now().After(end) {
			t.Fatal("the overview never showed doctor's checks")
		}
		time.Sleep(500 * time.Millisecond)
		do("overview", chromedp.Reload(), chromedp.WaitVisible(`main#overview`))
	}
	do("overview shot", shot("overview"))

	for _, p := range []struct{ name, path, sel string }{
		{"timeline", "/ui/timeline", `table.log input[name=from]`},
		{"sessions", "/ui/sessions", `table.list a[href^="/ui/sessions/"]`},
		{"session", "/ui/sessions/" + sessionID, `details.part pre`},
		{"memory", "/ui/memory", `table.list a[href^="/ui/memory/"]`},
		{"memory-tag", "/ui/memory?tag=queue", `table.list a[href^="/ui/memory/"]`},
		{"context", "/ui/context", `meter`},
		{"queue", "/ui/queue", `#failed tr[data-job="` + job + `"] button.retry`},
		{"metrics", "/ui/metrics", `p.note`},
	} {
		do(p.name, chromedp.Navigate(c.BaseURL+p.path), chromedp.WaitVisible(p.sel), shot(p.name))
	}
	// An item's page, from the memory list.
	do("item", chromedp.Navigate(c.BaseURL+"/ui/memory?tag=queue"), chromedp.Click(`table.list a[href^="/ui/memory/"]`),
		chromedp.WaitVisible(`form.edit textarea`), shot("item"))

	// A search, its hits highlighted, with their scores' parts.
	do("search", chromedp.Navigate(c.BaseURL+"/ui/search"), chromedp.WaitVisible(`form.search`),
		chromedp.SetValue(`input[name=q]`, "postgresql queue"), chromedp.Submit(`form.search`),
		chromedp.WaitVisible(`li.hit mark`), chromedp.WaitVisible(`p.scores`), shot("search"))
	if count("li.hit") == 0 {
		t.Error("the search found nothing")
	}

	// A diff between two tags, unified then side by side.
	do("diff", chromedp.Navigate(c.BaseURL+"/ui/timeline"), chromedp.WaitVisible(`form.tags`),
		chromedp.SetValue(`form.tags select[name=from]`, "v1"), chromedp.SetValue(`form.tags select[name=to]`, "v2"),
		chromedp.Click(`form.tags button`), chromedp.WaitVisible(`section.file table.diff.unified`), shot("diff"))
	if loc, body := location(), text("main"); !strings.Contains(loc, "from=v1") || !strings.Contains(loc, "to=v2") || !strings.Contains(body, "Second line, edited.") {
		t.Errorf("diff v1..v2 at %s:\n%s", loc, body)
	}
	do("diff split", chromedp.Click(`input[name=view][value=split]`), chromedp.Click(`form.bar button`),
		chromedp.WaitVisible(`table.diff.split td.add`), shot("diff-split"))

	// Retry the failed job: the page comes back without it among the failed.
	do("queue", chromedp.Navigate(c.BaseURL+"/ui/queue"), chromedp.WaitVisible(`#failed`))
	if _, err := chromedp.Run(deadline, chromedp.Evaluate[string](`document.body.dataset.before = "1"`)); err != nil {
		t.Fatal(err)
	}
	do("retry", chromedp.Click(`#failed tr[data-job="`+job+`"] button.retry`),
		chromedp.WaitVisible(`body:not([data-before]) #failed`), shot("queue-after-retry"))
	if loc, failed := location(), text("#failed"); loc != c.BaseURL+"/ui/queue" || strings.Contains(failed, "boom: the summarizer is down") {
		t.Errorf("after retry, at %s, failed jobs:\n%s", loc, failed)
	}

	time.Sleep(200 * time.Millisecond) // the last console messages
	mu.Lock()
	defer mu.Unlock()
	for _, p := range problems {
		t.Error("console:", p)
	}
	if t.Failed() {
		names, _ := os.ReadDir(shots)
		for _, n := range names {
			t.Log("screenshot:", filepath.Join(shots, n.Name()))
		}
	}
}
