package config

import (
	"os"
	"slices"
	"strings"
	"testing"
	"time"
)

func TestSetRecipients(t *testing.T) {
	skel, err := os.ReadFile("../memory/skel/cairn.yaml")
	if err != nil {
		t.Fatal(err)
	}
	const k1 = "age1ql3z7hjy54pw3hyww5ayyfg7zqgvc7w3j2elw8zmrj2kg5sfn9aqmcac8p"
	for _, tc := range []struct {
		name, in string
		keep     string // text that must survive
	}{
		{"skeleton", string(skel), "# Encryption: files stored in git"},
		{"empty", "", ""},
		{"section", "lock_timeout: 5s # why\nencrypt:\n  paths: [sessions/*/transcript.md]\n  recipients: [age1old]\n", "# why"},
		{"null section", "encrypt:\nsync:\n  auto: false\n", "auto: false"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, err := SetRecipients([]byte(tc.in), []string{k1})
			if err != nil {
				t.Fatal(err)
			}
			c, _, err := Check(out)
			if err != nil {
				t.Fatalf("%v\n%s", err, out)
			}
			if !slices.Equal(c.Encrypt.Recipients, []string{k1}) {
				t.Fatalf("recipients %q\n%s", c.Encrypt.Recipients, out)
			}
			if !strings.Contains(string(out), tc.keep) {
				t.Fatalf("lost %q:\n%s", tc.keep, out)
			}
			if tc.name == "section" && (len(c.Encrypt.Paths) != 1 || c.LockTimeout != Duration(5*time.Second)) {
				t.Fatalf("other keys lost:\n%s", out)
			}
		})
	}
	if _, err := SetRecipients([]byte("- a list\n"), []string{k1}); err == nil {
		t.Error("a cairn.yaml that is a list was edited")
	}
	// A recipient that is not a key is an invalid key of the file.
	if _, _, err := Check([]byte("encrypt:\n  recipients: [not-a-key]\n  paths: [../x]\n")); err == nil ||
		!strings.Contains(err.Error(), "encrypt.recipients") || !strings.Contains(err.Error(), "encrypt.paths") {
		t.Errorf("bad encrypt section: %v", err)
	}
}
