// Package recent finds the sessions a context pack may show: the latest
// session folders with substance (a summary saying what was asked or
// done, or enough turns not summarised yet), what each holds (its
// summary, pending turns, progress and variables), and how a core item
// ranks among them.
package recent
