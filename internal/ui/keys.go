package ui

import (
	"fmt"
	"io"

	"github.com/cairn-mem/cairn/internal/memory"
)

// KeyInitText says what cairn keys init did with this machine's key.
func KeyInitText(w io.Writer, file, pub string, created bool) {
	verb := "kept"
	if created {
		verb = "made"
	}
	fmt.Fprintf(w, "%s %s\npublic key: %s\nadd it with: cairn keys add %s\n", verb, file, pub, pub)
}

// KeysText lists the encrypted paths, the recipients (this machine's
// marked) and the key file (cairn keys list).
func KeysText(w io.Writer, e memory.Encryption) {
	for _, p := range e.Paths {
		fmt.Fprintf(w, "path\t%s\n", p)
	}
	for _, r := range e.Recipients {
		mark := ""
		if r == e.Public {
			mark = "\t(this machine)"
		}
		fmt.Fprintf(w, "recipient\t%s%s\n", r, mark)
	}
	fmt.Fprintf(w, "key\t%s\n", e.Identity)
}

// RekeyedText says what a change of recipients committed.
func RekeyedText(w io.Writer, cp *memory.Checkpoint, err error) error {
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "%s: %d files re-encrypted with cairn.yaml\n", cp.Hash[:10], len(cp.Changes)-1)
	return nil
}
