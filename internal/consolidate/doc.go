// Package consolidate turns the candidates a summarizer proposes
// (decisions, facts, patterns, preferences) into core memory: each is
// added, confirms the item it repeats, supersedes the item it changes, or
// retires the items a change replaces, as writes of one memory.Writes
// batch that capture commits. The matching rule (subjects, values,
// reversals, settings, attributes) is described at the top of
// consolidate.go; it is lexical, offline, and reads only the core items
// of the candidates' kinds.
package consolidate
