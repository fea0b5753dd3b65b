package mcpserve

import (
	"bufio"
	"bytes"
	"io"
	"strings"
	"testing"
)

// The stdio filter passes JSON-RPC messages on, one a line, and answers
// the rest: a line over the limit is dropped without being held, and the
// lines after it still pass; a last line without a newline passes.
func TestMCPStdioLineFilter(t *testing.T) {
	in := `{"jsonrpc":"2.0","id":1,"method":"ping"}` + "\n" +
		`{"jsonrpc":"2.0","id":2,"method":"` + strings.Repeat("x", 300) + `"}` + "\n" +
		"  \r\n" +
		`not json` + "\r\n" +
		`{"jsonrpc":"2.0","id":3,"method":"ping"}`
	var answers bytes.Buffer
	f := &lineFilter{r: bufio.NewReaderSize(strings.NewReader(in), 16), w: &answers, max: 100}
	passed, err := io.ReadAll(f)
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"jsonrpc":"2.0","id":1,"method":"ping"}` + "\n" + `{"jsonrpc":"2.0","id":3,"method":"ping"}` + "\n"; string(passed) != want {
		t.Errorf("passed on:\n%s\nwant:\n%s", passed, want)
	}
	got := strings.Split(strings.TrimSpace(answers.String()), "\n")
	if len(got) != 2 || !strings.Contains(got[0], `"code":-32700`) || !strings.Contains(got[0], "longer than 100 bytes") || !strings.Contains(got[1], `"code":-32700`) {
		t.Errorf("answers:\n%s", answers.String())
	}
}
