package web

import (
	"errors"
	"io/fs"
	"net/http"
	"net/url"
	"strings"

	"github.com/cairn-mem/cairn/internal/model"
)

// The writes of the pages. Each goes through the call the command line
// makes (watcher.Queue's Retry and Drop as `cairn queue`; memory's
// Update and Forget, one checkpoint each, as `cairn edit` and `cairn
// forget`), the memory's under the daemon's lock of its operations.

// jobID checks a job id from a form: a queue file's name without .json.
func jobID(r *http.Request) (string, error) {
	id := r.PostFormValue("id")
	ok := id != "" && len(id) <= 64 && id[0] != '.' && !strings.ContainsFunc(id, func(c rune) bool {
		return !(c >= '0' && c <= '9' || c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c == '-' || c == '_' || c == '.')
	})
	if !ok {
		return "", badRequest("bad job id %q", trim(id, 80))
	}
	return id, nil
}

func (v *Viewer) retry(r *http.Request) (string, error) {
	return v.queueAct(r, v.queue.Retry)
}

func (v *Viewer) drop(r *http.Request) (string, error) {
	return v.queueAct(r, v.queue.Drop)
}

func (v *Viewer) queueAct(r *http.Request, f func(string) error) (string, error) {
	if v.qerr != nil {
		return "", v.qerr
	}
	id, err := jobID(r)
	if err != nil {
		return "", err
	}
	if err := f(id); errors.Is(err, fs.ErrNotExist) {
		return "", notFound("no failed job %s", id)
	} else if err != nil {
		return "", err
	}
	return "/ui/queue", nil
}

// change reads the item of the request, lets f change it, and writes it
// back as one checkpoint.
func (v *Viewer) change(r *http.Request, event string, f func(*model.Item) error) (string, error) {
	var next string
	var err error
	v.do(func() {
		var e *model.Entry
		if e, err = v.item(r); err != nil {
			return
		}
		if err = f(e.Item); err != nil {
			return
		}
		if _, err = v.mem.Update(r.Context(), e, event); err != nil {
			return
		}
		next = "/ui/memory/" + url.PathEscape(e.Item.ID)
	})
	return next, err
}

func (v *Viewer) pin(r *http.Request) (string, error) {
	pin := r.PostFormValue("pinned") == "true"
	return v.change(r, "pin", func(it *model.Item) error {
		it.Pinned = pin
		return nil
	})
}

// maxBody bounds an item's text edited on the page.
const maxBody = 256 << 10

func (v *Viewer) edit(r *http.Request) (string, error) {
	body := strings.ReplaceAll(r.PostFormValue("body"), "\r\n", "\n")
	if len(body) > maxBody {
		return "", badRequest("the text is longer than %d bytes", maxBody)
	}
	if strings.ContainsRune(body, 0) {
		return "", badRequest("the text holds a NUL byte")
	}
	return v.change(r, "edit", func(it *model.Item) error {
		it.Body = strings.TrimRight(strings.TrimLeft(body, "\n"), "\n ")
		return nil
	})
}

func (v *Viewer) forget(r *http.Request) (string, error) {
	var err error
	v.do(func() {
		var e *model.Entry
		if e, err = v.item(r); err != nil {
			return
		}
		_, _, err = v.mem.Forget(r.Context(), e.Item.ID)
	})
	if err != nil {
		return "", err
	}
	return "/ui/memory", nil
}
