package main

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"
)

// A conv is one conversation of the set: its turns as the file has them
// and its questions.
type conv struct {
	Name     string
	Dir      string
	File     string // conversation.md
	Sessions []session
	turns    map[string]string // "S3:4" -> its text, without the speaker
	Qs       []question
}

type session struct {
	N     int
	Turns []string // "Maya: text"
}

type question struct {
	ID       string   `yaml:"id"`
	Kind     string   `yaml:"kind"`
	Question string   `yaml:"question"`
	Answer   string   `yaml:"answer"`
	Evidence []string `yaml:"evidence"`
}

var (
	sessionLine = regexp.MustCompile(`^##\s+Session\s+(\d+)\b`)
	turnLine    = regexp.MustCompile(`^\*\*([^*:]+):\*\*\s*(.*)$`)
)

// load reads a conversation folder. Turn ids are counted from the file, as
// testdata/convo's format says: S<session>:<turn>, from 1 within the
// session.
func load(dir string) (*conv, error) {
	c := &conv{Name: filepath.Base(dir), Dir: dir, File: filepath.Join(dir, "conversation.md"), turns: map[string]string{}}
	data, err := os.ReadFile(c.File)
	if err != nil {
		return nil, err
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	for ln := 1; sc.Scan(); ln++ {
		line := strings.TrimRight(sc.Text(), " \t\r")
		if m := sessionLine.FindStringSubmatch(line); m != nil {
			n, _ := strconv.Atoi(m[1])
			c.Sessions = append(c.Sessions, session{N: n})
			continue
		}
		m := turnLine.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		if len(c.Sessions) == 0 {
			return nil, fmt.Errorf("%s:%d: a turn before the first session heading", c.File, ln)
		}
		s := &c.Sessions[len(c.Sessions)-1]
		s.Turns = append(s.Turns, strings.TrimSpace(m[1])+": "+m[2])
		c.turns[fmt.Sprintf("S%d:%d", s.N, len(s.Turns))] = m[2]
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("read %s: %w", c.File, err)
	}
	if len(c.turns) == 0 {
		return nil, fmt.Errorf("%s: no turns", c.File)
	}
	qf := filepath.Join(dir, "questions.yaml")
	data, err = os.ReadFile(qf)
	if err != nil {
		return nil, err
	}
	var qs struct {
		Questions []question `yaml:"questions"`
	}
	if err := yaml.Unmarshal(data, &qs); err != nil {
		return nil, fmt.Errorf("%s: %w", qf, err)
	}
	for _, q := range qs.Questions {
		if !knownKind(q.Kind) {
			return nil, fmt.Errorf("%s: question %s: kind %q is not one of %s", qf, q.ID, q.Kind, strings.Join(kinds, ", "))
		}
		if len(q.Evidence) == 0 {
			return nil, fmt.Errorf("%s: question %s has no evidence", qf, q.ID)
		}
		for _, id := range q.Evidence {
			if _, ok := c.turns[id]; !ok {
				return nil, fmt.Errorf("%s: question %s: no turn %s in %s", qf, q.ID, id, c.File)
			}
		}
	}
	c.Qs = qs.Questions
	if len(c.Qs) == 0 {
		return nil, fmt.Errorf("%s: no questions", qf)
	}
	return c, nil
}

// kinds are the kinds of question, in the order tables show them.
var kinds = []string{"single", "multi", "time", "inference"}

func knownKind(k string) bool {
	for _, x := range kinds {
		if x == k {
			return true
		}
	}
	return false
}
