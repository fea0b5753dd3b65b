package filestate

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

func input(m map[string]string) json.RawMessage {
	b, _ := json.Marshal(m)
	return b
}

// TestKnownFilesBounded: what is kept to compare a later Write with is
// bounded, and a file WriteReplacements would refuse (over 400 lines) is
// not kept at all.
func TestKnownFilesBounded(t *testing.T) {
	var listing strings.Builder
	for i := 1; i <= 2000; i++ { // a 2,000-line source file: never compared
		fmt.Fprintf(&listing, "%6d→\tx := compute(%d) // row\n", i, i)
	}
	var f Files
	for i := 0; i < 300; i++ {
		id := fmt.Sprintf("r%d", i)
		f.Call(id, "Read", input(map[string]string{"file_path": fmt.Sprintf("/p/src/f%d.go", i)}))
		f.Result(id, listing.String(), false)
	}
	held := 0
	for _, text := range f.text {
		held += len(text)
	}
	if held > 0 {
		t.Errorf("%d files, %d bytes held for writes that can never be compared (over %d lines)", len(f.text), held, maxLines)
	}
	for i := 0; i < 300; i++ { // small configs: at most maxFiles of them
		id := fmt.Sprintf("c%d", i)
		f.Call(id, "Read", input(map[string]string{"file_path": fmt.Sprintf("/p/conf/%d.toml", i)}))
		f.Result(id, "1\tport = 8790\n", false)
	}
	if len(f.text) > maxFiles {
		t.Errorf("%d files held, want at most %d", len(f.text), maxFiles)
	}
}
