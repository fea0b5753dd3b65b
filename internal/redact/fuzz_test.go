package redact

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// FuzzRedact: Redact never panics, is a fixed point, and leaves no value it
// removed (8 bytes or longer, see minRepeat) anywhere in its output.
func FuzzRedact(f *testing.F) {
	for _, p := range loadPlanted(f) {
		f.Add(p.context)
	}
	files, _ := filepath.Glob(filepath.Join("testdata", "clean", "*"))
	for _, name := range files {
		if b, err := os.ReadFile(name); err == nil && len(b) < 8<<10 {
			f.Add(string(b))
		}
	}
	for _, s := range []string{
		"", "<private>", "</private><private>x", "-----BEGIN PRIVATE KEY-----",
		"password=", "password = \"", "--password", "https://a:@b", "https://:x@",
		"Bearer ", "Authorization: Basic", "token: [REDACTED:token]", "sk-ant-",
		"key=\\\"", "AKIAAAAAAAAAAAAAAAAA", "eyJ.eyJ.", "<password>", "-u :",
		"The DB password is Pw8UxK3mQ7vR2tZ9nL4b!9", "the password is Pw8U…!9xK3mQ7vR2tZ9nL4b…",
		"token is (Pw8U!xK3m#Q7vR2@tZ9n&k)", "key is [REDACTED:secret]Pw8UxK3mQ7vR2tZ9nL4b!",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		var r Redactor
		out, findings, secrets := r.redact(in)
		again, more, _ := r.redact(out)
		if again != out || len(more) != 0 {
			t.Fatalf("not a fixed point:\n in    %q\n out   %q\n again %q %v", in, out, again, more)
		}
		if len(findings) == 0 && out != in {
			t.Fatalf("changed without findings: %q -> %q", in, out)
		}
		bare := markerRE.ReplaceAllString(out, "\x00")
		for _, s := range secrets {
			if len(s) < minRepeat || strings.IndexByte(s, 0) >= 0 {
				continue
			}
			if strings.Contains(bare, s) {
				t.Fatalf("secret %q survived:\n in  %q\n out %q", s, in, out)
			}
		}
	})
}
