package configs

import _ "embed"

// Default is the content of kgeval.yaml: every configuration key with its
// default value.
//
//go:embed kgeval.yaml
var Default []byte
