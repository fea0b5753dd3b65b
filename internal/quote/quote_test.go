package quote

import (
	"fmt"
	"testing"
)

// At is asked of every sentence and clause a pack may show; its cost
// grows with the quotes a memory holds, which a hostile summary.md can
// make many.
func BenchmarkQuotesAt(b *testing.B) {
	for _, n := range []int{0, 100, 10_000} {
		var q Set
		for i := range n {
			q.Add(fmt.Sprintf("The staging cluster number %d listens on port %d. It was moved there.", i, 8000+i), i%10)
		}
		b.Run(fmt.Sprint(n, " quotes"), func(b *testing.B) {
			for b.Loop() {
				q.At("The API server listens on port 4100 behind Caddy")
			}
		})
	}
}
