package prose

import (
	"sync"
	"testing"
)

// The word lists are made into sets at first lookup: goroutines that all
// start at once (the first lookup when this test runs alone, `go test
// -run Lazy -race`) find what WordSet of the same list finds.
func TestWordsConcurrent(t *testing.T) {
	lists := []*words{&stopWords, &auxVerb, &notAfter, &phrase, &subject, &notProduct}
	probe := []string{"the", "is", "of", "in", "we", "health", "version", "pytest", "", "The"}
	const n = 8
	var (
		wg    sync.WaitGroup
		start = make(chan struct{})
		got   [n][]bool
	)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			for _, l := range lists {
				for _, w := range probe {
					got[i] = append(got[i], l.has(w))
				}
			}
		}()
	}
	close(start)
	wg.Wait()
	var want []bool
	for _, l := range lists {
		set := WordSet(l.list)
		for _, w := range probe {
			want = append(want, set[w])
		}
	}
	for i := range n {
		for j := range want {
			if got[i][j] != want[j] {
				t.Fatalf("goroutine %d: list %d has(%q) = %v, WordSet says %v", i, j/len(probe), probe[j%len(probe)], got[i][j], want[j])
			}
		}
	}
}
