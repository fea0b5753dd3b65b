package filestate

import (
	"encoding/json"
	"strings"

	"github.com/cairn-mem/cairn/internal/summarize/edits"
	"github.com/cairn-mem/cairn/internal/transcript/edit"
)

// Bounds on what is kept to compare a later write with: a file's text
// (edit.WriteReplacements compares files of 400 lines at most) and
// the number of files.
const (
	maxFile  = 64 << 10
	maxLines = 400
	maxFiles = 64
)

// Files are the files of one session as its tools showed and left them.
// The zero value is ready to use; it serves one goroutine.
type Files struct {
	// text is what each file holds, by its path as the tools name it.
	text map[string]string
	// reading is the path of each Read call waiting for its result.
	reading map[string]string
	// writing is what each Write or Edit call waiting for its result
	// leaves in its file: what the file holds only once it succeeded.
	writing map[string][2]string
}

// Call notes a tool call (id, tool name, raw input) and returns the
// settings a Write of a whole file changes against what the file held,
// old line then new; nil for any other call.
func (f *Files) Call(id, name string, input json.RawMessage) [][2]string {
	if name != "Read" && name != "Write" && name != "Edit" {
		return nil // most calls are commands: no input to read
	}
	var in struct {
		FilePath string `json:"file_path"`
		Content  string `json:"content"`
		Old      string `json:"old_string"`
		New      string `json:"new_string"`
	}
	if json.Unmarshal(input, &in) != nil || in.FilePath == "" {
		return nil
	}
	switch name {
	case "Read":
		if id != "" {
			if f.reading == nil {
				f.reading = map[string]string{}
			}
			f.reading[id] = in.FilePath
		}
	case "Write":
		f.willHold(id, in.FilePath, in.Content)
		if was, ok := f.text[in.FilePath]; ok {
			reps := edit.WriteReplacements(was, in.Content)
			if edits.Manifest(in.FilePath) {
				reps = append(reps, edit.Swaps(was, in.Content)...)
			}
			return reps
		}
	case "Edit":
		// What the file holds after the edit, so that a later Write is
		// compared with it and not with the text before.
		if was, ok := f.text[in.FilePath]; ok && in.Old != "" && strings.Count(was, in.Old) == 1 {
			f.willHold(id, in.FilePath, strings.Replace(was, in.Old, in.New, 1))
		}
	}
	return nil
}

// Result notes the result of call id: what a Read showed, what a Write
// or an Edit left. A refused or failed call changed nothing.
func (f *Files) Result(id, output string, isErr bool) {
	if path, ok := f.reading[id]; ok {
		delete(f.reading, id)
		if text := edit.ReadContent(output); !isErr && text != "" {
			f.know(path, text)
		}
	}
	if w, ok := f.writing[id]; ok {
		delete(f.writing, id)
		if !isErr {
			f.know(w[0], w[1])
		}
	}
}

// know keeps what a file holds now, when it is small enough to be a
// config worth comparing.
func (f *Files) know(path, text string) {
	if len(text) > maxFile || strings.Count(text, "\n") > maxLines {
		delete(f.text, path)
		return
	}
	if f.text == nil {
		f.text = map[string]string{}
	}
	if _, ok := f.text[path]; !ok && len(f.text) >= maxFiles {
		return
	}
	f.text[path] = text
}

// willHold notes that the file at path holds text once call id succeeds.
func (f *Files) willHold(id, path, text string) {
	if id == "" {
		return
	}
	if f.writing == nil {
		f.writing = map[string][2]string{}
	}
	f.writing[id] = [2]string{path, text}
}
