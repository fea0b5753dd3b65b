package anchor

import (
	"bytes"
	"hash/fnv"
	"path"
	"strings"

	"github.com/cairn-mem/cairn/internal/lazyre"
)

// declLine matches a line that declares a function, method, type or
// class in the languages projects are mostly written in (Go, Python,
// JavaScript and TypeScript, Rust, Ruby, Java-like classes). It is a
// line pattern, not a parser: cheap enough to run over every file of a
// tree, precise enough that a name found is a name declared.
var declLine = lazyre.New(`^\s*(?:(?:export|default|pub(?:\([a-z]+\))?|async|abstract|public|private|protected|static|final|unsafe)\s+)*(?:func|def|class|type|struct|enum|trait|interface|function\*?|fn|module|impl)\s+(?:\([^)]*\)\s*)?(?:self\.)?([A-Za-z_][A-Za-z0-9_]*)`)

// maxCodeFile bounds the files whose declarations are read: generated
// files and vendored bundles are not what a memory talks about.
const maxCodeFile = 512 << 10

// isCode reports whether p's declarations are read: by its extension.
func isCode(p string) bool {
	switch path.Ext(p) {
	case ".go", ".py", ".js", ".mjs", ".ts", ".tsx", ".jsx", ".rs", ".rb", ".java", ".kt",
		".scala", ".swift", ".cs", ".php", ".c", ".h", ".cc", ".cpp", ".hpp":
		return true
	}
	return false
}

// decls maps each name a file declares to a hash of its declaration:
// its line and those that follow it until the code goes back to the
// left margin (a closing "}" or "end" there is the declaration's last
// line, a ")" goes on with a signature of several lines, anything else
// there is not part of it). An edit inside a function changes its hash
// and no other's; an edit between two changes neither.
type decls map[string]uint64

func scanDecls(data []byte) decls {
	d := make(decls)
	var name string
	h := fnv.New64a()
	flush := func() {
		if name != "" {
			if _, dup := d[name]; !dup {
				d[name] = h.Sum64()
			}
		}
		name = ""
		h.Reset()
	}
	for len(data) > 0 {
		line := data
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			line, data = data[:i], data[i+1:]
		} else {
			data = nil
		}
		if m := declLine.FindSubmatch(line); m != nil && !isKeyword(string(m[1])) {
			flush()
			name = string(m[1])
		} else if name != "" && len(line) > 0 && !strings.ContainsRune(" \t\r)", rune(line[0])) {
			if closing(line) {
				h.Write(line)
				h.Write([]byte{'\n'})
			}
			flush()
			continue
		}
		if name != "" {
			h.Write(line)
			h.Write([]byte{'\n'})
		}
	}
	flush()
	return d
}

// closing reports whether a line at the left margin ends a block.
func closing(line []byte) bool {
	switch string(bytes.TrimSpace(line)) {
	case "}", "};", "})", "});", "end":
		return true
	}
	return false
}

// isKeyword reports whether the pattern took a keyword for a name
// ("type func", "impl for"): never a symbol.
func isKeyword(w string) bool {
	switch w {
	case "func", "def", "class", "type", "struct", "enum", "trait", "interface", "function", "fn",
		"module", "impl", "for", "if", "else", "return", "var", "const", "let", "self", "new":
		return true
	}
	return false
}
