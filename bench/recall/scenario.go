package main

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"gopkg.in/yaml.v3"
)

// Scenario is a project's scenario.yaml (testdata/recall/README.md).
type Scenario struct {
	Project     string    `yaml:"project"`
	Kind        string    `yaml:"kind"`
	Description string    `yaml:"description"`
	Files       []File    `yaml:"files"`
	Sessions    []Session `yaml:"sessions"`

	dir string // the folder it was read from
}

// File is a fixture file of the scratch project.
type File struct {
	Path    string `yaml:"path"`
	Content string `yaml:"content"`
}

// Session is one Claude Code session of a scenario.
type Session struct {
	Name    string   `yaml:"name"`
	Date    string   `yaml:"date"`
	Clear   bool     `yaml:"clear"`
	Prompts []Prompt `yaml:"prompts"`
	Facts   []Fact   `yaml:"facts"`
}

// Prompt is one claude -p run: the user's words and the model's turns.
type Prompt struct {
	User  string `yaml:"user"`
	Model []Turn `yaml:"model"`
}

// Turn is one entry of the fake server's script.
type Turn struct {
	Text  string         `yaml:"text" json:"text,omitempty"`
	Tool  string         `yaml:"tool" json:"tool,omitempty"`
	Input map[string]any `yaml:"input" json:"input,omitempty"`
}

// Fact is something a session establishes that later packs must carry
// (or, once stale, must not present as current).
type Fact struct {
	ID         string   `yaml:"id"`
	Kind       string   `yaml:"kind"`
	Text       string   `yaml:"text"`
	Match      []string `yaml:"match"`
	Scope      string   `yaml:"scope"`
	Until      string   `yaml:"until"`
	StaleMatch []string `yaml:"stale_match"`

	match, stale []*regexp.Regexp
}

var (
	projectName = regexp.MustCompile(`^[a-z0-9][a-z0-9-]*$`)
	factKinds   = map[string]bool{"decision": true, "reason": true, "rejected": true, "preference": true,
		"environment": true, "root-cause": true, "open": true, "outcome": true, "request": true}
	tools = map[string]bool{"Bash": true, "Read": true, "Write": true, "Edit": true, "Grep": true, "Glob": true}
)

// LoadScenario reads and checks dir/scenario.yaml. Unknown keys are
// reported in warn and otherwise ignored, so that a scenario written with
// an optional field this program does not know still plays.
func LoadScenario(dir string, warn func(string)) (*Scenario, error) {
	name := filepath.Join(dir, "scenario.yaml")
	data, err := os.ReadFile(name)
	if err != nil {
		return nil, err
	}
	var sc Scenario
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(&sc); err != nil {
		sc = Scenario{}
		if err2 := yaml.Unmarshal(data, &sc); err2 != nil {
			return nil, fmt.Errorf("%s: %w", name, err2)
		}
		warn(fmt.Sprintf("%s: %v (ignored)", name, err))
	}
	sc.dir = dir
	if err := sc.check(); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return &sc, nil
}

