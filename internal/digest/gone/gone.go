package gone

import (
	"path"
	"strings"

	"github.com/cairn-mem/cairn/internal/digest/lex"
	"github.com/cairn-mem/cairn/internal/lazyre"
	"github.com/cairn-mem/cairn/internal/prose"
	"github.com/cairn-mem/cairn/internal/shellcmd"
)

// Files are the files command line cmd deleted or
// moved away: the operands of `rm` and `git rm`, and the sources of `mv`
// and `git mv`.
// What an older session said of such a file (the cron entry in
// ops/crontab.billing, the build in pom.xml) no longer holds. Only names
// of files count: a bare word (`rm -rf build`) is a folder made again by
// the next build, a glob or variable names nothing in particular, and a
// scratch path or a name cut short by the summary is no project file.
// A folder moved with its path (`git mv crates/filters wasm/filters`) is
// one: the project's own tree, not a build's output.
func Files(cmd string) (deleted, moved []string) {
	steps := shellcmd.Steps(cmd)
	for i, step := range steps {
		args := strings.Fields(step)
		if len(args) > 0 && args[0] == "git" {
			args = args[1:]
		}
		if len(args) < 2 {
			continue
		}
		var ops []string
		recursive, cached := false, false
		for _, a := range args[1:] {
			switch {
			case !strings.HasPrefix(a, "-"):
				ops = append(ops, strings.TrimSuffix(strings.Trim(a, `'"`), "/"))
			case a == "--cached":
				cached = true // untracked, still on disk
			case a == "--recursive" || !strings.HasPrefix(a, "--") && strings.ContainsAny(a, "rR"):
				recursive = true
			}
		}
		if cached {
			continue
		}
		// A folder removed and then built again: `rm -rf public && hugo`.
		recursive = recursive && !buildsLater(steps[i+1:])
		switch args[0] {
		case "rm":
		case "mv":
			if len(ops) < 2 {
				continue
			}
			ops = ops[:len(ops)-1] // the target is where they are now
		default:
			continue
		}
		for _, f := range ops {
			folder := args[0] == "mv" && folderPath(f) || recursive && (folderPath(f) && !builtFolder(f) || folderName(f))
			if !(fileName(f) || folder) || mentioned(steps[i+1:], f) {
				continue
			}
			if f = strings.TrimPrefix(f, "./"); args[0] == "mv" {
				moved = append(moved, f)
			} else {
				deleted = append(deleted, f)
			}
		}
	}
	return deleted, moved
}

// Renamed returns the names in code of the files command line cmd moved
// to another name of the same kind, and their new names: TriggerHandler of `git mv
// classes/TriggerHandler.cls classes/LumenTriggerHandler.cls`, io_utils
// of `mv src/io_utils.py src/data/io.py`.
func Renamed(cmd string) [][2]string {
	var out [][2]string
	for _, step := range shellcmd.Steps(cmd) {
		args := strings.Fields(step)
		if len(args) > 0 && args[0] == "git" {
			args = args[1:]
		}
		if len(args) < 3 || args[0] != "mv" {
			continue
		}
		var ops []string
		for _, a := range args[1:] {
			if !strings.HasPrefix(a, "-") {
				ops = append(ops, strings.Trim(a, `'"`))
			}
		}
		if len(ops) != 2 {
			continue
		}
		from, to := path.Base(ops[0]), path.Base(ops[1])
		fe, te := path.Ext(from), path.Ext(to)
		if fe == "" || fe != te {
			continue
		}
		if stem, now := strings.TrimSuffix(from, fe), strings.TrimSuffix(to, te); lex.CodeName(stem) && stem != now {
			out = append(out, [2]string{stem, now})
		}
	}
	return out
}

