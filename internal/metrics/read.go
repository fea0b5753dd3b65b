package metrics

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path/filepath"
	"time"

	"github.com/cairn-mem/cairn/internal/safefile"
)

// maxRead bounds what is read of one file: a file grown far past
// MaxBytes by hand is read in part rather than into memory whole.
const maxRead = 64 << 20

// Read returns the events of the log in stateDir at or after since,
// oldest file first, in the order they were written. A missing log has
// no events. Lines that are not events (the end of a line a crash cut
// short, anything written by hand) are skipped without an error.
func Read(ctx context.Context, stateDir string, since time.Time) ([]Event, error) {
	dir := filepath.Join(stateDir, Dir)
	names, err := rotated(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []Event
	for _, n := range append(names, current) {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		data, err := readFile(dir, n)
		if errors.Is(err, fs.ErrNotExist) {
			continue // rotated or removed meanwhile
		}
		if err != nil {
			return nil, err
		}
		Parse(data, func(e Event) {
			if !e.Time.Before(since) {
				out = append(out, e)
			}
		})
	}
	return out, nil
}

func readFile(dir, name string) ([]byte, error) {
	f, err := safefile.OpenInRoot(dir, name)
	if err != nil {
		return nil, fmt.Errorf("metrics: read: %w", err)
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxRead))
	if err != nil {
		return nil, fmt.Errorf("metrics: read %s: %w", filepath.Join(dir, name), err)
	}
	return data, nil
}

// lineStart is how every line Record writes begins.
const lineStart = `{"t":`

// Parse calls fn with each event in data, a log file's bytes, in order.
// A line that is not an event is skipped. A line a crash cut short has
// the next process's line appended to it: the event after the cut is
// found by where an event starts, so only the cut one is lost.
func Parse(data []byte, fn func(Event)) {
	for len(data) > 0 {
		line := data
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			line, data = data[:i], data[i+1:]
		} else {
			data = nil
		}
		if e, ok := parseLine(line); ok {
			fn(e)
		}
	}
}

func parseLine(line []byte) (Event, bool) {
	line = bytes.TrimSpace(line)
	if len(line) == 0 {
		return Event{}, false
	}
	e, ok := decode(line)
	if !ok {
		// Cut short, then appended to: the last event start is whole.
		if i := bytes.LastIndex(line, []byte(lineStart)); i > 0 {
			e, ok = decode(line[i:])
		}
	}
	return e, ok
}

func decode(b []byte) (Event, bool) {
	var e Event
	if json.Unmarshal(b, &e) != nil || e.Time.IsZero() || !known(e.Kind) {
		return Event{}, false
	}
	e.clean() // a file written by hand is held to what Record writes
	return e, true
}

func known(k Kind) bool {
	switch k {
	case KindSummary, KindPack, KindSearch, KindCapture, KindGauge:
		return true
	}
	return false
}
