package edits

import (
	"path"
	"strings"

	"github.com/cairn-mem/cairn/internal/lazyre"
)

// Manifest reports whether a file, by its name, declares a project's
// dependencies one to a line as a key and a version: package.json,
// deno.json, composer.json, Cargo.toml, pyproject.toml (Poetry's).
func Manifest(file string) bool {
	switch path.Base(strings.ReplaceAll(file, `\`, "/")) {
	case "package.json", "deno.json", "deno.jsonc", "composer.json", "Cargo.toml", "pyproject.toml", "bower.json":
		return true
	}
	return false
}

// Dependency returns the package a manifest's line declares with its
// version ("markdown-it": "npm:markdown-it@14.1.0", serde = { version =
// "1.0" }, "@deno/gfm": "jsr:@deno/gfm@0.10.0"), "" for any other line
// ("name": "inkwell", "scripts": {).
func Dependency(line string) string {
	m := dependencyLine.FindStringSubmatch(strings.TrimSpace(line))
	if m == nil {
		return ""
	}
	return m[1]
}

// dependencyLine is a package name, quoted or bare (scoped: @deno/gfm),
// given a version: a number, a range (^1.2, ~1, >=2), a registry's
// specifier (npm:, jsr:) or a table with a version.
var dependencyLine = lazyre.New(`^["']?(@?[A-Za-z0-9][\w.-]*(?:/[\w.-]+)?)["']?\s*[=:]\s*(?:["'](?:npm:|jsr:|[\^~=<>*]|\d|workspace:)[^"']*["']|\{[^}]*\bversion\s*=\s*["'][^"']+["'][^}]*\})\s*,?$`)

// swapped reports whether two lines declare two dependencies: one package
// put in the place of another.
func swapped(a, b string) bool {
	da, db := Dependency(a), Dependency(b)
	return da != "" && db != "" && da != db
}
