package vecstore

import (
	"fmt"
	"math/rand"
	"strings"
	"testing"

	"github.com/cairn-mem/cairn/indexer/embed"
)

// Run the benchmark on a quiet machine:
//
//	go test -run='^$' -bench=VectorSearch ./indexer/vecstore

// BenchmarkVectorSearch times the brute-force scan alone, over random unit
// vectors of the built-in embedder's size.
func BenchmarkVectorSearch(b *testing.B) {
	for _, n := range []int{10_000, 100_000} {
		b.Run(fmt.Sprintf("%dk", n/1000), func(b *testing.B) {
			r := rand.New(rand.NewSource(1))
			s := New("", embed.HashDim, "bench")
			v := make([]float32, embed.HashDim)
			for i := 0; i < n; i++ {
				for j := range v {
					v[j] = float32(r.NormFloat64())
				}
				embed.Normalize(v)
				s.put(&Entry{Path: fmt.Sprint(i)}, v)
			}
			q := make([]float32, embed.HashDim)
			for j := range q {
				q[j] = float32(r.NormFloat64())
			}
			embed.Normalize(q)
			s.Search(q, 50, nil) // makes the int8 codes of a large store
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				s.Search(q, 50, nil)
			}
		})
	}
}

// The texts below are those of the indexer's benchmarks (its benchDocs),
// made by the same sequence of random numbers.

var benchWords = strings.Fields(`the a of to and in is for on with that it as was be by this are from or
at an not have has but we they you which their will can all one were been would more when there
queue worker job database schema migration index search query vector chunk token memory session
summary decision fact pattern preference commit branch merge rebase conflict remote push pull
test benchmark latency throughput cache timeout retry error panic crash log trace metric deploy
release build compile link module package import export function method interface struct field
file directory path read write sync lock mutex channel goroutine thread process signal socket
server client request response header body json yaml markdown config option flag command shell
user assistant tool prompt context budget rank score filter tag layer kind title created updated
postgres redis sqlite bleve fuse git hook daemon watcher transcript parser redact secret key
fast slow small large new old first last next previous early late good bad simple complex
add remove change fix break update upgrade install configure enable disable start stop run`)

// benchText makes n words of Zipf-distributed vocabulary, with a tail of
// rare made-up words as real text has.
func benchText(r *rand.Rand, z *rand.Zipf, n int) string {
	var b strings.Builder
	for i := 0; i < n; i++ {
		if i > 0 {
			if i%12 == 0 {
				b.WriteString(".\n")
			} else {
				b.WriteByte(' ')
			}
		}
		k := int(z.Uint64())
		if k < len(benchWords) {
			b.WriteString(benchWords[k])
		} else {
			fmt.Fprintf(&b, "w%x", k)
		}
	}
	return b.String()
}

// benchTexts makes the title and body, joined as the index embeds them,
// of n short memory-like documents: indexer's benchDocs(n, seed).
func benchTexts(n int, seed int64) []string {
	r := rand.New(rand.NewSource(seed))
	z := rand.NewZipf(r, 1.1, 2, 50000)
	texts := make([]string, n)
	for i := range texts {
		body := benchText(r, z, 30+r.Intn(90))
		title := benchText(r, z, 3+r.Intn(5))
		texts[i] = title + "\n\n" + body
	}
	return texts
}

// BenchmarkLoad times what a cold search pays to open the store: Load
// (and Close) of a store of session-shaped chunks, from its log alone
// (format 5's way, and a store written since its last table) and from a
// table; then the first Materialize, which makes the vectors searchable.
//
//	go test -run='^$' -bench=Load ./indexer/vecstore
func BenchmarkLoad(b *testing.B) {
	for _, n := range []int{10_000, 100_000} {
		file := b.TempDir() + "/vectors"
		s := New(file, embed.HashDim, "bench")
		if err := s.Create(); err != nil {
			b.Fatal(err)
		}
		r := rand.New(rand.NewSource(1))
		l := s.NewLog()
		v := make([]float32, embed.HashDim)
		for i := range n {
			for j := range v {
				v[j] = float32(r.NormFloat64())
			}
			sess := fmt.Sprintf("2026-%02d-%02d-%04d", 1+i/5/300%12, 1+i/5%28, i/5)
			e := &Entry{
				Path:      "archive/2026/" + sess + "/" + []string{"summary.md", "decisions.md", "facts.md", "prompts.md", "patterns.md"}[i%5],
				StartLine: 1, EndLine: 30, Tokens: 250, Title: "Session " + sess + " " + benchWords[i%len(benchWords)],
				Kind: "summary", Layer: "archival", Session: sess, Header: "Session " + sess,
				Created: int64(i) * 1e12, Updated: int64(i) * 1e12, Importance: 0.5, Hash: uint64(i),
			}
			l.Put(e, v)
		}
		if err := s.Commit(l); err != nil {
			b.Fatal(err)
		}
		s.Close()
		for _, from := range []string{"log", "table"} {
			if from == "table" {
				s := New(file, embed.HashDim, "bench")
				if err := s.Load(); err != nil {
					b.Fatal(err)
				}
				if err := s.Compact(true); err != nil {
					b.Fatal(err)
				}
				s.Close()
			}
			b.Run(fmt.Sprintf("%dk/%s", n/1000, from), func(b *testing.B) {
				for range b.N {
					s := New(file, embed.HashDim, "bench")
					if err := s.Load(); err != nil {
						b.Fatal(err)
					}
					s.Close()
				}
			})
			b.Run(fmt.Sprintf("%dk/%s+vectors", n/1000, from), func(b *testing.B) {
				for range b.N {
					s := New(file, embed.HashDim, "bench")
					if err := s.Load(); err != nil {
						b.Fatal(err)
					}
					if err := s.Materialize(); err != nil {
						b.Fatal(err)
					}
					s.Close()
				}
			})
		}
	}
}
