package llm

import (
	"sync"
	"testing"
)

// The prompts' templates are parsed, and the claude CLI's transient
// failures' pattern compiled, at first use: goroutines that all start at
// once (the first use when this test runs alone, `go test -run Lazy
// -race`) render the prompts one goroutine renders.
func TestLazyTemplatesConcurrent(t *testing.T) {
	first := loadRequest(t, "../testdata/segments/bugfix.json")
	next := loadRequest(t, "../testdata/segments/design.json")
	next.PreviousSummary = "## Segment 1\n\n**Done**\n- work\n"
	render := func() (string, error) {
		a, err := buildPrompt(first, 1, bugfixHead)
		if err != nil {
			return "", err
		}
		b, err := buildPrompt(next, 2, "## Segment 2")
		s := a + "\x00" + b
		if transientCLI.MatchString("API Error: 529 overloaded") {
			s += "\x00transient"
		}
		return s, err
	}
	const n = 8
	var (
		wg    sync.WaitGroup
		start = make(chan struct{})
		got   [n]string
		errs  [n]error
	)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			got[i], errs[i] = render()
		}()
	}
	close(start)
	wg.Wait()
	want, err := render()
	if err != nil {
		t.Fatal(err)
	}
	for i := range n {
		if errs[i] != nil || got[i] != want {
			t.Errorf("goroutine %d: %d bytes, error %v; one at a time %d bytes", i, len(got[i]), errs[i], len(want))
		}
	}
}
