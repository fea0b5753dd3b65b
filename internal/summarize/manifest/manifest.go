package manifest

import (
	"path"
	"strings"

	"github.com/cairn-mem/cairn/internal/lazyre"
	"github.com/cairn-mem/cairn/internal/prose"
)

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

// Versions are the "name version" pairs file f's text states (at most
// six): "elixir 1.16.3-otp-26", "erlang 26.2.5" for a .tool-versions.
// known says whether f is a file that states versions at all.
func Versions(f, text string) (pairs []string, known bool) {
	pats := patternsFor(f)
	if pats == nil {
		return nil, false
	}
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
	return pairs, true
}
