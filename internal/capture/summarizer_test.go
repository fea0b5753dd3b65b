package capture

import (
	"os"
	"testing"
)

// The summarize section of cairn.yaml picks the provider; an unknown one
// falls back to the extractive summariser with an error.
func TestSummarizerConfig(t *testing.T) {
	m := testMemory(t)
	m.Config.Summarize.Provider = "gpt-9"
	if sum, err := Summarizer(m, os.Getenv); err == nil || sum == nil {
		t.Errorf("unknown provider: %v", err)
	}
}