// NamesCode reports whether text names code name n, whole: not inside
// OpportunityTriggerHandler.
func NamesCode(text, n string) bool {
	if len(n) < 6 {
		return false
	}
	for i := 0; ; {
		j := strings.Index(text[i:], n)
		if j < 0 {
			return false
		}
		j += i
		end := j + len(n)
		if (j == 0 || !isIdentByte(text[j-1])) && (end == len(text) || !isIdentByte(text[end])) {
			return true
		}
		i = j + 1
	}
}

func isIdentByte(c byte) bool { return lex.IsWordByte(c) || c == '_' }

// mentioned reports whether a later step names f: `rm -f cover.out && go
// test -coverprofile=cover.out` writes it again. A step that reads or
// edits other files in place makes nothing: `sed -i
// 's#build crates/filters#build wasm/filters#' package.json` after the
// folder moved names its old path as what it replaces.
func mentioned(steps []string, f string) bool {
	for _, s := range steps {
		if strings.Contains(s, f) && (!makesNothing(s) || writesTo(s, f)) {
			return true
		}
	}
	return false
}

// writesTo reports whether step s writes file f through a redirect or
// tee: `cat deploy/netlify.base.toml > netlify.toml`.
func writesTo(s, f string) bool {
	for _, op := range []string{">", ">>", "tee ", "tee -a "} {
		for rest := s; ; {
			i := strings.Index(rest, op)
			if i < 0 {
				break
			}
			rest = rest[i+len(op):]
			if strings.HasPrefix(strings.TrimLeft(rest, " '\""), f) {
				return true
			}
		}
	}
	return false
}

// makesNothing is a step that only shows files (shellcmd.Shows) or edits,
// searches, records or removes others.
func makesNothing(step string) bool {
	return shellcmd.Shows(step) || editsOthers.MatchString(step)
}

var editsOthers = lazyre.New(`^\s*(?:sed|perl|rg|rmdir|git (?:add|commit|log|grep))\s`)

// folderPath reports whether a command's operand is a folder of the
// project named with its path: crates/filters, not build or /tmp/x.
func folderPath(f string) bool {
	if !strings.Contains(f, "/") || strings.ContainsAny(f, "*?$<>{}[]…~") || strings.HasPrefix(f, "/") || strings.HasPrefix(f, "..") {
		return false
	}
	switch top, _, _ := strings.Cut(strings.TrimPrefix(f, "./"), "/"); top {
	case "target", "build", "dist", "out", "node_modules", ".cache", "tmp":
		return false // a build's output, made again by the next build
	}
	return true
}

// folderName reports whether a command's operand is a folder at the
// project's root that `rm -r` took away: matchmaker, not build or
// node_modules. Text names it only as a path ("in matchmaker/").
func folderName(f string) bool {
	return len(f) >= 3 && strings.Trim(f, "abcdefghijklmnopqrstuvwxyz0123456789_-") == "" && !builtFolder(f)
}

// builtFolder reports whether folder f, by its last name, is one a
// build or a tool makes again: build output, generated code, caches.
func builtFolder(f string) bool {
	switch path.Base(f) {
	case "target", "build", "dist", "out", "node_modules", "tmp", "coverage", "vendor", "public", "_build", "site",
		"htmlcov", "generated", "gen", ".next", ".nuxt", "bin", "obj", "__pycache__", ".cache", ".pytest_cache", "_site":
		return true
	}
	return false
}

// buildsLater reports whether one of steps runs a build or a generator,
// which may write a removed folder again.
func buildsLater(steps []string) bool {
	for _, s := range steps {
		if f := strings.Fields(s); len(f) > 0 && builders[path.Base(f[0])] {
			return true
		}
	}
	return false
}

// builders are commands that build or generate files.
var builders = prose.WordSet(`make hugo mix pytest mkdocs npm npx yarn pnpm cargo go mvn gradle gradlew tsc vite webpack bazel cmake ninja
	sphinx-build jekyll zola dotnet swift protoc buf bundle rake flutter dart elm zig`)

