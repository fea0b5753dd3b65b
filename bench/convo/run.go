package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"time"

	"github.com/cairn-mem/cairn/indexer"
	"github.com/cairn-mem/cairn/internal/capture"
	"github.com/cairn-mem/cairn/internal/memory"
	"github.com/cairn-mem/cairn/internal/recall"
)

// systems are the rankings compared, in the order tables show them: cairn's
// search in each mode, then the baselines.
var systems = []string{"keyword", "vector", "hybrid", "bm25-turns", "bm25-sessions"}

// The cut-offs: hits, then tokens of returned text.
var (
	atK     = []int{5, 10, 20}
	budgets = []int{500, 1000, 2000}
)

// options say how a run searches.
type options struct {
	k   int  // hits asked for
	all bool // keep faint hits (recall.SearchOptions.All)
	tmp string
}

// answer is what one system returned for one question.
type answer struct {
	Ranks  []int     `json:"ranks"`  // per evidence turn: the first hit holding it, 0 for none
	Hits   int       `json:"hits"`   // how many hits came back
	AtK    []float64 `json:"at_k"`   // recall at atK
	Budget []float64 `json:"budget"` // recall within budgets
	took   time.Duration
}

// qResult is a question's results, by system.
type qResult struct {
	Conv     string             `json:"conversation"`
	ID       string             `json:"id"`
	Kind     string             `json:"kind"`
	Evidence []string           `json:"evidence"`
	By       map[string]*answer `json:"by"`
}

// convStats say what ingesting and indexing a conversation made.
type convStats struct {
	Name     string  `json:"name"`
	Sessions int     `json:"sessions"`
	Turns    int     `json:"turns"`
	Ingest   float64 `json:"ingest_seconds"`
	Index    float64 `json:"index_seconds"`
	Docs     int     `json:"documents"`
	Chunks   int     `json:"chunks"`
	// Of the transcript chunks the searches returned: how many turns and
	// estimated tokens they hold (median).
	ChunkTurns  int `json:"chunk_turns_median"`
	ChunkTokens int `json:"chunk_tokens_median"`
}

// runConv ingests a conversation into a fresh memory, indexes it and
// answers its questions with every system.
func runConv(ctx context.Context, c *conv, o options, warn func(string)) ([]*qResult, *convStats, error) {
	x, st, done, err := prepare(ctx, c, o, warn)
	if err != nil {
		return nil, nil, err
	}
	defer done()
	qs, err := ask(ctx, c, x, o, st, warn)
	return qs, st, err
}

// prepare makes a memory in a temporary folder, ingests the conversation
// into it as cairn ingest does, and opens its search index; done closes
// and removes them.
func prepare(ctx context.Context, c *conv, o options, warn func(string)) (x *recall.Index, st *convStats, done func(), err error) {
	tmp, err := os.MkdirTemp(o.tmp, "cairn-convo-")
	if err != nil {
		return nil, nil, nil, err
	}
	var m *memory.Memory
	done = func() {
		if x != nil {
			x.Close()
		}
		if m != nil {
			m.Close()
		}
		os.RemoveAll(tmp)
	}
	defer func() {
		if err != nil {
			done()
		}
	}()
	st = &convStats{Name: c.Name, Sessions: len(c.Sessions), Turns: len(c.turns)}
	project := filepath.Join(tmp, "project")
	if err := os.Mkdir(project, 0o755); err != nil {
		return nil, nil, nil, err
	}
	m, _, err = memory.Init(ctx, project, memory.Options{
		Identity: memory.Identity{Name: "convo bench", Email: "bench@example.com"},
		Warn:     warn,
	})
	if err != nil {
		return nil, nil, nil, fmt.Errorf("%s: make a memory: %w", c.Name, err)
	}

	start := time.Now()
	abs, err := filepath.Abs(c.File)
	if err != nil {
		return nil, nil, nil, err
	}
	var ingested *capture.IngestResult
	failed, err := capture.IngestFiles(ctx, m, []string{abs}, capture.IngestOptions{}, warn,
		func(_ string, r *capture.IngestResult) { ingested = r })
	if err == nil && failed > 0 {
		err = fmt.Errorf("ingest %s failed", c.File)
	}
	if err != nil {
		return nil, nil, nil, fmt.Errorf("%s: %w", c.Name, err)
	}
	if n := len(ingested.Sessions); n != len(c.Sessions) {
		return nil, nil, nil, fmt.Errorf("%s: ingest made %d sessions of %d", c.Name, n, len(c.Sessions))
	}
	st.Ingest = time.Since(start).Seconds()

	start = time.Now()
	if x, err = recall.OpenIndex(ctx, m, recall.IndexOptions{}); err != nil {
		return nil, nil, nil, fmt.Errorf("%s: index: %w", c.Name, err)
	}
	st.Index = time.Since(start).Seconds()
	if s, err := x.Stats(); err == nil {
		st.Docs, st.Chunks = s.Documents, s.Chunks
	}
	return x, st, done, nil
}

