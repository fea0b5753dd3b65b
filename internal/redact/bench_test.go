package redact

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// transcriptText builds about 4 MB of what cairn redacts: condensed
// transcripts (the clean corpus: JSONL, code, logs, configs, prose), this
// package's own source as code the agent read, and one planted secret in
// every 64 KB or so.
func transcriptText(b *testing.B) string {
	b.Helper()
	var parts []string
	for _, glob := range []string{"testdata/clean/*", "*.go"} {
		files, _ := filepath.Glob(glob)
		for _, name := range files {
			data, err := os.ReadFile(name)
			if err != nil {
				b.Fatal(err)
			}
			parts = append(parts, string(data))
		}
	}
	planted := loadPlanted(b)
	var sb strings.Builder
	for i := 0; sb.Len() < 4<<20; i++ {
		sb.WriteString(parts[i%len(parts)])
		if i%4 == 0 {
			sb.WriteString("\n" + planted[i%len(planted)].context + "\n")
		}
	}
	return sb.String()
}

func BenchmarkRedact(b *testing.B) {
	text := transcriptText(b)
	b.SetBytes(int64(len(text)))
	b.ResetTimer()
	for b.Loop() {
		Redact(text)
	}
}

// BenchmarkRedactClean: text without secrets, the common case.
func BenchmarkRedactClean(b *testing.B) {
	data, err := os.ReadFile(filepath.Join("testdata", "clean", "code.go.txt"))
	if err != nil {
		b.Fatal(err)
	}
	text := strings.Repeat(string(data), 1<<20/len(data))
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		Redact(text)
	}
}

// BenchmarkRedactOneLine: a 2 MB line of minified JSON full of
// secret-looking names, where any look back to the line's start would be
// quadratic.
func BenchmarkRedactOneLine(b *testing.B) {
	unit := `{"input_tokens":4,"token":"EOF","password":"","api_key":null,"secret":{"name":"x"},"auth":"basic"},`
	text := "[" + strings.Repeat(unit, 2<<20/len(unit)) + "]"
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		Redact(text)
	}
}
