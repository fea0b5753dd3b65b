package memory

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cairn-mem/cairn/internal/config"
)

// The capture and summarize sections documented in the skeleton's
// cairn.yaml read as documented.
func TestCaptureConfig(t *testing.T) {
	b, err := skel.ReadFile("skel/cairn.yaml")
	if err != nil {
		t.Fatal(err)
	}
	text := string(b)
	text = text[strings.Index(text, "# capture:"):]
	var lines []string
	for _, l := range strings.Split(text, "\n") {
		if l, ok := strings.CutPrefix(l, "# "); ok && (strings.HasPrefix(l, " ") || strings.HasSuffix(l, ":")) {
			lines = append(lines, l)
		}
	}
	dir := t.TempDir()
	name := filepath.Join(dir, "cairn.yaml")
	os.WriteFile(name, []byte(strings.Join(lines, "\n")), 0o644)
	c, _, err := config.Load(name)
	if err != nil {
		t.Fatalf("%v\n%s", err, strings.Join(lines, "\n"))
	}
	cc := c.Capture
	if cc.SegmentTurnsOr() != 40 || cc.SegmentTokensOr() != 8000 || cc.ArchiveAfterOr() != 7*24*time.Hour || cc.MaxOutputOr() != 2000 ||
		len(cc.Transcripts) != len(config.DefaultTranscripts) || len(cc.Redact.Rules) != 1 || cc.Redact.Allow[0] != "^sk-test-" {
		t.Errorf("capture: %+v", cc)
	}
	if c.Summarize.Provider != "extractive" {
		t.Errorf("summarize: %+v", c.Summarize)
	}
	// The commented-out keys, uncommented, read too.
	os.WriteFile(name, []byte("summarize:\n  provider: openai\n  model: m\n  base_url: http://127.0.0.1:1\n  timeout: 30s\n  daily_tokens: -1\n  attempts: 2\n  backoff: 250ms\ncapture:\n  archive_after: 36h\n"), 0o644)
	if c, _, err = config.Load(name); err != nil {
		t.Fatal(err)
	}
	s := c.Summarize
	if s.Provider != "openai" || s.Timeout != 30*time.Second || s.DailyTokens != -1 || s.Attempts != 2 || time.Duration(s.Backoff) != 250*time.Millisecond || c.Capture.ArchiveAfterOr() != 36*time.Hour {
		t.Errorf("summarize: %+v, capture %+v", s, c.Capture)
	}
}
