// Package shellcmd reads the command lines agents run: their steps, and
// which steps edit files in place, so that a summary cut to a line's
// length keeps what changed the project ("sed -i 's/ci-agents/build-pods/'
// k8s/pod.yaml") rather than the printf before it.
package shellcmd
