package demo

import (
	_ "embed"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing/object"
	"gopkg.in/yaml.v3"
)

//go:embed data/items.yaml
var items []byte

//go:embed data/session.jsonl
var session []byte

// Item is a memory of the sample data, as `cairn remember` takes it.
type Item struct {
	Kind       string   `yaml:"kind"`
	Title      string   `yaml:"title"`
	Importance float64  `yaml:"importance"`
	Tags       []string `yaml:"tags"`
	Body       string   `yaml:"body"`
}

// Items returns the sample memory: what an agent might have learned
// while working on a small web service. The demo edits the second by
// hand and forgets the fourth.
func Items() ([]Item, error) {
	var out []Item
	if err := yaml.Unmarshal(items, &out); err != nil {
		return nil, fmt.Errorf("demo data: %w", err)
	}
	return out, nil
}

// Project is a temporary project made by Create.
type Project struct {
	Root       string // the temporary folder that holds the rest; Remove deletes it
	Dir        string // the project: a git repository with one commit
	Commit     string // that commit
	Transcript string // a Claude Code session transcript, beside the project
}

// Create makes a project in a new temporary folder, with its own git
// repository and one commit, so that checkpoints record the code commit
// they were made at; and the transcript of a session in it, outside the
// project as Claude Code keeps them.
func Create() (*Project, error) {
	root, err := os.MkdirTemp("", "cairn-demo-")
	if err != nil {
		return nil, fmt.Errorf("demo project: %w", err)
	}
	p := &Project{
		Root:       root,
		Dir:        filepath.Join(root, "webshop"),
		Transcript: filepath.Join(root, "3f1c9a52-7d4e-4b8a-9c61-2e5f0d8b7a14.jsonl"),
	}
	if err := p.create(); err != nil {
		os.RemoveAll(root)
		return nil, fmt.Errorf("demo project in %s: %w", root, err)
	}
	return p, nil
}

func (p *Project) create() error {
	if err := os.MkdirAll(p.Dir, 0o755); err != nil {
		return err
	}
	repo, err := git.PlainInit(p.Dir, false)
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(p.Dir, "main.go"), []byte("package main\n\nfunc main() {}\n"), 0o644); err != nil {
		return err
	}
	wt, err := repo.Worktree()
	if err != nil {
		return err
	}
	if _, err := wt.Add("main.go"); err != nil {
		return err
	}
	sig := &object.Signature{Name: "demo", Email: "demo@cairn.invalid", When: time.Now()}
	h, err := wt.Commit("initial commit", &git.CommitOptions{Author: sig, Committer: sig})
	if err != nil {
		return err
	}
	p.Commit = h.String()
	return os.WriteFile(p.Transcript, session, 0o600)
}

// Remove deletes the project and everything made with it.
func (p *Project) Remove() error {
	return os.RemoveAll(p.Root)
}

// EditByHand adds a line to an item's file (name, the second of Items)
// the way a person with an editor would, without cairn, so that the next
// checkpoint has a hand edit to find.
func EditByHand(name string) error {
	data, err := os.ReadFile(name)
	if err != nil {
		return fmt.Errorf("demo edit: %w", err)
	}
	data = append(data, "\nThe port moved to 5434 when CI switched runners.\n"...)
	if err := os.WriteFile(name, data, 0o644); err != nil {
		return fmt.Errorf("demo edit: %w", err)
	}
	return nil
}
