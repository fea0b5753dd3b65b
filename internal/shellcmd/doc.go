// Package shellcmd reads the command lines agents run: their steps, and
// which steps edit files in place, so that a summary cut to a line's
// length keeps what changed the project ("sed -i 's/ci-agents/build-pods/'
// k8s/pod.yaml") rather than the printf before it; which runs are one
// command run again ("cd app && go test ./... 2>&1 | tail" and "go test
// ./..."); and what a command is for (a test run, a build, a lint, a
// commit and its message, or a look around), so that a summary tells how
// the checks ended and leaves the looking out.
package shellcmd
