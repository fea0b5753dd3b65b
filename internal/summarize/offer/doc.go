// Package offer reads what an agent's message puts to the user: the
// choices it proposes ("I'd use sqlc, no ORM"), each with the sentence
// after it, which often says why; what its argument comes to ("So
// restic to B2 for home only, …"); and the terms of a design it
// proposes, said as plain present ("Dead letters are kept 30 days."),
// which hold as decisions once the user agrees. No I/O.
package offer
