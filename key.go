package kgeval

import "strings"

// KeySep joins the parts of a stored id: run, sample, pair, variant,
// metric and node number. It is the ASCII unit separator, which no dataset
// id or name holds in practice, and it keeps "a|b"+"c" apart from
// "a"+"b|c". The graph store's queries receive it as the parameter $sep.
const KeySep = "\x1f"

// JoinKey joins parts with KeySep.
func JoinKey(parts ...string) string { return strings.Join(parts, KeySep) }

// GraphID is the id of a stored pair graph: run, sample and pair.
func GraphID(run, sample, pair string) string { return JoinKey(run, sample, pair) }
