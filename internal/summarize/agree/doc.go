// Package agree reads a choice the agent puts to the user ("My take:
// Postgres 16", "I'd use sqlc, no ORM") and the user's reply that takes
// it ("agreed on all of it") or does not ("ok, but not sqlc", "No."): a
// proposal agreed to is the session's decision. Label finds what a
// proposal's pronoun stands for in the label its paragraph opens with.
// No I/O.
package agree
