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