// fileName reports whether a command's operand names one project file.
func fileName(f string) bool {
	if strings.ContainsAny(f, "*?$<>{}[]…~") || strings.HasPrefix(f, "/tmp/") || strings.HasPrefix(f, "/") || strings.HasSuffix(f, "/") {
		return false
	}
	base := f[strings.LastIndexByte(f, '/')+1:]
	dot := strings.LastIndexByte(base, '.')
	return dot > 0 && dot < len(base)-1
}

// NamesFile reports whether text names file f, by its path in the
// project or a longer one (an absolute path), or names a file in it when
// f is a folder; or f is a tool's own settings file (netlify.toml,
// jest.config.js) and text names the tool: deleting the file ends its
// use.
func NamesFile(text, f string, deleted bool) bool {
	if deleted {
		if t := toolOfFile(f); t != "" && NamesTool(text, t) && lex.WrittenAsName(text, t) {
			return true
		}
	}
	base := f[strings.LastIndexByte(f, '/')+1:]
	if !strings.Contains(text, base) {
		return false
	}
	for _, w := range strings.Fields(text) {
		w = strings.TrimRight(strings.TrimLeft(w, "`'\"(["), "`'\")],;:!?.")
		// A file in a folder is named with its folder: another
		// README.md may be meant. A folder is named as a path: the
		// matchmaker folder went, not the matchmaker.
		if w != "" && SameFile(w, f) && (strings.Contains(w, "/") || !strings.Contains(f, "/") && fileName(f)) {
			return true
		}
		if !fileName(f) && strings.Contains(w, f+"/") && (strings.HasPrefix(w, f) || strings.Contains(w, "/"+f+"/")) {
			return true // crates/filters/src/lib.rs, once crates/filters moved
		}
	}
	return false
}

// toolOfFile is the tool whose settings file f is, when its name says so:
// netlify.toml, vercel.json, jest.config.js at the project's root. A
// file in a folder is the project's own (src/server.js), and a name that
// is a common word of builds (build.js, package.json, index.ts) names no
// tool.
func toolOfFile(f string) string {
	if strings.Contains(f, "/") || strings.HasPrefix(f, ".") {
		return ""
	}
	ext := f[max(0, strings.LastIndexByte(f, '.')):]
	switch ext {
	case ".toml", ".json", ".yaml", ".yml", ".js", ".cjs", ".mjs", ".ts", ".cfg", ".ini", ".conf":
	default:
		return ""
	}
	name := strings.ToLower(strings.TrimSuffix(strings.TrimSuffix(f, ext), ".config"))
	if len(name) < 4 || strings.Trim(name, "abcdefghijklmnopqrstuvwxyz") != "" || lex.StopWords[name] || notTool[name] {
		return ""
	}
	return name
}

// notTool are names of settings files that are common words of a
// project, not a tool's: build.js, package.json, settings.json.
var notTool = prose.WordSet(`build package deploy schema index main config configs values settings server client
	test tests data docker compose project app application manifest tsconfig jsconfig lerna`)

// NamesTool reports whether text holds t as a word of its own: "Netlify
// for now", not "netlifyConfig" nor "netlify.toml".
func NamesTool(text, t string) bool {
	lower := strings.ToLower(text)
	return lex.HasBounded(lower, t, func(j, end int) bool {
		return (j == 0 || !lex.IsWordByte(lower[j-1]) && lower[j-1] != '.') && (end == len(lower) || !lex.IsWordByte(lower[end]) && !(lower[end] == '.' && end+1 < len(lower) && lex.IsWordByte(lower[end+1])))
	})
}

// SameFile reports whether two paths, one perhaps absolute and the other
// relative to the project, name the same file: the shorter is the
// longer's tail.
func SameFile(a, b string) bool {
	a, b = strings.TrimPrefix(a, "./"), strings.TrimPrefix(b, "./")
	if len(a) < len(b) {
		a, b = b, a
	}
	return a == b || strings.HasSuffix(a, "/"+b)
}
