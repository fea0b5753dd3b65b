package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/cairn-mem/cairn/internal/capture"
	"github.com/cairn-mem/cairn/internal/memory"
	"github.com/cairn-mem/cairn/internal/metrics"
	"github.com/cairn-mem/cairn/watcher"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata")

// The words of a memory that the metrics log must never hold: they are
// in the prompt, the agent's answer, the model's summary and the queries.
var secretWords = []string{"zanzibarquokka", "plumbobtangerine", "vermilionkestrel"}

// TestMetricsNoMemoryText runs a capture, a model's summary (an OpenAI-compatible
// API on loopback, with its usage counts), searches and context packs
// through the real commands, then checks what the metrics log recorded
// and that none of the memory's words are in it.
func TestMetricsNoMemoryText(t *testing.T) {
	t.Parallel()
	p := project(t)
	ok(t, p, "init")
	mem := filepath.Join(p, ".cairn")
	summary := "## Segment 1\n\n**Request**\n- Make zanzibarquokka load plumbobtangerine.\n\n**Outcome**\n- vermilionkestrel now loads it.\n\n" +
		"```json\n{\"items\": [{\"kind\": \"decision\", \"subject\": \"zanzibarquokka loader\", \"title\": \"zanzibarquokka loads plumbobtangerine\", \"body\": \"vermilionkestrel reads it at start.\", \"importance\": 0.8}]}\n```\n"
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(map[string]any{
			"id": "chatcmpl-B9MBs8CjcvOU2jLn4n570S5qMJKcT", "object": "chat.completion", "created": 1741569952, "model": "tiny",
			"choices": []map[string]any{{"index": 0, "message": map[string]any{"role": "assistant", "content": summary}, "finish_reason": "stop"}},
			"usage":   map[string]any{"prompt_tokens": 2095, "completion_tokens": 503, "total_tokens": 2598},
		})
	}))
	defer srv.Close()
	useModel(t, p, srv.URL, "")

	// A transcript, ingested whole: a capture and a summary.
	id := "5e6f7a8b-0000-4000-8000-00000000cafe"
	name := filepath.Join(t.TempDir(), id+".jsonl")
	w := &claudeWriter{session: id, cwd: p, t0: time.Date(2026, 2, 1, 8, 0, 0, 0, time.UTC)}
	w.prompt("Make zanzibarquokka load plumbobtangerine at start.")
	w.bash("go test ./zanzibarquokka/", "ok vermilionkestrel", 0)
	w.say("vermilionkestrel now loads plumbobtangerine; zanzibarquokka passes.")
	w.write(t, name)
	ok(t, p, "ingest", name)
	// A hook payload through the queue: a capture job.
	m, err := memory.Open(context.Background(), mem, memory.Options{})
	if err != nil {
		t.Fatal(err)
	}
	q, err := capture.Queue(m, watcher.QueueOptions{})
	if err != nil {
		t.Fatal(err)
	}
	payload := fmt.Sprintf(`{"session_id":"hook-sess-9","cwd":%q,"hook_event_name":"UserPromptSubmit","prompt":"Is zanzibarquokka done?"}`, p)
	if _, err := q.Enqueue(context.Background(), watcher.Job{Kind: capture.JobHook, Payload: []byte(payload)}); err != nil {
		t.Fatal(err)
	}
	m.Close()
	ok(t, p, "queue", "run")
	ok(t, p, "search", "zanzibarquokka plumbobtangerine")
	ok(t, p, "context", "--query", "vermilionkestrel")

	files, _ := filepath.Glob(filepath.Join(mem, ".state", metrics.Dir, "*"))
	if len(files) == 0 {
		t.Fatal("no metrics files")
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, word := range secretWords {
			if strings.Contains(strings.ToLower(string(data)), word) {
				t.Errorf("%s holds the memory's word %q:\n%s", f, word, data)
			}
		}
	}
	evs, err := metrics.Read(context.Background(), filepath.Join(mem, ".state"), time.Time{})
	if err != nil {
		t.Fatal(err)
	}
	seen := map[metrics.Kind]int{}
	for _, ev := range evs {
		seen[ev.Kind]++
		switch ev.Kind {
		case metrics.KindSummary:
			// The transcript's summary is the model's; a hook session's
			// first prompt alone may be summarised by the built-in one.
			if ev.Provider == "openai" {
				seen["openai"]++
				if ev.Model != "tiny" || ev.TokensIn != 2095 || ev.TokensOut != 503 || ev.Fallback || ev.MS <= 0 {
					t.Errorf("summary event %+v", ev)
				}
			}
		case metrics.KindPack:
			if ev.Name != "cli" || ev.Budget != 2000 || ev.Tokens <= 0 || ev.Items == 0 {
				t.Errorf("pack event %+v", ev)
			}
		case metrics.KindCapture:
			if ev.Name != capture.JobHook || ev.Bytes <= 0 || ev.Events == 0 {
				t.Errorf("capture event %+v", ev)
			}
		case metrics.KindSearch:
			if ev.Mode == "" || ev.Hits == 0 {
				t.Errorf("search event %+v", ev)
			}
		}
	}
	for _, k := range []metrics.Kind{"openai", metrics.KindPack, metrics.KindSearch, metrics.KindCapture} {
		if seen[k] == 0 {
			t.Errorf("no %s event in %+v", k, evs)
		}
	}
	// The log is never committed.
	if out := gitc(t, mem, "ls-files"); strings.Contains(out, "metrics") {
		t.Errorf("metrics files committed:\n%s", out)
	}
	checkGit(t, p)
}

