// Command thin is the least a client of a running cairn daemon needs to
// checkpoint a memory or search it: it reads the daemon's address and
// token from the memory's state folder, checks that the daemon answers
// and asks it, as `cairn checkpoint` and `cairn search` do when a daemon
// runs, with nothing but the standard library linked. It is not a cairn
// command: it measures the process floor a small client binary would
// have (issue 15), beside cairn in bench/checkpoint.sh and
// bench/search.sh.
//
//	thin checkpoint MEMORY [MESSAGE]
//	thin search MEMORY QUERY
package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"
)

func main() {
	if len(os.Args) < 3 || os.Args[1] != "checkpoint" && (os.Args[1] != "search" || len(os.Args) < 4) {
		fmt.Fprintln(os.Stderr, "usage: thin checkpoint MEMORY [MESSAGE] | thin search MEMORY QUERY")
		os.Exit(2)
	}
	c, err := dial(filepath.Join(os.Args[2], ".state"))
	if err == nil {
		var out string
		if os.Args[1] == "checkpoint" {
			out, err = c.checkpoint(strings.Join(os.Args[3:], " "))
		} else {
			out, err = c.search(strings.Join(os.Args[3:], " "))
		}
		fmt.Print(out)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "thin:", err)
		os.Exit(1)
	}
}

type client struct {
	addr, token string
	hc          *http.Client
}

// dial finds the daemon as cairn does: its address and token in the state
// folder, and an answer to GET /api/health.
func dial(state string) (*client, error) {
	read := func(name string) (string, error) {
		b, err := os.ReadFile(filepath.Join(state, name))
		return strings.TrimSpace(string(b)), err
	}
	addr, err := read("addr")
	if err != nil {
		return nil, err
	}
	token, err := read("token")
	if err != nil {
		return nil, err
	}
	c := &client{addr: strings.TrimRight(addr, "/"), token: token, hc: &http.Client{Timeout: time.Minute}}
	if _, err := c.call(http.MethodGet, "/api/health", nil); err != nil {
		return nil, err
	}
	return c, nil
}

func (c *client) call(method, path string, body []byte) ([]byte, error) {
	req, err := http.NewRequest(method, c.addr+path, bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Authorization", "Bearer "+c.token)
	req.Header.Set("Content-Type", "application/json")
	resp, err := c.hc.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err == nil && resp.StatusCode/100 != 2 {
		err = fmt.Errorf("%s %s: HTTP %d: %s", method, path, resp.StatusCode, bytes.TrimSpace(b))
	}
	return b, err
}

// search prints the answer's JSON as it came: cairn would format it.
func (c *client) search(q string) (string, error) {
	b, err := c.call(http.MethodGet, "/api/search?"+url.Values{"q": {q}}.Encode(), nil)
	return string(b), err
}

func (c *client) checkpoint(msg string) (string, error) {
	body, _ := json.Marshal(map[string]string{"message": msg})
	b, err := c.call(http.MethodPost, "/api/checkpoint", body)
	if err != nil {
		return "", err
	}
	var resp struct{ Commit string }
	if err := json.Unmarshal(b, &resp); err != nil {
		return "", fmt.Errorf("checkpoint: bad answer: %w", err)
	}
	return resp.Commit + "\n", nil
}
