// Package shellcmd reads the command lines agents run: their steps, and
// which steps edit files in place, so that a summary cut to a line's
// length keeps what changed the project ("sed -i 's/ci-agents/build-pods/'
// k8s/pod.yaml") rather than the printf before it; and which runs are one
// command run again ("cd app && go test ./... 2>&1 | tail" and "go test
// ./...").
package shellcmd
