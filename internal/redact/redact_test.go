package redact

import (
	"bufio"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unsafe"
)

type planted struct {
	line    int
	kind    string
	secret  string
	context string
}

// loadPlanted reads testdata/planted.tsv: kind, secret, context.
func loadPlanted(t testing.TB) []planted {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", "planted.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	unescape := strings.NewReplacer(`\\`, `\`, `\n`, "\n", `\t`, "\t", "@@", "")
	var out []planted
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		cols := strings.Split(line, "\t")
		if len(cols) != 3 {
			t.Fatalf("planted.tsv:%d: want 3 tab-separated columns, got %d", n, len(cols))
		}
		p := planted{line: n, kind: cols[0], secret: unescape.Replace(cols[1])}
		p.context = strings.ReplaceAll(unescape.Replace(cols[2]), "{S}", p.secret)
		if !strings.Contains(p.context, p.secret) {
			t.Fatalf("planted.tsv:%d: the context does not contain the secret", n)
		}
		out = append(out, p)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

func TestPlanted(t *testing.T) {
	t.Parallel()
	all := loadPlanted(t)
	var joined []string
	for _, p := range all {
		joined = append(joined, p.context)
		out, findings := Redact(p.context)
		if strings.Contains(out, p.secret) {
			t.Errorf("planted.tsv:%d (%s): secret survived:\n%s", p.line, p.kind, out)
			continue
		}
		found := false
		for _, f := range findings {
			found = found || f.Kind == p.kind
		}
		if !found {
			t.Errorf("planted.tsv:%d: want a finding of kind %s, got %v\n%s", p.line, p.kind, findings, out)
		}
		if p.kind != "private" && !strings.Contains(out, "[REDACTED:"+p.kind+"]") {
			t.Errorf("planted.tsv:%d: no [REDACTED:%s] marker in %q", p.line, p.kind, out)
		}
		if again, more := Redact(out); again != out || len(more) != 0 {
			t.Errorf("planted.tsv:%d: not a fixed point: %q -> %q (%v)", p.line, out, again, more)
		}
	}
	// All of them in one text, as in a transcript.
	text := strings.Join(joined, "\n")
	out, _ := Redact(text)
	for _, p := range all {
		if strings.Contains(out, p.secret) {
			t.Errorf("planted.tsv:%d: secret survived in the joined text", p.line)
		}
	}
}

// TestClean: ordinary code, logs, hashes, ids and images come back as they
// were.
func TestClean(t *testing.T) {
	t.Parallel()
	files, err := filepath.Glob(filepath.Join("testdata", "clean", "*"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no clean corpus: %v", err)
	}
	for _, name := range files {
		b, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		out, findings := Redact(string(b))
		for _, f := range findings {
			lines := strings.Split(string(b), "\n")
			t.Errorf("%s:%d: false positive %s: %q", name, f.Line, f.Kind, lines[f.Line-1])
		}
		if len(findings) == 0 && out != string(b) {
			t.Errorf("%s: changed without findings", name)
		}
	}
}

func TestRedact(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, in, want string
		kinds          []string
		lines          []int
	}{
		{
			name: "nothing",
			in:   "go test ./... passed",
			want: "go test ./... passed",
		},
		{
			name:  "aws key pair",
			in:    "[default]\naws_access_key_id = AKIA2E0A8F3B244C9986\naws_secret_access_key = Tq8mZ1xW9vB3nR5pL7kJ2hG4fD6sA0qE8wY1uI3o\n",
			want:  "[default]\naws_access_key_id = [REDACTED:aws-access-key]\naws_secret_access_key = [REDACTED:aws-secret-key]\n",
			kinds: []string{"aws-access-key", "aws-secret-key"},
			lines: []int{2, 3},
		},
		{
			name:  "same value elsewhere",
			in:    "export DB_PASSWORD=Zq7-pL2-xV9\nmysql -p Zq7-pL2-xV9 -e 'select 1'",
			want:  "export DB_PASSWORD=[REDACTED:password]\nmysql -p [REDACTED:password] -e 'select 1'",
			kinds: []string{"password", "password"},
			lines: []int{1, 2},
		},
		{
			name:  "private dropped",
			in:    "a <private>my\nsecret</private> b\nc",
			want:  "a  b\nc",
			kinds: []string{"private"},
			lines: []int{1},
		},
		{
			name:  "private unterminated",
			in:    "a\nb <PRIVATE>never\nstored",
			want:  "a\nb [REDACTED:private-unterminated]",
			kinds: []string{"private-unterminated"},
			lines: []int{2},
		},
		{
			name:  "url keeps user and host",
			in:    "git push https://ada:Pw-9f8e7d6c@git.example.com/repo.git",
			want:  "git push https://ada:[REDACTED:url-password]@git.example.com/repo.git",
			kinds: []string{"url-password"},
		},
		{
			name:  "key after a private block keeps its line",
			in:    "-----BEGIN EC PRIVATE KEY-----\nMHcCAQEEIBkg\n-----END EC PRIVATE KEY-----\ntoken: ghp_" + strings.Repeat("aB3", 12),
			want:  "[REDACTED:private-key]\ntoken: [REDACTED:github-token]",
			kinds: []string{"private-key", "github-token"},
			lines: []int{1, 4},
		},
		{
			name:  "jwt without signature at sentence end",
			in:    "got eyJhbGciOiJub25lIn0.eyJzdWIiOiIxMjM0NTY3ODkwIn0.",
			want:  "got [REDACTED:jwt]",
			kinds: []string{"jwt"},
		},
		{
			name: "kebab case after sk- is not a key",
			in:   "see the task-runner-configuration-options page and sk-learn-compatible-estimators",
			want: "see the task-runner-configuration-options page and sk-learn-compatible-estimators",
		},
		{
			name: "placeholders",
			in:   "password: ${DB_PASSWORD}\ntoken = \"<your-token>\"\nAPI_KEY=$(pass show api)\nsecret: '****'\n",
			want: "password: ${DB_PASSWORD}\ntoken = \"<your-token>\"\nAPI_KEY=$(pass show api)\nsecret: '****'\n",
		},
		{
			// A blind set's model: the rest of the paragraph was redacted,
			// and a decision with it.
			name: "a tag left open is a placeholder, not an element",
			in:   "Enclosures point at https://cdn.podhuis.nl/audio/<key>, Bunny pulling from the podhuis-audio bucket. Each feed carries podcast:locked with the owner's email.",
			want: "Enclosures point at https://cdn.podhuis.nl/audio/<key>, Bunny pulling from the podhuis-audio bucket. Each feed carries podcast:locked with the owner's email.",
		},
		{
			name: "an object key's element is no secret",
			in:   "<Contents><Key>audio/markt-en-maan/ep-041.mp3</Key><Size>48213377</Size></Contents>",
			want: "<Contents><Key>audio/markt-en-maan/ep-041.mp3</Key><Size>48213377</Size></Contents>",
		},
		{
			name:  "a secret's element, closed",
			in:    "<password>Wq7-vLm29xr</password>\n<apiKey>AKq8Zr2LmN4pX7vT1sY9</apiKey>",
			want:  "<password>[REDACTED:password]</password>\n<apiKey>[REDACTED:api-key]</apiKey>",
			kinds: []string{"password", "api-key"},
		},
		{
			name:  "a bare key's element with a generated value",
			in:    "<Key>wJalrXUtnFEMI/K7MDENG/bPxRfiCY9EXAMPLEKEY</Key>",
			want:  "<Key>[REDACTED:secret]</Key>",
			kinds: []string{"secret"},
		},
		{
			name:  "high entropy next to a secret word",
			in:    "the signing key is 8f14e45fceea167a5a36dedd4bea2543 for staging",
			want:  "the signing key is [REDACTED:secret] for staging",
			kinds: []string{"secret"},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, findings := Redact(tc.in)
			if got != tc.want {
				t.Errorf("Redact(%q)\n got %q\nwant %q", tc.in, got, tc.want)
			}
			if len(findings) != len(tc.kinds) {
				t.Fatalf("findings %v, want kinds %v", findings, tc.kinds)
			}
			for i, f := range findings {
				if f.Kind != tc.kinds[i] {
					t.Errorf("finding %d kind %s, want %s", i, f.Kind, tc.kinds[i])
				}
				if tc.lines != nil && f.Line != tc.lines[i] {
					t.Errorf("finding %d line %d, want %d", i, f.Line, tc.lines[i])
				}
			}
		})
	}
}

// TestSecretValueWithPunctuation (issue 12, item 4): a value found near a
// secret's name is redacted to the end of its word, punctuation and
// non-ASCII characters included; before, the span stopped at the first
// byte outside base64 and "Pw8U…!9" left "!9" behind.
func TestSecretValueWithPunctuation(t *testing.T) {
	const pw = "Pw8UxK3mQ7vR2tZ9nL4b"
	for _, tc := range []struct{ name, in, want string }{
		{"bang", "The DB password is " + pw + "!9", "The DB password is [REDACTED:secret]"},
		{"ellipsis inside", "The DB password is Pw8U…!9xK3mQ7vR2tZ9nL4b", "The DB password is [REDACTED:secret]"},
		{"ellipsis and bang at the end", "The DB password is " + pw + "…!9", "The DB password is [REDACTED:secret]"},
		{"symbols between short runs", "the password is Pw8U!xK3m#Q7vR2@tZ9n&k", "the password is [REDACTED:secret]"},
		{"sentence end kept", "The DB password is " + pw + "!9. Rotate it.", "The DB password is [REDACTED:secret]. Rotate it."},
		{"comma kept", "the token is " + pw + "$%, then run", "the token is [REDACTED:secret], then run"},
		{"parenthesis kept", "(the secret is " + pw + "^*)", "(the secret is [REDACTED:secret])"},
		{"quoted", `the password is "` + pw + `!9" here`, `the password is "[REDACTED:secret]" here`},
		{"json string", `{"last_assistant_message":"The DB password is ` + pw + `!9"}`, `{"last_assistant_message":"The DB password is [REDACTED:secret]"}`},
		{"json escaped line end", `"The DB password is ` + pw + `!9\nnext"`, `"The DB password is [REDACTED:secret]\nnext"`},
		{"repeated elsewhere", "The DB password is " + pw + "!9\nmysql -p" + pw + "!9", "The DB password is [REDACTED:secret]\nmysql -p[REDACTED:secret]"},
		{"url is not a secret", "the token is sent to https://example.com/callback/2024/abc", "the token is sent to https://example.com/callback/2024/abc"},
		{"email is not a secret", "the key is alice.smith1987@example-corp.com", "the key is alice.smith1987@example-corp.com"},
		{"words are not a secret", "the password is stored in the vault, as agreed!", "the password is stored in the vault, as agreed!"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, _ := Redact(tc.in)
			if got != tc.want {
				t.Errorf("Redact(%q)\n got %q\nwant %q", tc.in, got, tc.want)
			}
			if again, more := Redact(got); again != got || len(more) != 0 {
				t.Errorf("not a fixed point: %q -> %q", got, again)
			}
		})
	}
}

func TestUnchangedIsSameString(t *testing.T) {
	t.Parallel()
	in := strings.Repeat("plain text\n", 10)
	out, _ := Redact(in)
	if unsafe.StringData(out) != unsafe.StringData(in) {
		t.Fatal("Redact copied a text it did not change")
	}
}

func TestConfig(t *testing.T) {
	t.Parallel()
	r, err := New(Config{
		Rules: []Rule{
			{Kind: "acme-token", Pattern: `acme_[0-9a-f]{16}`},
			{Kind: "employee-id", Pattern: `employee id: (E\d{6})`},
		},
		Allow: []string{`^AKIAIOSFODNN7EXAMPLE$`},
	})
	if err != nil {
		t.Fatal(err)
	}
	in := "acme_0123456789abcdef and employee id: E123456 and AKIAIOSFODNN7EXAMPLE and AKIA2E0A8F3B244C9986"
	want := "[REDACTED:acme-token] and employee id: [REDACTED:employee-id] and AKIAIOSFODNN7EXAMPLE and [REDACTED:aws-access-key]"
	got, findings := r.Redact(in)
	if got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
	if len(findings) != 3 {
		t.Errorf("findings %v", findings)
	}
	if again, _ := r.Redact(got); again != got {
		t.Errorf("not a fixed point: %q", again)
	}
}

func TestNewErrors(t *testing.T) {
	t.Parallel()
	for _, cfg := range []Config{
		{Rules: []Rule{{Kind: "x", Pattern: "("}}},
		{Rules: []Rule{{Kind: "Bad Kind", Pattern: "x"}}},
		{Rules: []Rule{{Kind: "x]", Pattern: "x"}}},
		{Allow: []string{"[a-"}},
	} {
		if _, err := New(cfg); err == nil {
			t.Errorf("New(%+v): no error", cfg)
		}
	}
}

var markerRE = regexp.MustCompile(`\[REDACTED:[a-z0-9-]+\]`)

// TestFile: a file's content comes back redacted only when it held a
// secret, and a binary one (a NUL byte) is left alone.
func TestFile(t *testing.T) {
	r, err := New(Config{})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, in, want string
	}{
		{"nothing to hide", "plain notes\n", ""},
		{"a key", "key AKIAIOSFODNN7EXAMPLQ here\n", "key [REDACTED:aws-access-key] here\n"},
		{"binary", "\x00AKIAIOSFODNN7EXAMPLQ", ""},
	} {
		out, found := r.File([]byte(tc.in))
		if string(out) != tc.want || (tc.want == "") != (len(found) == 0) {
			t.Errorf("%s: File = %q, %v; want %q", tc.name, out, found, tc.want)
		}
	}
}
