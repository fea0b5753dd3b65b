// Command thin is the least a client of a running cairn daemon needs to
// checkpoint a memory: it reads the daemon's address and token from the
// memory's state folder, checks that the daemon answers and asks it to
// checkpoint, as `cairn checkpoint` does when a daemon runs, with nothing
// but the standard library linked. It is not a cairn command: it measures
// the process floor a small client binary would have (issue 15), beside
// `cairn checkpoint` in bench/checkpoint.sh.
//
//	thin MEMORY [MESSAGE]
package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"time"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: thin MEMORY [MESSAGE]")
		os.Exit(2)
	}
	msg := ""
	if len(os.Args) > 2 {
		msg = os.Args[2]
	}
	commit, err := checkpoint(filepath.Join(os.Args[1], ".state"), msg)
	if err != nil {
		fmt.Fprintln(os.Stderr, "thin:", err)
		os.Exit(1)
	}
	fmt.Println(commit)
}

func checkpoint(state, msg string) (string, error) {
	read := func(name string) (string, error) {
		b, err := os.ReadFile(filepath.Join(state, name))
		return strings.TrimSpace(string(b)), err
	}
	addr, err := read("addr")
	if err != nil {
		return "", err
	}
	token, err := read("token")
	if err != nil {
		return "", err
	}
	hc := &http.Client{Timeout: time.Minute}
	call := func(method, path string, body []byte) ([]byte, error) {
		req, err := http.NewRequest(method, strings.TrimRight(addr, "/")+path, bytes.NewReader(body))
		if err != nil {
			return nil, err
		}
		req.Header.Set("Authorization", "Bearer "+token)
		req.Header.Set("Content-Type", "application/json")
		resp, err := hc.Do(req)
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
	if _, err := call(http.MethodGet, "/api/health", nil); err != nil {
		return "", err
	}
	body, _ := json.Marshal(map[string]string{"message": msg})
	b, err := call(http.MethodPost, "/api/checkpoint", body)
	if err != nil {
		return "", err
	}
	var resp struct{ Commit string }
	if err := json.Unmarshal(b, &resp); err != nil {
		return "", fmt.Errorf("checkpoint: bad answer: %w", err)
	}
	return resp.Commit, nil
}
