// Package manifest reads the versions a project's well-known files state:
// .tool-versions, .nvmrc, go.mod, package.json, pyproject.toml,
// Cargo.toml, a Dockerfile's FROM, Gradle, Maven and .csproj files, and
// a YAML file's version keys. The summariser keeps what an agent read of
// them as an environment fact of the project, stated by the file itself.
package manifest
