// Package pick reads a decision that points at what the agent offered
// ("go with the table", "do the second", "both") and returns the
// offered option it picks, so that the decision says what was chosen
// when read alone; a bare version it names takes its thing's name from
// the offer (NamedVersion). No I/O.
package pick
