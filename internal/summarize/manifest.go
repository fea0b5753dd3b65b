package summarize

import (
	"path"
	"strings"

	"github.com/cairn-mem/cairn/internal/lazyre"
	"github.com/cairn-mem/cairn/internal/prose"
)

// The versions a project runs on sit in a few well-known files, and an
// agent reads them (Read, or cat in a shell) when they matter: what it
// read there is an environment fact of the project, stated by the file
// itself, so it is kept whatever the agent said about it. A later read
// that shows another version supersedes it.

// versionLine finds "name version" pairs in a file's text; group 1 is the
// name (empty for a file that names one thing: .nvmrc), group 2 the
// version.
type versionLine struct {
	name string // the thing, when the pattern does not capture it
	re   *lazyre.Regexp
}

var (
	toolVersions = []versionLine{{re: lazyre.New(`(?m)^\s*([a-z][\w-]*)\s+v?(\d[\w.+-]*)\s*$`)}}
	manifests    = map[string][]versionLine{
		".tool-versions":   toolVersions,
		".nvmrc":           {{name: "node", re: lazyre.New(`(?m)^\s*()v?(\d[\w.]*)\s*$`)}},
		".node-version":    {{name: "node", re: lazyre.New(`(?m)^\s*()v?(\d[\w.]*)\s*$`)}},
		".python-version":  {{name: "python", re: lazyre.New(`(?m)^\s*()(\d[\w.]*)\s*$`)}},
		".ruby-version":    {{name: "ruby", re: lazyre.New(`(?m)^\s*(?:ruby-)?()(\d[\w.]*)\s*$`)}},
		"go.mod":           {{re: lazyre.New(`(?m)^(go|toolchain)\s+(?:go)?(\d[\w.]*)`)}},
		"package.json":     {{re: lazyre.New(`"(node|react|react-native|expo|next|typescript|vue|@angular/core|svelte|electron|nuxt)"\s*:\s*"[~^>=<\s]*(\d[\w.-]*)"`)}},
		"pyproject.toml":   {{re: lazyre.New(`(?m)^\s*(requires-python|python)\s*=\s*"[~^>=<\s]*(\d[\w.]*)`)}},
		"Cargo.toml":       {{re: lazyre.New(`(?m)^\s*(rust-version|edition)\s*=\s*"(\d[\w.]*)"`)}},
		"mix.exs":          {{re: lazyre.New(`(elixir):\s*"[~>=\s]*(\d[\w.]*)"`)}},
		"Dockerfile":       {{re: lazyre.New(`(?mi)^FROM\s+(?:--\S+\s+)?([\w./-]+):(\d[\w.-]*)`)}},
		"build.gradle":     {{name: "java", re: lazyre.New(`JavaLanguageVersion\.of\(()(\d+)\)|sourceCompatibility\s*=\s*['"]?()(?:JavaVersion\.VERSION_)?(\d[\d_.]*)`)}},
		"build.gradle.kts": {{name: "java", re: lazyre.New(`JavaLanguageVersion\.of\(()(\d+)\)`)}},
		"pom.xml":          {{re: lazyre.New(`<(java\.version|maven\.compiler\.release)>(\d[\w.]*)<`)}},
		"app.json":         {{re: lazyre.New(`"(sdkVersion|runtimeVersion)"\s*:\s*"(\d[\w.]*)"`)}},
	}
	csproj      = []versionLine{{re: lazyre.New(`<(TargetFramework)>([\w.]+)<|Include="([\w.]+)"\s+Version="(\d[\w.-]*)"`)}}
	yamlVersion = []versionLine{{re: lazyre.New(`(?m)^\s*([\w.-]*version)\s*:\s*["']?v?(\d[\w.+-]*)`)}}
	catFiles    = lazyre.New(`(?:^|[;&|]\s*)cat\s+((?:[^\s;&|<>]+\s*)+)`)
	// numbered is a line of a file as a Read tool shows it: "  12→text"
	// or "12\ttext".
	numbered = lazyre.New(`(?m)^\s*\d+(?:→|\t)`)
)

// patternsFor are the version patterns of a file, by its name.
func patternsFor(p string) []versionLine {
	base := path.Base(p)
	switch {
	case manifests[base] != nil:
		return manifests[base]
	case strings.HasSuffix(base, ".csproj"), base == "Directory.Packages.props":
		return csproj
	case strings.HasSuffix(base, ".yml") || strings.HasSuffix(base, ".yaml"):
		return yamlVersion
	}
	return nil
}

// manifestVersions is the environment line for what a tool showed of
// version files: "`.tool-versions`: elixir 1.16.3-otp-26, erlang 26.2.5".
func manifestVersions(t Turn) []string {
	var files []string
	switch toolOp(t.Tool) {
	case opRead:
		files = paths(t)
	case opCommand:
		if m := catFiles.FindStringSubmatch(input(t)); m != nil {
			files = strings.Fields(m[1])
		}
	default:
		return nil
	}
	if failed(t) || len(files) == 0 {
		return nil
	}
	text := numbered.ReplaceAllString(t.Text, "")
	var out []string
	for _, f := range files {
		pats := patternsFor(f)
		if pats == nil {
			continue
		}
		var pairs []string
		for _, vl := range pats {
			for _, m := range vl.re.FindAllStringSubmatch(text, -1) {
				name, v := vl.name, ""
				for i := 1; i+1 < len(m); i += 2 {
					if m[i+1] != "" {
						if m[i] != "" {
							name = m[i]
						}
						v = m[i+1]
						break
					}
				}
				if v != "" && name != "" && len(pairs) < 6 {
					pairs = prose.AppendNew(pairs, name+" "+v)
				}
			}
		}
		if len(pairs) > 0 {
			out = append(out, "`"+f+"`: "+strings.Join(pairs, ", "))
		}
		if len(files) > 1 {
			break // a cat of several files runs them together: the first is read right
		}
	}
	return out
}
