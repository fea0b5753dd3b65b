package digest

import "strings"

// removedFiles are the files the command of Commands bullet b deleted or
// moved away: the operands of `rm` and `git rm`, and the sources of `mv`
// and `git mv`.
// What an older session said of such a file (the cron entry in
// ops/crontab.billing, the build in pom.xml) no longer holds. Only names
// of files count: a bare word (`rm -rf build`) is a folder made again by
// the next build, a glob or variable names nothing in particular, and a
// scratch path or a name cut short by the summary is no project file.
func removedFiles(b string) []string {
	var out []string
	steps := stepSep.Split(commandOf(b), -1)
	for i, step := range steps {
		args := strings.Fields(step)
		if len(args) > 0 && args[0] == "git" {
			args = args[1:]
		}
		if len(args) < 2 {
			continue
		}
		var ops []string
		for _, a := range args[1:] {
			if !strings.HasPrefix(a, "-") {
				ops = append(ops, strings.Trim(a, `'"`))
			}
		}
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
			if fileName(f) && !mentioned(steps[i+1:], f) {
				out = append(out, strings.TrimPrefix(f, "./"))
			}
		}
	}
	return out
}

// mentioned reports whether a later step names f: `rm -f cover.out && go
// test -coverprofile=cover.out` writes it again.
func mentioned(steps []string, f string) bool {
	for _, s := range steps {
		if strings.Contains(s, f) {
			return true
		}
	}
	return false
}

// fileName reports whether a command's operand names one project file.
func fileName(f string) bool {
	if strings.ContainsAny(f, "*?$<>{}[]…~") || strings.HasPrefix(f, "/tmp/") || strings.HasPrefix(f, "/") || strings.HasSuffix(f, "/") {
		return false
	}
	base := f[strings.LastIndexByte(f, '/')+1:]
	dot := strings.LastIndexByte(base, '.')
	return dot > 0 && dot < len(base)-1
}

// namesFile reports whether text names file f, by its path in the
// project or a longer one (an absolute path).
func namesFile(text, f string) bool {
	base := f[strings.LastIndexByte(f, '/')+1:]
	if !strings.Contains(text, base) {
		return false
	}
	for _, w := range strings.Fields(text) {
		w = strings.TrimRight(strings.TrimLeft(w, "`'\"(["), "`'\")],;:!?.")
		// A file in a folder is named with its folder: another
		// README.md may be meant.
		if w != "" && sameFile(w, f) && (strings.Contains(w, "/") || !strings.Contains(f, "/")) {
			return true
		}
	}
	return false
}
