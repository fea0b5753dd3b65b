// Package choice reads how an agent's sentence tells what was chosen or
// built, past the cue words package cue matches: the state a change left
// ("X now streams …"), a choice said after its reason ("Since the ETA has
// no year, I take …"), a design answered under its label ("Storage: …"),
// what is done instead of what was turned down, and a reason said after
// what it argues for ("That way …").
package choice
