package watcher

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"
)

// Swept counts what Sweep did with the temporary files that writers
// killed before their rename left in the inbox.
type Swept struct {
	// Rescued are complete documents renamed to the name their writer
	// meant: they are taken like any drop.
	Rescued int `json:"rescued,omitempty"`
	// Removed are empty files, and files cut short, removed.
	Removed int `json:"removed,omitempty"`
}

// Sweep cleans up the writers' temporary files in the inbox
// (QueueOptions.Staged) older than a minute: a younger one may be a write
// in progress. An agent that exits at once (claude -p) can kill its hooks
// between their write and their rename. A file that holds a complete
// document (not JSON at all, or one whole JSON value) is renamed to the
// name its writer meant, so that no complete payload is lost; an empty
// file, or JSON cut short, is removed. Without Staged it does nothing.
func (q *Queue) Sweep(ctx context.Context) (Swept, error) {
	var n Swept
	if q.staged == nil {
		return n, nil
	}
	es, err := os.ReadDir(q.inbox)
	if err != nil {
		return n, fmt.Errorf("sweep %s: %w", q.inbox, err)
	}
	now := q.now()
	for _, e := range es {
		if err := ctx.Err(); err != nil {
			return n, err
		}
		final, ok := q.staged(e.Name())
		if !ok || !e.Type().IsRegular() || final == "" || filepath.Base(final) != final || isHidden(final) {
			continue
		}
		fi, err := e.Info()
		if err != nil || now.Sub(fi.ModTime()) < minTempAge {
			continue
		}
		src := filepath.Join(q.inbox, e.Name())
		data, full, err := readHead(src, MaxJobSize)
		if err != nil {
			continue // gone meanwhile, or unreadable: left alone
		}
		if full && cutShort(data) {
			if err := os.Remove(src); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return n, fmt.Errorf("sweep %s: %w", src, err)
			}
			n.Removed++
			continue
		}
		dst := filepath.Join(q.inbox, final)
		if _, err := os.Lstat(dst); err == nil {
			continue // never over another file
		}
		if err := os.Rename(src, dst); err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				continue
			}
			return n, fmt.Errorf("sweep %s: %w", src, err)
		}
		n.Rescued++
	}
	return n, nil
}

// cutShort reports whether data, all a file holds, is nothing (or part
// of a byte order mark), or JSON that does not end: what a writer killed
// while writing, or still writing, leaves. JSON's own white space only:
// a document that begins with another space is no JSON, whole or not.
func cutShort(data []byte) bool {
	if len(data) < len(utf8BOM) && bytes.HasPrefix(utf8BOM, data) {
		return true
	}
	t := jsonTrim(bytes.TrimPrefix(data, utf8BOM))
	if len(t) == 0 {
		return true
	}
	return (t[0] == '{' || t[0] == '[') && !json.Valid(t)
}

// jsonTrim returns b without the white space JSON allows around a value.
func jsonTrim(b []byte) []byte { return bytes.Trim(b, " \t\r\n") }

// Wait is an unfinished job that Claim does not hand out now, and why.
type Wait struct {
	// Job is the job's id, or the name of an inbox file not taken yet.
	Job  string `json:"job"`
	Kind string `json:"kind,omitempty"`
	// Reason is WaitSettle, WaitWriting, WaitRetry, WaitHeld or WaitClaimed.
	Reason string `json:"reason"`
	// Until is when it is due again; zero for a claimed job.
	Until     time.Time `json:"until,omitzero"`
	Attempts  int       `json:"attempts,omitempty"`
	LastError string    `json:"last_error,omitempty"`
}

// The reasons of a Wait.
const (
	WaitSettle  = "settling"   // a dropped file not yet unchanged for Settle
	WaitWriting = "writing"    // a document not yet whole (QueueOptions.Document)
	WaitRetry   = "retry"      // a failed job waiting for its backoff
	WaitHeld    = "held"       // put back by this Queue when the disk was full
	WaitClaimed = "processing" // claimed by a worker that is running it
)

// String says it in a line: "hook-1-2.json: settling until 10:04:05".
func (w Wait) String() string {
	var s string
	switch w.Reason {
	case WaitSettle:
		s = fmt.Sprintf("%s: written in place, taken once unchanged for a moment (at %s)", w.Job, w.Until.Local().Format(time.TimeOnly))
	case WaitWriting:
		s = fmt.Sprintf("%s: being written, taken once whole (or as it is at %s)", w.Job, w.Until.Local().Format(time.TimeOnly))
	case WaitRetry:
		s = fmt.Sprintf("%s (%s): failed %d time(s), retried at %s", w.Job, w.Kind, w.Attempts, w.Until.Local().Format(time.TimeOnly))
	case WaitHeld:
		s = fmt.Sprintf("%s (%s): could not be recorded (disk full?), retried at %s", w.Job, w.Kind, w.Until.Local().Format(time.TimeOnly))
	case WaitClaimed:
		s = fmt.Sprintf("%s (%s): being run by another worker (the daemon, or another cairn queue run)", w.Job, w.Kind)
	default:
		s = fmt.Sprintf("%s (%s): %s", w.Job, w.Kind, w.Reason)
	}
	if w.LastError != "" && w.Reason == WaitRetry {
		s += "; last error: " + w.LastError
	}
	return s
}

// Waiting lists the unfinished jobs Claim would not hand out now, oldest
// first: pending jobs not due yet, inbox files still settling, and jobs
// another worker holds in processing/.
func (q *Queue) Waiting(ctx context.Context) ([]Wait, error) {
	now := q.now()
	var out []Wait
	es, err := q.scan(q.inbox, true)
	if err != nil {
		return nil, fmt.Errorf("waiting: %w", err)
	}
	for _, e := range es {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if e.id != "" {
			if j, err := q.readJob(q.inbox, e.name); err == nil && !q.forged(j) {
				switch {
				case j.NotBefore.After(now):
					out = append(out, Wait{Job: j.ID, Kind: j.Kind, Reason: WaitRetry, Until: j.NotBefore, Attempts: j.Attempts, LastError: j.LastError})
				case q.heldUntil(j.ID).After(now):
					out = append(out, Wait{Job: j.ID, Kind: j.Kind, Reason: WaitHeld, Until: q.heldUntil(j.ID)})
				}
				continue
			}
		}
		if q.isDocument(e.name) {
			p := filepath.Join(q.inbox, e.name)
			if data, full, err := readHead(p, MaxJobSize); err == nil {
				if due := q.documentDue(p, data, full, e.mod); now.Before(due) {
					out = append(out, Wait{Job: e.name, Kind: KindInboxFile, Reason: WaitWriting, Until: due})
				}
			}
			continue
		}
		if !q.settled(e, now) {
			out = append(out, Wait{Job: e.name, Kind: KindInboxFile, Reason: WaitSettle, Until: e.mod.Add(q.settle)})
		}
	}
	ps, err := q.scan(q.dirs[Processing], false)
	if err != nil {
		return nil, fmt.Errorf("waiting: %w", err)
	}
	for _, e := range ps {
		w := Wait{Job: e.name, Reason: WaitClaimed}
		if e.id != "" {
			w.Job = e.id
			if j, err := q.readJob(q.dirs[Processing], e.name); err == nil {
				w.Kind = j.Kind
			}
		}
		out = append(out, w)
	}
	return out, nil
}

// heldUntil is when a job putBack held is due; zero if it is not held.
func (q *Queue) heldUntil(id string) time.Time {
	q.heldMu.Lock()
	defer q.heldMu.Unlock()
	return q.held[id]
}
