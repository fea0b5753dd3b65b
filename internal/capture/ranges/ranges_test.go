package ranges

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/cairn-mem/cairn/internal/transcript"
)

const sessionID = "3f1c9a52-7d4e-4b8a-9c61-2e5f0d8b7a14"

// BenchmarkBefore reads the megabyte of a transcript before a range
// that a daemon's job holding a Write reads again (maxBefore).
func BenchmarkBefore(b *testing.B) {
	var sb strings.Builder
	for i := 0; sb.Len() < maxBefore; i++ {
		fmt.Fprintf(&sb, `{"type":"assistant","uuid":"a%d","sessionId":%q,"timestamp":"2026-03-02T10:00:00.000Z","message":{"role":"assistant","type":"message","content":[{"type":"text","text":%q}]}}`+"\n",
			i, sessionID, strings.Repeat("The retry queue drains in two seconds. ", 8))
	}
	data := []byte(sb.String())
	tf := File{Path: "t.jsonl", R: bytes.NewReader(data)}
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if len(Before(tf, transcript.FormatClaude, int64(len(data)), transcript.Options{SessionID: sessionID})) == 0 {
			b.Fatal("no events")
		}
	}
}