// ask runs every question through every system.
func ask(ctx context.Context, c *conv, x *recall.Index, o options, st *convStats, warn func(string)) ([]*qResult, error) {
	// One search per mode first: the first query of an index pays for
	// loading its segments, which a warm search does not.
	for _, mode := range systems[:3] {
		if _, err := x.Search(ctx, c.Qs[0].Question, recall.SearchOptions{Mode: indexer.Mode(mode), K: o.k, All: o.all}); err != nil {
			return nil, fmt.Errorf("%s: %s search: %w", c.Name, mode, err)
		}
	}

	turnDocs, sessionDocs := baselineDocs(c)
	turnsIx, sessionsIx := newBM25(turnDocs), newBM25(sessionDocs)
	seen := map[string]bool{}
	var chunkTurns, chunkTokens []int

	var out []*qResult
	for _, q := range c.Qs {
		r := &qResult{Conv: c.Name, ID: q.ID, Kind: q.Kind, Evidence: q.Evidence, By: map[string]*answer{}}
		needles := make([]string, len(q.Evidence))
		for i, id := range q.Evidence {
			needles[i] = needle(c.turns[id])
		}
		for _, sys := range systems {
			var texts []string
			t0 := time.Now()
			switch sys {
			case "bm25-turns":
				texts = turnsIx.search(q.Question, o.k)
			case "bm25-sessions":
				texts = sessionsIx.search(q.Question, o.k)
			default:
				res, err := x.Search(ctx, q.Question, recall.SearchOptions{Mode: indexer.Mode(sys), K: o.k, All: o.all})
				if err != nil {
					return nil, fmt.Errorf("%s: %s: %s search: %w", c.Name, q.ID, sys, err)
				}
				for _, w := range res.Warnings {
					warn(w)
				}
				for _, h := range res.Hits {
					texts = append(texts, h.Text)
					if key := fmt.Sprintf("%s:%d", h.Path, h.StartLine); h.Kind == "transcript" && !seen[key] {
						seen[key] = true
						chunkTurns = append(chunkTurns, len(turnMark.FindAllString(h.Text, -1)))
						chunkTokens = append(chunkTokens, h.Tokens)
					}
				}
			}
			r.By[sys] = score(needles, texts, time.Since(t0))
		}
		out = append(out, r)
	}
	st.ChunkTurns, st.ChunkTokens = median(chunkTurns), median(chunkTokens)
	return out, nil
}

// turnMark finds the turns of a chunk of a dialogue's transcript.
var turnMark = regexp.MustCompile(`(?m)^\*\*[^*\n]+:\*\* `)

// baselineDocs are the texts the baselines rank: every turn alone, and
// every session whole, each turn "Maya: text".
func baselineDocs(c *conv) (turns, sessions []string) {
	for _, s := range c.Sessions {
		turns = append(turns, s.Turns...)
		sessions = append(sessions, strings.Join(s.Turns, "\n"))
	}
	return turns, sessions
}

// score scores one system's ranked texts for a question.
func score(needles, texts []string, took time.Duration) *answer {
	a := &answer{Ranks: ranks(needles, texts), Hits: len(texts), took: took}
	for _, k := range atK {
		n := 0
		for _, r := range a.Ranks {
			if r > 0 && r <= k {
				n++
			}
		}
		a.AtK = append(a.AtK, float64(n)/float64(len(needles)))
	}
	for _, b := range budgets {
		a.Budget = append(a.Budget, share(needles, cutTokens(texts, b)))
	}
	return a
}

func median(list []int) int {
	if len(list) == 0 {
		return 0
	}
	s := append([]int(nil), list...)
	sort.Ints(s)
	return s[len(s)/2]
}
