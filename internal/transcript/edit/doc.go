// Package edit reads what an agent's edit changed from its tool call: the
// one-line replacements an Edit makes (Replacements), the settings a
// whole-file write gave another value (WriteReplacements), and a file's
// text as the Read tool showed it (ReadContent), so that a summary can say
// what a setting was and became whatever the agent said of it.
package edit
