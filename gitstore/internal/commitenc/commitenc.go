// Package commitenc writes the bytes of a git commit object and of its
// message, as git does: the subject on one line, the body, then the
// trailers cairn reads back (Cairn-Session, Cairn-Event, ...).
package commitenc

import (
	"bytes"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/go-git/go-git/v5/config"
	"github.com/go-git/go-git/v5/plumbing"
)

// Identity is who writes a commit: its author and committer.
type Identity struct{ Name, Email string }

// Trailer is a "Key: value" line at the end of a commit message.
type Trailer struct{ Key, Value string }

// Message formats a commit message: the subject on one line, the body if
// any, and the trailers with a value, each on one line.
func Message(subject, body string, trailers []Trailer) []byte {
	var b bytes.Buffer
	b.WriteString(strings.TrimSpace(strings.ReplaceAll(subject, "\n", " ")))
	b.WriteString("\n")
	if body = strings.TrimSpace(body); body != "" {
		b.WriteString("\n" + body + "\n")
	}
	first := true
	for _, t := range trailers {
		if t.Value == "" {
			continue
		}
		if first {
			b.WriteString("\n")
			first = false
		}
		fmt.Fprintf(&b, "%s: %s\n", t.Key, strings.ReplaceAll(t.Value, "\n", " "))
	}
	return b.Bytes()
}

// Commit writes a commit object's body, as git does, with name and email
// as its author and committer.
func Commit(tree plumbing.Hash, parents []plumbing.Hash, name, email string, t time.Time, msg []byte) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "tree %s\n", tree)
	for _, p := range parents {
		fmt.Fprintf(&b, "parent %s\n", p)
	}
	sig := fmt.Sprintf("%s <%s> %d %s", name, email, t.Unix(), t.Format("-0700"))
	fmt.Fprintf(&b, "author %s\ncommitter %s\n\n", sig, sig)
	b.Write(msg)
	return b.Bytes()
}

// DefaultIdentity completes id: what it lacks comes from
// CAIRN_AUTHOR_NAME and CAIRN_AUTHOR_EMAIL, else the user's git identity
// when one is configured, so that checkpoints read as theirs in a shared
// history, and "cairn" otherwise.
func DefaultIdentity(id Identity) Identity {
	if id.Name == "" {
		id.Name = os.Getenv("CAIRN_AUTHOR_NAME")
	}
	if id.Email == "" {
		id.Email = os.Getenv("CAIRN_AUTHOR_EMAIL")
	}
	if id.Name == "" || id.Email == "" {
		if cfg, err := config.LoadConfig(config.GlobalScope); err == nil {
			if id.Name == "" {
				id.Name = cfg.User.Name
			}
			if id.Email == "" {
				id.Email = cfg.User.Email
			}
		}
	}
	if id.Name == "" {
		id.Name = "cairn"
	}
	if id.Email == "" {
		host, _ := os.Hostname()
		if host == "" {
			host = "localhost"
		}
		id.Email = "cairn@" + host
	}
	return id
}