// check validates what the recorder and the scorer rely on.
func (sc *Scenario) check() error {
	var errs []error
	bad := func(format string, args ...any) { errs = append(errs, fmt.Errorf(format, args...)) }
	if !projectName.MatchString(sc.Project) {
		bad("project %q: want [a-z0-9-]", sc.Project)
	} else if base := filepath.Base(sc.dir); base != sc.Project {
		bad("project %q is in folder %q: want the same name", sc.Project, base)
	}
	for _, f := range sc.Files {
		if f.Path == "" || filepath.IsAbs(f.Path) || !filepath.IsLocal(f.Path) {
			bad("files: path %q: want a relative path inside the project", f.Path)
		}
	}
	if len(sc.Sessions) == 0 {
		bad("no sessions")
	}
	index := map[string]int{}
	for i, s := range sc.Sessions {
		if s.Name == "" || !projectName.MatchString(s.Name) {
			bad("session %d: name %q: want [a-z0-9-]", i+1, s.Name)
		}
		if _, dup := index[s.Name]; dup {
			bad("session %q appears twice", s.Name)
		}
		index[s.Name] = i
	}
	facts := map[string]bool{}
	for i := range sc.Sessions {
		s := &sc.Sessions[i]
		where := "session " + s.Name
		if s.Clear && len(s.Prompts) > 0 {
			bad("%s: clear: true with prompts: a clear session has none", where)
		}
		if !s.Clear && len(s.Prompts) == 0 {
			bad("%s: no prompts (a session without work is clear: true)", where)
		}
		for j, p := range s.Prompts {
			pw := fmt.Sprintf("%s prompt %d", where, j+1)
			cmd := p.command()
			switch {
			case strings.TrimSpace(p.User) == "":
				bad("%s: empty user text", pw)
			case strings.TrimSpace(p.User) == "/clear":
				bad("%s: /clear cannot be sent with claude -p: make a session with clear: true", pw)
			case cmd && len(p.Model) > 0:
				bad("%s: a slash command gets no model turns", pw)
			case !cmd && len(p.Model) == 0:
				bad("%s: no model turns", pw)
			}
			for k, t := range p.Model {
				tw := fmt.Sprintf("%s turn %d", pw, k+1)
				if t.Tool == "" && k != len(p.Model)-1 {
					bad("%s: a turn without tool ends the answer, so it must be the last", tw)
				}
				if t.Tool != "" && !tools[t.Tool] {
					bad("%s: tool %q: want one of Bash, Read, Write, Edit, Grep, Glob", tw, t.Tool)
				}
				if t.Tool != "" && k == len(p.Model)-1 {
					bad("%s: the last turn calls a tool: end the answer with a turn of text", tw)
				}
				if t.Tool == "" && t.Text == "" {
					bad("%s: neither text nor tool", tw)
				}
			}
		}
		for j := range s.Facts {
			f := &s.Facts[j]
			fw := fmt.Sprintf("%s fact %q", where, f.ID)
			if f.ID == "" {
				bad("%s fact %d: no id", where, j+1)
			}
			if facts[f.ID] {
				bad("%s: id used twice in the project", fw)
			}
			facts[f.ID] = true
			if !factKinds[f.Kind] {
				bad("%s: kind %q is not one of decision, reason, rejected, preference, environment, root-cause, open, outcome, request", fw, f.Kind)
			}
			if f.Scope != "durable" && f.Scope != "next" {
				bad("%s: scope %q: want durable or next", fw, f.Scope)
			}
			if f.Until != "" {
				u, ok := index[f.Until]
				if !ok {
					bad("%s: until %q is not a session of the project", fw, f.Until)
				} else if u <= i {
					bad("%s: until %q is not after the session that states the fact", fw, f.Until)
				}
			}
			if len(f.Match) == 0 {
				bad("%s: no match regexes", fw)
			}
			var err error
			if f.match, err = compile(f.Match); err != nil {
				bad("%s: match: %v", fw, err)
			}
			stale := f.StaleMatch
			if len(stale) == 0 {
				stale = f.Match
			}
			if f.stale, err = compile(stale); err != nil {
				bad("%s: stale_match: %v", fw, err)
			}
		}
	}
	return errors.Join(errs...)
}

func compile(exprs []string) ([]*regexp.Regexp, error) {
	out := make([]*regexp.Regexp, 0, len(exprs))
	for _, e := range exprs {
		re, err := regexp.Compile("(?i)" + e)
		if err != nil {
			return nil, err
		}
		out = append(out, re)
	}
	return out, nil
}

// tools lists the tools a session's turns call, for --allowedTools.
func (s *Session) tools() []string {
	seen := map[string]bool{}
	var out []string
	for _, p := range s.Prompts {
		for _, t := range p.Model {
			if t.Tool != "" && !seen[t.Tool] {
				seen[t.Tool] = true
				out = append(out, t.Tool)
			}
		}
	}
	return out
}

// script is the fake server's script for the whole session: the position
// of a turn is the number of assistant messages before it, and a resumed
// prompt carries the earlier ones. A slash command's output (/cost) comes
// back as one assistant message of its own: a filler turn takes its place.
func (s *Session) script() []Turn {
	var out []Turn
	for _, p := range s.Prompts {
		if p.command() {
			out = append(out, Turn{Text: "(the output of " + strings.TrimSpace(p.User) + ")"})
		}
		out = append(out, p.Model...)
	}
	return out
}

// command reports whether the prompt is a slash command (/cost), which
// Claude Code runs itself without asking the model.
func (p Prompt) command() bool { return strings.HasPrefix(strings.TrimSpace(p.User), "/") }
