package model

import (
	"fmt"
	"sync"
	"testing"
)

// The package's patterns are compiled at first use: goroutines that all
// start at once (the first use when this test runs alone, `go test -run
// Lazy -race`) parse files, read errors and check variables as one
// goroutine does.
func TestLazyPatternsConcurrent(t *testing.T) {
	files := []string{
		"---\r\nid: " + testID + "\r\nkind: decision\r\ntitle: t\r\n---\r\nbody\r\n",
		"---\nkind: decision\ntitle: [unclosed\n---\n",
		"---\nkind: decision\ntitle: *nowhere\n---\n",
	}
	names := []string{"a", "_b.c-d", "9x", ""}
	describe := func() string {
		s := ""
		for _, f := range files {
			it, err := Parse("f.md", []byte(f))
			if it != nil {
				s += fmt.Sprintf("%q %q|", it.Title, it.Body)
			}
			s += fmt.Sprintf("%v|", err)
		}
		for _, n := range names {
			s += fmt.Sprintf("%v|", ValidVariable(n))
		}
		return s
	}
	const n = 8
	var (
		wg    sync.WaitGroup
		start = make(chan struct{})
		got   [n]string
	)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			got[i] = describe()
		}()
	}
	close(start)
	wg.Wait()
	want := describe()
	for i, g := range got {
		if g != want {
			t.Errorf("goroutine %d: %s\none at a time: %s", i, g, want)
		}
	}
}
