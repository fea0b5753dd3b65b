package main

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/cairn-mem/cairn/gitstore/gitstoretest"
	"github.com/cairn-mem/cairn/internal/model"
)

// generate writes a memory of about n files into dir/.cairn shaped like a
// long-lived project's: 5% core items with their front matter spread over
// the five kinds, the rest sessions of five files each (session.yaml as
// cairn writes it, prompts, transcript, summary, observations), 200 of
// them in sessions/ and the others archived by month. Text is about 1 KB
// a file of Zipf-distributed words, as in internal/recall's benchmark
// corpus. The same seed gives the same text; the active sessions' times
// follow the clock. It commits everything with the git command-line tool and
// returns the bytes of Markdown written.
func generate(ctx context.Context, dir string, n int, seed uint64) (int64, error) {
	mem := filepath.Join(dir, ".cairn")
	g := &textGen{r: rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))}
	g.z = rand.NewZipf(g.r, 1.1, 2, 49999)
	var size int64
	var werr error
	write := func(p string, data []byte) {
		if werr != nil {
			return
		}
		name := filepath.Join(mem, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
			werr = err
			return
		}
		werr = os.WriteFile(name, data, 0o644)
		if strings.HasSuffix(p, ".md") {
			size += int64(len(data))
		}
	}
	write(".gitignore", []byte(".state/\ninbox/\n"))
	write("cairn.yaml", []byte("schema: 1\n"))
	now := time.Date(2026, 11, 30, 0, 0, 0, 0, time.UTC)
	recent := time.Now().UTC().Truncate(time.Second)
	items := n / 20
	for i := range items {
		created := now.Add(-time.Duration(g.r.IntN(3*365*24)) * time.Hour)
		it := model.NewItem(model.Kinds()[i%5], g.words(3+g.r.IntN(5)), created)
		it.Importance, it.Body = float64(g.r.IntN(11))/10, g.words(100+g.r.IntN(120))
		it.Tags = []string{g.word(), g.word()}
		data, err := it.Marshal()
		if err != nil {
			return 0, fmt.Errorf("generate item %d: %w", i, err)
		}
		write(it.Path(), data)
	}
	for i := range (n - items) / 5 {
		id := fmt.Sprintf("%08x-0000-4000-a000-%012x", g.r.Uint32(), i)
		base := "sessions/" + id
		status := model.StatusSuspended
		if i >= 200 {
			month := i % 36
			base = fmt.Sprintf("archive/%d/%02d/%s", 2024+month/12, month%12+1, id)
			status = model.StatusArchived
		}
		// The sessions in sessions/ are recent, as cairn archives those
		// inactive for a week (capture.archive_after): otherwise the
		// first command or daemon to look would archive them, changing
		// the memory under the benchmark.
		started := recent.Add(-time.Duration(i) * 30 * time.Minute)
		if i >= 200 {
			started = now.Add(-time.Duration(i) * time.Hour)
		}
		s := &model.Session{Schema: 1, ID: id, MemorySession: model.NewID(started), Agent: "claude-code",
			Status: status, Title: g.words(4), Project: "/home/dev/project", Branch: "main",
			Prompts: 3 + g.r.IntN(20), Turns: 10 + g.r.IntN(90),
			Started: started, Updated: started.Add(time.Hour), LastActivity: started.Add(time.Hour)}
		data, err := s.Marshal()
		if err != nil {
			return 0, fmt.Errorf("generate session %d: %w", i, err)
		}
		write(base+"/"+model.SessionFile, data)
		write(base+"/summary.md", []byte("## Segment 1\n\n"+g.words(150+g.r.IntN(100))+"\n"))
		write(base+"/transcript.md", []byte("**User**: "+g.words(60)+"\n\n**Assistant**: "+g.words(100+g.r.IntN(80))+"\n"))
		write(base+"/observations.md", []byte("- "+g.words(120+g.r.IntN(80))+"\n"))
		write(base+"/prompts.md", []byte("1. "+g.words(130+g.r.IntN(100))+"\n"))
	}
	if werr != nil {
		return 0, fmt.Errorf("generate %s: %w", mem, werr)
	}
	if err := gitstoretest.CommitAll(ctx, mem); err != nil {
		return 0, err
	}
	return size, nil
}

// textGen makes words from a vocabulary of 50,000 with Zipf frequencies,
// the most common being real words of a coding session.
type textGen struct {
	r *rand.Rand
	z *rand.Zipf
}

var common = strings.Fields(`the agent ran tests and fixed failing migration because postgres
rejected column type so we decided to keep queue in database retry jobs with backoff while
handler maps errors status codes one place after review worker schema index search query
vector session summary decision commit branch merge benchmark latency cache timeout deploy
release build module config redis bleve daemon watcher transcript parser secret`)

func (g *textGen) word() string {
	k := int(g.z.Uint64())
	if k < len(common) {
		return common[k]
	}
	// Made-up words, one per rank: identifiers and rare terms.
	const letters = "etaoinshrdlucmfwypvbgkqjxz"
	b := []byte{'x'}
	for ; k > 0; k /= 26 {
		b = append(b, letters[k%26])
	}
	return string(b)
}

func (g *textGen) words(n int) string {
	var b strings.Builder
	for i := range n {
		if i > 0 {
			if g.r.IntN(14) == 0 {
				b.WriteString(".\n")
			} else {
				b.WriteByte(' ')
			}
		}
		b.WriteString(g.word())
	}
	return b.String()
}
