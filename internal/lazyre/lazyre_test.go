package lazyre

import (
	"strings"
	"sync"
	"testing"
)

func TestLazy(t *testing.T) {
	r := New(`(?i)\bport (\d+)`)
	if r.re != nil {
		t.Fatal("compiled before its first use")
	}
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			if m := r.FindStringSubmatch("the Port 8080 is taken"); len(m) != 2 || m[1] != "8080" {
				t.Errorf("FindStringSubmatch = %q", m)
			}
		})
	}
	wg.Wait()
	if !r.MatchString("PORT 1") || r.String() != `(?i)\bport (\d+)` {
		t.Error("MatchString or String differ from regexp's")
	}
	if got := r.ReplaceAllString("port 1, port 2", "p$1"); got != "p1, p2" {
		t.Errorf("ReplaceAllString = %q", got)
	}
}

func TestCheck(t *testing.T) {
	if err := Check(); err != nil {
		t.Fatal(err)
	}
	New(`(unclosed`)
	defer func() { all = all[:len(all)-1] }()
	if err := Check(); err == nil || !strings.Contains(err.Error(), "missing closing )") {
		t.Fatalf("Check = %v, want the pattern's error", err)
	}
}
