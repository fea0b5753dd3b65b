package chunk

import (
	"regexp"
	"sync"
	"testing"
)

// The line patterns are compiled at first use: chunks cut by goroutines
// that all start at once (the first use of each pattern, when this test
// runs first, as `go test -run Lazy -race` does) are those cut one at a
// time, and a Turn that WithDefaults set is the default's fast path.
func TestLazyPatternsConcurrent(t *testing.T) {
	body := "# Title\n\n## Part\n\n**User**: a question\n\n**Assistant**: an answer\n\n```\ncode\n```\n\n**Maya:** hello\n\n**Decisions**\n\n- one\n"
	const n = 8
	var (
		wg     sync.WaitGroup
		start  = make(chan struct{})
		got    [n][]Chunk
		turns  [n]*regexp.Regexp
		sects  [n][]Chunk
		dialog [n][]Chunk
	)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			opts := Options{MaxTokens: 20}.WithDefaults()
			turns[i] = opts.Turn
			got[i] = Split(body, 1, opts)
			sects[i] = SplitSections(body, 1, opts)
			dialog[i] = SplitDialogue(body, 1, opts)
		}()
	}
	close(start)
	wg.Wait()
	opts := Options{MaxTokens: 20}.WithDefaults()
	want, wantSects, wantDialog := Split(body, 1, opts), SplitSections(body, 1, opts), SplitDialogue(body, 1, opts)
	for i := range n {
		if turns[i] != opts.Turn || !isDefaultTurn(turns[i]) {
			t.Fatalf("goroutine %d: WithDefaults set Turn %p, want the default %p", i, turns[i], opts.Turn)
		}
		for _, c := range []struct {
			name      string
			got, want []Chunk
		}{{"Split", got[i], want}, {"SplitSections", sects[i], wantSects}, {"SplitDialogue", dialog[i], wantDialog}} {
			if len(c.got) != len(c.want) {
				t.Fatalf("goroutine %d: %s made %d chunks, one at a time %d", i, c.name, len(c.got), len(c.want))
			}
			for j := range c.got {
				if c.got[j] != c.want[j] {
					t.Errorf("goroutine %d: %s chunk %d = %+v, one at a time %+v", i, c.name, j, c.got[j], c.want[j])
				}
			}
		}
	}
	if regexp.MustCompile(defaultTurn.String()).String() != opts.Turn.String() {
		t.Errorf("default Turn %q, its pattern %q", opts.Turn, defaultTurn)
	}
}
