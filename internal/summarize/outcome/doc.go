// Package outcome reads what an agent's final message of a segment says
// it came to: the sentences that report what was done, one or two a
// paragraph, without the courtesy, the announcements, the questions and
// the work left that such a message also holds.
package outcome
