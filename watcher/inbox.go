package watcher

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/cairn-mem/cairn/internal/safefile"
)

// class is what a file dropped into the inbox turned out to be.
type class int

const (
	classJob    class = iota // a job document
	classFile                // text for a consumer: an inbox-file job
	classReject              // nothing the queue can take
)

// sniffLen is how much of a file is checked for being text.
const sniffLen = 64 << 10

// classify says what the bytes of a dropped file are; full says whether
// data is the whole file. For classJob it returns the decoded job, for
// classReject the reason.
func classify(data []byte, full bool) (*Job, class, string) {
	if len(data) == 0 {
		return nil, classReject, "empty file"
	}
	head := data[:min(len(data), sniffLen)]
	if i := bytes.IndexByte(head, 0); i >= 0 {
		return nil, classReject, fmt.Sprintf("binary file (NUL byte at offset %d)", i)
	}
	if i := invalidUTF8(head, len(head) < len(data)); i >= 0 {
		return nil, classReject, fmt.Sprintf("not UTF-8 text (invalid byte at offset %d)", i)
	}
	t := bytes.TrimLeft(bytes.TrimPrefix(data, utf8BOM), " \t\r\n")
	if len(t) == 0 {
		return nil, classReject, "blank file"
	}
	if t[0] != '{' && t[0] != '[' {
		return nil, classFile, "" // Markdown, plain text: the consumer knows
	}
	if !full {
		return nil, classFile, "" // too large to be a job; JSON data
	}
	j, err := DecodeJob(data)
	if err == nil {
		if j.Kind == KindInboxFile || j.Kind == KindRejected {
			return nil, classReject, fmt.Sprintf("invalid job: kind %q is reserved for the queue", j.Kind)
		}
		return j, classJob, ""
	}
	if !errors.Is(err, ErrNotJob) {
		return nil, classReject, "invalid job: " + err.Error()
	}
	if json.Valid(t) {
		return nil, classFile, "" // one JSON document, not a job
	}
	// JSON Lines (a transcript): the consumer copes with a bad line among
	// good ones, but a file with no good line at all is not JSON.
	first := ""
	for n, line := range bytes.Split(data, []byte("\n")) {
		line = bytes.TrimSpace(line)
		if len(line) == 0 {
			continue
		}
		if json.Valid(line) {
			return nil, classFile, ""
		}
		if first == "" {
			var v any
			first = "invalid JSON at " + jsonWhereFrom(line, json.Unmarshal(line, &v), n+1)
		}
	}
	return nil, classReject, first
}

// invalidUTF8 returns the offset of the first byte of b that is not UTF-8,
// or -1. When b was cut from a longer text, a rune cut at its end is fine.
func invalidUTF8(b []byte, cut bool) int {
	for i := 0; i < len(b); {
		r, size := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && size <= 1 {
			if cut && !utf8.FullRune(b[i:]) {
				return -1
			}
			return i
		}
		i += size
	}
	return -1
}

