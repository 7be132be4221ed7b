// Package configs holds kgeval's default configuration file, embedded in the
// binary so that the defaults a user reads are exactly the ones in force.
package configs

import _ "embed"

// Default is the content of kgeval.yaml: every configuration key with its
// default value.
//
//go:embed kgeval.yaml
var Default []byte
