package config

import (
	"bytes"
	"fmt"

	"gopkg.in/yaml.v3"
)

// Encrypt is the encrypt: section of cairn.yaml: the files stored in git
// as age ciphertext, and for whom (internal/crypt). The private key is
// never here: it is $CAIRN_AGE_IDENTITY or ~/.config/cairn/age.key.
type Encrypt struct {
	// Paths are repository paths or path.Match patterns
	// ("sessions/*/transcript.md"); a folder ending in "/" takes
	// everything below it.
	Paths []string `yaml:"paths"`
	// Recipients are the public keys that can decrypt: age keys
	// (age1...) or SSH keys (ssh-ed25519 ..., ssh-rsa ...).
	Recipients []string `yaml:"recipients"`
}

// On reports whether any file is encrypted.
func (e Encrypt) On() bool { return len(e.Paths) > 0 }

// SetRecipients returns the cairn.yaml b with encrypt.recipients set to
// rs, its other keys and comments kept.
func SetRecipients(b []byte, rs []string) ([]byte, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(b, &doc); err != nil {
		return nil, fmt.Errorf("%s: not YAML: %w", File, err)
	}
	if len(doc.Content) == 0 || doc.Content[0].Kind == yaml.ScalarNode && doc.Content[0].Tag == "!!null" {
		// Only comments, as the skeleton is: the section goes at the end.
		add, err := yaml.Marshal(map[string]any{"encrypt": map[string]any{"recipients": rs}})
		if err != nil {
			return nil, err
		}
		out := bytes.TrimRight(b, "\n")
		if len(out) > 0 {
			out = append(out, "\n\n"...)
		}
		return append(out, add...), nil
	}
	top := doc.Content[0]
	if top.Kind != yaml.MappingNode {
		return nil, fmt.Errorf("%s: want a mapping of keys at the top", File)
	}
	enc := child(top, "encrypt", yaml.MappingNode)
	rec := child(enc, "recipients", yaml.SequenceNode)
	rec.Kind, rec.Tag, rec.Style, rec.Content = yaml.SequenceNode, "!!seq", 0, nil
	for _, r := range rs {
		rec.Content = append(rec.Content, &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: r})
	}
	var out bytes.Buffer
	e := yaml.NewEncoder(&out)
	e.SetIndent(2)
	if err := e.Encode(&doc); err != nil {
		return nil, err
	}
	if err := e.Close(); err != nil {
		return nil, err
	}
	return out.Bytes(), nil
}

// child returns the value of key in the mapping n, added as an empty
// node of kind when n lacks it.
func child(n *yaml.Node, key string, kind yaml.Kind) *yaml.Node {
	if n.Kind != yaml.MappingNode { // "encrypt:" with nothing
		n.Kind, n.Tag, n.Value, n.Content = yaml.MappingNode, "!!map", "", nil
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key {
			return n.Content[i+1]
		}
	}
	v := &yaml.Node{Kind: kind}
	n.Content = append(n.Content, &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: key}, v)
	return v
}
