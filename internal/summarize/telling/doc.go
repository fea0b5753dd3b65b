// Package telling tells how a sentence of a session is said, before
// summarize decides what it says: a step the agent narrates ("Bumping the
// API version everywhere."), a report of what was tried that decides
// nothing, a wish, an acknowledgment, a time of day or a run's log as the
// only value, a thing left as it is, and where a sentence gives its
// reason.
package telling
