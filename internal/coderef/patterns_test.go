package coderef

import (
	"testing"

	"github.com/cairn-mem/cairn/internal/lazyre"
)

// The package's expressions are compiled at their first use (package
// lazyre): this compiles them all, as regexp.MustCompile did at start.
func TestPatternsCompile(t *testing.T) {
	if err := lazyre.Check(); err != nil {
		t.Fatal(err)
	}
}
