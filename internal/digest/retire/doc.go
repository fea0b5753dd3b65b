// Package retire tells which statements a newer one retired: a fact
// stated once stays in memory after it changed, and the core item that
// says the API listens on 3001 outlives the session that moved it to
// 4100, as does the older session's bullet. Consolidation retires what
// it can tell is the same subject; the pack looks again, over every
// statement it may show (core titles, session bullets, what commands
// replaced), and never presents one as current when a newer statement
// about the same topic announces a change or gives the same setting
// another value. It drops what is retired of a sentence clause by
// clause, keeps its readings of each statement between packs
// (Readings), and tells why it decided (Trace). No I/O.
package retire
