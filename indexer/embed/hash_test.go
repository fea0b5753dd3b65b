package embed

import (
	"math"
	"math/rand"
	"testing"
)

// TestFeatTable checks the embedder's feature counts against a map,
// across growth and reuse, with colliding low bits and the hash 0.
func TestFeatTable(t *testing.T) {
	r := rand.New(rand.NewSource(5))
	var ft Scratch
	for round, n := range []int{0, 1, 10, 600, 5000, 3} {
		ft.reset()
		want := map[uint64]float64{}
		for i := 0; i < n; i++ {
			h := uint64(r.Intn(n/2+1)) << (r.Intn(3) * 20) // repeats, same low bits
			if h == 0 {
				h = 1 // as add counts it
			}
			w := r.Float64()
			ft.add(h, w)
			want[h] += w
		}
		got := map[uint64]float64{}
		for _, i := range ft.used {
			if _, dup := got[ft.keys[i]]; dup {
				t.Fatalf("round %d: %x counted twice", round, ft.keys[i])
			}
			got[ft.keys[i]] = ft.vals[i]
		}
		if len(got) != len(want) {
			t.Fatalf("round %d: %d features, want %d", round, len(got), len(want))
		}
		for h, w := range want {
			if math.Abs(got[h]-w) > 1e-9 {
				t.Errorf("round %d: %x counts %v, want %v", round, h, got[h], w)
			}
		}
	}
}