// adopt takes the file name dropped into the inbox by someone else. A job
// document becomes a job in processing/ (with a new id, its Origin set and
// its attempts reset); other text is moved under files/ and a
// KindInboxFile job pointing at it is put in processing/; anything else is
// rejected. It returns errSkip when there is no job to return.
func (q *Queue) adopt(name string, now time.Time) (*Job, error) {
	src := filepath.Join(q.inbox, name)
	fi, err := os.Lstat(src)
	if err != nil {
		return nil, errSkip
	}
	id, err := q.newID(now)
	if err != nil {
		return nil, fmt.Errorf("claim %q: %w", name, err)
	}
	if !fi.Mode().IsRegular() {
		return nil, q.reject(name, id, fmt.Sprintf("not a regular file (%s)", typeName(fi.Mode())), now)
	}
	data, full, err := readHead(src, MaxJobSize)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, errSkip
	}
	if err != nil {
		return nil, q.reject(name, id, "cannot read it: "+err.Error(), now)
	}
	if q.isDocument(name) {
		if now.Before(q.documentDue(src, data, full, fi.ModTime())) {
			return nil, errSkip // its writer may still be writing
		}
		if full && len(jsonTrim(bytes.TrimPrefix(data, utf8BOM))) == 0 {
			// Its writer wrote nothing: nothing to capture. One cut
			// short goes to failed/ with the reason, as any bad drop.
			if err := os.Remove(src); err == nil || errors.Is(err, fs.ErrNotExist) {
				return nil, errSkip
			}
		}
	}
	dj, c, reason := classify(data, full)
	if c == classReject {
		return nil, q.reject(name, id, reason, now)
	}
	// Claim the file by moving it out of the inbox: of several claimers,
	// one rename succeeds.
	att := filepath.Join(q.files, id+"--"+safeName(name))
	if err := os.Rename(src, att); err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, errSkip
		}
		return nil, fmt.Errorf("claim %q: %w", name, err)
	}
	j := dj
	if c == classFile {
		size := fi.Size()
		var dev, ino uint64
		if fi, err := os.Lstat(att); err == nil {
			size = fi.Size()
			dev, ino = fileID(fi)
		}
		j = &Job{Kind: KindInboxFile, Pointer: &Range{Path: att, To: size, Device: dev, Inode: ino}}
	}
	j.Schema, j.ID, j.Origin, j.State = Schema, id, name, Processing
	j.Attempts, j.Abandoned, j.LastError, j.NotBefore = 0, 0, "", time.Time{}
	if j.Created.IsZero() {
		j.Created = now.UTC()
	}
	j.Updated = now.UTC()
	data, err = j.encode()
	if err == nil {
		err = safefile.WriteSync(filepath.Join(q.dirs[Processing], id+".json"), data, 0o600, safefile.SyncFile)
	}
	if err != nil {
		// The claim is undone: under files/ with no job the file was
		// out of sight of status, doctor and every worker until a
		// start-up's Recover, minutes later. Should that fail too, it
		// stays there, and Recover puts it back.
		if os.Rename(att, q.freeInboxName(name, id+"--"+safeName(name))) == nil {
			return nil, fmt.Errorf("claim %q (left in the inbox): %w", name, err)
		}
		return nil, fmt.Errorf("claim %q: %w", name, err)
	}
	if c == classJob {
		// The job is written in full; the file it came from is spent.
		_ = os.Remove(att)
	}
	return j, nil
}

// reject moves the inbox file name under files/ and records it in failed/
// with the reason. It returns errSkip once done: no job to hand out.
func (q *Queue) reject(name, id, reason string, now time.Time) error {
	att := filepath.Join(q.files, id+"--"+safeName(name))
	if err := os.Rename(filepath.Join(q.inbox, name), att); err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return errSkip
		}
		return fmt.Errorf("reject %q: %w", name, err)
	}
	var size int64
	if fi, err := os.Lstat(att); err == nil && fi.Mode().IsRegular() {
		size = fi.Size()
	}
	j := &Job{
		Schema:    Schema,
		ID:        id,
		Kind:      KindRejected,
		Pointer:   &Range{Path: att, To: size},
		Origin:    name,
		LastError: clip(fmt.Sprintf("inbox file %q: %s", name, reason)),
		Created:   now.UTC(),
		Updated:   now.UTC(),
	}
	data, err := j.encode()
	if err == nil {
		err = safefile.Write(filepath.Join(q.dirs[Failed], id+".json"), data, 0o600)
	}
	if err != nil {
		return fmt.Errorf("reject %q: %w", name, err)
	}
	if q.onReject != nil {
		j.State = Failed
		q.onReject(j)
	}
	return errSkip
}

// safeName makes a file name from outside into one that is harmless on any
// system and in any shell: at most 100 bytes of [A-Za-z0-9._-], never
// starting with a dot.
func safeName(name string) string {
	var b strings.Builder
	for _, r := range name {
		if b.Len() >= 100 {
			break
		}
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '.' || r == '_' || r == '-' {
			b.WriteRune(r)
		} else {
			b.WriteByte('_')
		}
	}
	s := strings.TrimLeft(b.String(), ".")
	if s == "" {
		return "file"
	}
	return s
}

func typeName(m fs.FileMode) string {
	switch {
	case m&fs.ModeSymlink != 0:
		return "a symbolic link"
	case m.IsDir():
		return "a directory"
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeDevice != 0:
		return "a device"
	}
	return m.Type().String()
}
