package gitstoretest

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// Layout says how many files of each kind Generate writes.
type Layout struct {
	Sessions       int // session folders, five files each
	ActiveSessions int // of which this many stay in sessions/, the rest in archive/yyyy/mm/
	Items          int // core items, spread over the five kind folders
}

// LayoutFor returns a layout of about n files shaped like a long-lived
// project's memory: 5% core items, the rest session files, most of them
// archived by month.
func LayoutFor(n int) Layout {
	items := n / 20
	sessions := (n - items) / 5
	active := min(sessions, 200)
	return Layout{Sessions: sessions, ActiveSessions: active, Items: items}
}

// Files returns how many files the layout holds.
func (l Layout) Files() int { return l.Sessions*5 + l.Items }

var sessionFiles = []string{"session.yaml", "prompts.md", "transcript.md", "summary.md", "observations.md"}

var kindDirs = []string{"decisions", "facts", "patterns", "preferences", "notes"}

// Generate writes a memory work tree into dir: about 1 KB per file, the
// same tree for the same seed.
func Generate(dir string, l Layout, seed uint64) error {
	rng := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	write := func(p string, size int) error {
		name := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
			return err
		}
		return os.WriteFile(name, text(rng, size), 0o644)
	}
	if err := write("README.md", 800); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, "cairn.yaml"), []byte("schema: 1\n"), 0o644); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, ".gitignore"), []byte(".state/\ninbox/\n"), 0o644); err != nil {
		return err
	}
	for i := 0; i < l.Sessions; i++ {
		id := fmt.Sprintf("%08x-%04x-4%03x-a%03x-%012x", rng.Uint32(), rng.IntN(1<<16), rng.IntN(1<<12), rng.IntN(1<<12), rng.Uint64()&(1<<48-1))
		base := "sessions/" + id
		if i >= l.ActiveSessions {
			month := i % 36
			base = fmt.Sprintf("archive/%d/%02d/%s", 2024+month/12, month%12+1, id)
		}
		for _, f := range sessionFiles {
			if err := write(base+"/"+f, 700+rng.IntN(600)); err != nil {
				return err
			}
		}
	}
	for i := 0; i < l.Items; i++ {
		p := fmt.Sprintf("core/%s/item-%d--%026d.md", kindDirs[i%len(kindDirs)], i, i)
		if err := write(p, 700+rng.IntN(600)); err != nil {
			return err
		}
	}
	return nil
}

var words = strings.Fields(`the agent ran tests and fixed the failing migration because postgres
rejected the column type so we decided to keep the queue in the database and retry jobs with
backoff while the handler maps errors to status codes in one place after review`)

func text(rng *rand.Rand, size int) []byte {
	var b strings.Builder
	for b.Len() < size {
		b.WriteString(words[rng.IntN(len(words))])
		if rng.IntN(12) == 0 {
			b.WriteString(".\n")
		} else {
			b.WriteByte(' ')
		}
	}
	b.WriteByte('\n')
	return []byte(b.String())
}

// Git runs the git command-line tool in dir with an isolated
// configuration and returns its output.
func Git(ctx context.Context, dir string, args ...string) (string, error) {
	cmd := exec.CommandContext(ctx, "git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(),
		"GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null",
		// No background gc: it would race with copies of the repository
		// and steal CPU from whatever is measured next.
		"GIT_CONFIG_COUNT=2", "GIT_CONFIG_KEY_0=gc.auto", "GIT_CONFIG_VALUE_0=0",
		"GIT_CONFIG_KEY_1=maintenance.auto", "GIT_CONFIG_VALUE_1=false",
		"GIT_AUTHOR_NAME=bench", "GIT_AUTHOR_EMAIL=bench@example.com",
		"GIT_COMMITTER_NAME=bench", "GIT_COMMITTER_EMAIL=bench@example.com")
	out, err := cmd.CombinedOutput()
	if err != nil {
		return string(out), fmt.Errorf("git %s in %s: %w: %s", strings.Join(args, " "), dir, err, out)
	}
	return string(out), nil
}

// CommitAll makes dir a git repository on branch main with everything in
// it committed, using the git command-line tool.
func CommitAll(ctx context.Context, dir string) error {
	for _, args := range [][]string{
		{"init", "-q", "-b", "main"},
		{"add", "-A"},
		{"commit", "-q", "-m", "generated"},
	} {
		if _, err := Git(ctx, dir, args...); err != nil {
			return err
		}
	}
	return nil
}
