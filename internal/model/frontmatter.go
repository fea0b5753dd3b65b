package model

import (
	"bytes"
	"strconv"
	"strings"
	"unicode"

	"gopkg.in/yaml.v3"
)

// WithKeys adds front-matter keys to a marshalled item, before its
// closing "---". Item keeps keys it does not know from then on.
func WithKeys(data []byte, kv ...string) []byte {
	end := bytes.Index(data[3:], []byte("\n---\n"))
	if !bytes.HasPrefix(data, []byte("---\n")) || end < 0 {
		return data
	}
	end += 3 + 1 // just past the newline before the closing delimiter
	var add bytes.Buffer
	for i := 0; i+1 < len(kv); i += 2 {
		add.WriteString(kv[i] + ": " + yamlScalar(kv[i+1]) + "\n")
	}
	out := make([]byte, 0, len(data)+add.Len())
	out = append(out, data[:end]...)
	out = append(out, add.Bytes()...)
	return append(out, data[end:]...)
}

// yamlScalar writes a string as a one-line YAML scalar that reads back as
// that string: as yaml.v3 writes it (plain when it can be), else
// double-quoted with Go's escapes, which YAML's double quotes share.
func yamlScalar(s string) string {
	if printable(s) {
		if b, err := yaml.Marshal(s); err == nil {
			if out := strings.TrimSuffix(string(b), "\n"); !strings.Contains(out, "\n") {
				return out
			}
		}
	}
	return strconv.Quote(s)
}

func printable(s string) bool {
	for _, r := range s {
		if !unicode.IsPrint(r) {
			return false
		}
	}
	return true
}

// FrontKeys reads the string values of an item file's front-matter keys.
func FrontKeys(data []byte) map[string]string {
	if !bytes.HasPrefix(data, []byte("---\n")) {
		return nil
	}
	end := bytes.Index(data[3:], []byte("\n---"))
	if end < 0 {
		return nil
	}
	var raw map[string]any
	if yaml.Unmarshal(data[4:3+end+1], &raw) != nil {
		return nil
	}
	out := map[string]string{}
	for k, v := range raw {
		if s, ok := v.(string); ok {
			out[k] = s
		}
	}
	return out
}
