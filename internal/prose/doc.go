// Package prose reads the prose of a session: it splits text into
// sentences and clauses (Sentences, Clauses, UpTo, CutAtBoundary), finds
// its content words and stems, and reads what a statement claims: the
// subject it is about, the value it gives it and what it gives up
// (FactClaim, DecisionClaim, TopicClaim), the settings it names
// (Settings), whether it announces a change (Change), and what a
// decision turned down (Alternative).
//
// The package is pure and imports nothing of cairn.
package prose