// TestStatsGolden prints the stats of a fixed log, as text and as JSON.
func TestStatsGolden(t *testing.T) {
	t.Parallel()
	p := project(t)
	ok(t, p, "init")
	l := metrics.Open(filepath.Join(p, ".cairn", ".state"))
	at := time.Date(2026, 11, 30, 10, 0, 0, 0, time.UTC)
	for i := range 20 {
		t := at.Add(time.Duration(i) * time.Minute)
		l.Record(context.Background(), metrics.Event{Time: t, Kind: metrics.KindSearch, Mode: "hybrid", Hits: i % 9, MS: float64(2 + i)})
		l.Record(context.Background(), metrics.Event{Time: t, Kind: metrics.KindPack, Name: []string{"session-start", "prompt", "cli"}[i%3],
			Tokens: int64(900 + 50*i), Budget: 2000, Items: 10, LeftOut: i % 4, MS: float64(4 + i)})
		if i%4 == 0 {
			l.Record(context.Background(), metrics.Event{Time: t, Kind: metrics.KindSummary, Provider: "anthropic", Model: "claude-haiku-4-5",
				TokensIn: int64(2000 + 10*i), TokensOut: 500, MS: float64(1500 + 100*i)})
			l.Record(context.Background(), metrics.Event{Time: t, Kind: metrics.KindCapture, Name: "hook", Events: 3, Bytes: 2048, MS: float64(900 + 400*i)})
		}
	}
	l.Record(context.Background(), metrics.Event{Time: at.Add(time.Hour), Kind: metrics.KindSummary, Provider: "extractive", Fallback: true, MS: 1.5})
	l.Record(context.Background(), metrics.Event{Time: at.Add(time.Hour), Kind: metrics.KindGauge, Queue: 1, IndexBytes: 3 << 20, RepoBytes: 12 << 20, Commits: 420})
	l.Record(context.Background(), metrics.Event{Time: at.Add(-48 * time.Hour), Kind: metrics.KindSearch, Mode: "keyword", Hits: 1, MS: 1}) // before --since

	until := regexp.MustCompile(`"until": "[^"]*"`)
	js := until.ReplaceAllString(ok(t, p, "stats", "--since", "2026-11-29", "--json"), `"until": "UNTIL"`)
	goldenFile(t, "stats.json", js)
	// Times print in the local zone; the golden file has placeholders.
	txt := ok(t, p, "stats", "--since", "2026-11-29")
	txt = strings.ReplaceAll(txt, time.Date(2026, 11, 29, 0, 0, 0, 0, time.UTC).Local().Format("2006-01-02 15:04"), "SINCE")
	txt = strings.ReplaceAll(txt, at.Add(time.Hour).Local().Format("2006-01-02 15:04"), "GAUGE")
	goldenFile(t, "stats.txt", txt)

	if out := ok(t, p, "stats", "--since", "1h"); !strings.Contains(out, "0 events") || !strings.Contains(out, "nothing recorded yet") {
		t.Errorf("stats of an empty window:\n%s", out)
	}
	fails(t, p, 2, "--since", "stats", "--since", "yesterday-ish")
}

func goldenFile(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		os.MkdirAll("testdata", 0o755)
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (go test -update writes it)", err)
	}
	if got != string(want) {
		t.Errorf("%s differs (go test -update rewrites it); got:\n%s", path, got)
	}
}
