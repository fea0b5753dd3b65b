// Package echo tells what an agent repeats of the memory it was given.
//
// At a session start the agent receives the pack of what earlier
// sessions learned, and agents read it back ("From memory: the service
// listens on 8181, rate limiting runs in Redis, and the open items are
// …"). Taken as the session's own words, such a recap is a new statement
// of old facts. Strip takes out what the agent says it has from memory
// (recalled) when it only reads the pack back (Told.Echoes): nearly all
// its words, and every value it names (numbers, paths, identifiers), are
// in what the session was told, and it announces no change or denial the
// told text does not hold. A fact said again without that framing may be
// one the agent checked again, and stays. No I/O.
package echo
