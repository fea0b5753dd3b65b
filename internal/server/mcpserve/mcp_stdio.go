package mcpserve

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// StdioTransport is the transport of cairn mcp: newline-delimited
// JSON-RPC read from r and written to w, as mcp.IOTransport, except that
// a line that is not a JSON-RPC message is answered with a JSON-RPC
// error and the session goes on. The SDK's transport ends the session at
// the first such line: one stray line from a client, or a line a
// terminal mangled, would end cairn mcp. A line that is not JSON is
// answered -32700 (parse error); JSON that is not one JSON-RPC message
// (another value, a message without "jsonrpc": "2.0", a batch, which MCP
// no longer has) -32600 (invalid request), with the id when it has one.
// A line longer than mcp.DefaultMaxLineLength is a parse error too, and
// is not held in memory.
func StdioTransport(r io.Reader, w io.Writer) mcp.Transport {
	out := &lockedWriter{w: w}
	return &mcp.IOTransport{
		Reader: io.NopCloser(&lineFilter{r: bufio.NewReaderSize(r, 64<<10), w: out, max: mcp.DefaultMaxLineLength}),
		Writer: out,
	}
}

// lockedWriter serialises the writes of the SDK's connection (one whole
// message per Write) and of lineFilter's error answers.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

func (l *lockedWriter) Close() error { return nil }

// lineFilter passes on the lines of r that are JSON-RPC messages and
// answers the others on w.
type lineFilter struct {
	r    *bufio.Reader
	w    io.Writer
	max  int
	next []byte // what is left of the line being passed on
	err  error  // r's error, returned once next is empty
}

func (f *lineFilter) Read(p []byte) (int, error) {
	for len(f.next) == 0 {
		if f.err != nil {
			return 0, f.err
		}
		line, tooLong, err := f.line()
		f.err = err
		if tooLong {
			f.answer(nil, jsonrpc.CodeParseError, fmt.Sprintf("Parse error: a line longer than %d bytes", f.max))
			continue
		}
		trimmed := bytes.TrimSpace(line)
		if len(trimmed) == 0 {
			continue
		}
		if id, code, msg := check(trimmed); code != 0 {
			f.answer(id, code, msg)
			continue
		}
		f.next = append(trimmed, '\n')
	}
	n := copy(p, f.next)
	f.next = f.next[n:]
	return n, nil
}

// line reads the next line, without its newline. A line over the limit
// is read to its end and dropped (tooLong).
func (f *lineFilter) line() (line []byte, tooLong bool, err error) {
	for {
		chunk, err := f.r.ReadSlice('\n')
		if !tooLong {
			line = append(line, chunk...)
			if len(line) > f.max {
				tooLong, line = true, nil
			}
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		return bytes.TrimSuffix(line, []byte("\n")), tooLong, err
	}
}

// check returns the JSON-RPC error code (0 for none) for a line, with
// the line's id when it has one that can be read.
func check(line []byte) (id json.RawMessage, code int, msg string) {
	if !json.Valid(line) {
		var v any
		err := json.Unmarshal(line, &v)
		return nil, jsonrpc.CodeParseError, fmt.Sprintf("Parse error: %v", err)
	}
	if line[0] != '{' {
		if line[0] == '[' {
			return nil, jsonrpc.CodeInvalidRequest, "Invalid Request: JSON-RPC batches are not supported"
		}
		return nil, jsonrpc.CodeInvalidRequest, "Invalid Request: not a JSON-RPC message (want an object)"
	}
	if _, err := jsonrpc.DecodeMessage(line); err != nil {
		var m struct {
			ID json.RawMessage `json:"id"`
		}
		if json.Unmarshal(line, &m) == nil && len(m.ID) > 0 {
			var s string
			var n json.Number
			if json.Unmarshal(m.ID, &s) == nil || json.Unmarshal(m.ID, &n) == nil {
				id = m.ID
			}
		}
		return id, jsonrpc.CodeInvalidRequest, fmt.Sprintf("Invalid Request: %v", err)
	}
	return nil, 0, ""
}

// answer writes a JSON-RPC error response (id null when it is not known).
func (f *lineFilter) answer(id json.RawMessage, code int, msg string) {
	if id == nil {
		id = json.RawMessage("null")
	}
	b, err := json.Marshal(struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Error   struct {
			Code    int    `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}{JSONRPC: "2.0", ID: id, Error: struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	}{code, msg}})
	if err == nil {
		f.w.Write(append(b, '\n'))
	}
}
