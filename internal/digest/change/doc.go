// Package change reads what a sentence says changed: the values a change
// replaced and the ones it set ("moved from 8080 to 8090", "change of
// plan: let's move to RAUC"), what it says was taken out or given back
// ("Hilt is out", "forget what I said about vim.notify", "you can run
// full image builds again"), a switch turned on or off, a folder moved,
// and the keys a statement is about. The retirer (package digest) asks
// these of every pair of statements it compares.
package change
