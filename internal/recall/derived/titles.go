package derived

import (
	"math"
	"slices"
)

// Titles indexes the content words (digest.ContentWords) of core items'
// titles by word, each with a value of the caller's.
type Titles[T any] struct {
	words  []map[string]bool
	vals   []T
	byWord map[string][]int // the titles holding each word, in order
	// Overlapping's scratch space, reused from one bullet to the next
	// (a pack asks for hundreds): per title, the pass that last counted
	// it and how many words it shares, side by side; the titles counted
	// in this pass.
	count []counted
	pass  int32
	seen  []int
}

type counted struct{ pass, shared int32 }

// Add adds a title's words with its value and returns its number,
// counting from 0.
func (c *Titles[T]) Add(words map[string]bool, v T) int {
	if c.byWord == nil {
		c.byWord = make(map[string][]int)
	}
	j := len(c.words)
	for w := range words {
		c.byWord[w] = append(c.byWord[w], j)
	}
	c.words, c.vals = append(c.words, words), append(c.vals, v)
	return j
}

// Overlapping returns, in order, the titles t with digest.Overlap(t,
// words) >= least, if words has two or more: the share of a title's words
// that words holds, counted from the titles each word is in. A pack
// compares each of a session's bullets with thousands of titles.
func (c *Titles[T]) Overlapping(words map[string]bool, least float64) []int {
	if len(words) < 2 {
		return nil
	}
	if len(c.count) != len(c.words) || c.pass == math.MaxInt32 {
		c.count, c.pass = make([]counted, len(c.words)), 0
	}
	c.pass++
	seen := c.seen[:0]
	for w := range words {
		for _, j := range c.byWord[w] {
			k := &c.count[j]
			if k.pass != c.pass {
				k.pass, k.shared = c.pass, 0
				seen = append(seen, j)
			}
			k.shared++
		}
	}
	c.seen = seen
	var out []int
	for _, j := range seen {
		if float64(c.count[j].shared)/float64(len(c.words[j])) >= least {
			out = append(out, j)
		}
	}
	slices.Sort(out)
	return out
}

// Value is the value title j was added with.
func (c *Titles[T]) Value(j int) T { return c.vals[j] }
