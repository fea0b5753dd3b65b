package migrate

import (
	"fmt"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"
)

// Kind names a file format that carries a schema.
type Kind string

// The kinds of file cairn migrates.
const (
	Item    Kind = "item"    // the front matter of a memory item
	Session Kind = "session" // a session's session.yaml
)

// A Step takes one kind of file from schema From to From+1, in place.
type Step struct {
	Kind  Kind
	From  int
	Why   string // what changed, for cairn migrate's report and for whoever adds the next
	Apply func(root *yaml.Node) error
}

// Steps is the registry, in order of Kind and From. Both formats have
// been at schema 1 since cairn's first item and session codecs (git log
// -p internal/model, memory/ before it), which always wrote the line; the
// files without it are schema 0: items written by hand or by other tools
// (a Markdown file with front matter, or none) and session.yaml files
// made by hand. Schema 1 is what they are once the line is added.
func Steps() []Step {
	return []Step{
		{Kind: Item, From: 0, Why: "the schema line is added; every other key reads as it did", Apply: setSchema(1)},
		{Kind: Session, From: 0, Why: "the schema line is added; every other key reads as it did", Apply: setSchema(1)},
	}
}

// Latest is the schema of kind k this cairn writes.
func Latest(k Kind) int {
	n := 0
	for _, s := range Steps() {
		if s.Kind == k && s.From+1 > n {
			n = s.From + 1
		}
	}
	return n
}

// NewerError says a file's schema is newer than this cairn knows.
type NewerError struct {
	Kind   Kind
	Schema int // the file's
	Latest int // this cairn's
}

func (e *NewerError) Error() string {
	return fmt.Sprintf("version %d is newer than this cairn knows (%d); left as it is", e.Schema, e.Latest)
}

// Schema returns the schema a mapping declares, and the node of its
// value (nil when the key is missing or null: schema 0).
func Schema(root *yaml.Node) (int, *yaml.Node, error) {
	if root == nil || root.Kind != yaml.MappingNode {
		return 0, nil, nil
	}
	for i := 0; i+1 < len(root.Content); i += 2 {
		k, v := root.Content[i], root.Content[i+1]
		if k.Kind != yaml.ScalarNode || k.Value != "schema" {
			continue
		}
		if v.Kind == yaml.ScalarNode && (v.ShortTag() == "!!null" || strings.TrimSpace(v.Value) == "") {
			return 0, nil, nil
		}
		n, err := strconv.Atoi(strings.TrimSpace(v.Value))
		if v.Kind != yaml.ScalarNode || err != nil || n < 0 {
			return 0, v, fmt.Errorf("want a whole number, got %q", v.Value)
		}
		return n, v, nil
	}
	return 0, nil, nil
}

// Up upgrades the mapping root of a file of kind k, in place, to
// Latest(k), and returns the schema it had. A schema newer than Latest is
// a *NewerError and root is left untouched. A nil root (a file without
// front matter) has nothing to upgrade.
func Up(k Kind, root *yaml.Node) (int, error) {
	from, _, err := Schema(root)
	if err != nil {
		return 0, err
	}
	latest := Latest(k)
	if from > latest {
		return from, &NewerError{Kind: k, Schema: from, Latest: latest}
	}
	if root == nil || root.Kind != yaml.MappingNode {
		return from, nil
	}
	for v := from; v < latest; v++ {
		step, ok := find(k, v)
		if !ok {
			return from, fmt.Errorf("%s schema %d: no migration to %d", k, v, v+1)
		}
		if err := step.Apply(root); err != nil {
			return from, fmt.Errorf("%s schema %d to %d: %w", k, v, v+1, err)
		}
	}
	return from, nil
}

func find(k Kind, from int) (Step, bool) {
	for _, s := range Steps() {
		if s.Kind == k && s.From == from {
			return s, true
		}
	}
	return Step{}, false
}

// setSchema returns a step that sets the schema key to n, adding it last
// when missing.
func setSchema(n int) func(root *yaml.Node) error {
	return func(root *yaml.Node) error {
		val := &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!int", Value: strconv.Itoa(n)}
		for i := 0; i+1 < len(root.Content); i += 2 {
			if k := root.Content[i]; k.Kind == yaml.ScalarNode && k.Value == "schema" {
				root.Content[i+1] = val
				return nil
			}
		}
		root.Content = append(root.Content, &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: "schema"}, val)
		return nil
	}
}
