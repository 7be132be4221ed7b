// Package neo4j carries the bundled Neo4j + GDS launcher (neo4j.sh, the
// Maven pom that lists the jars, the neo4j.conf template) inside the kgeval
// binary, so that `kgeval neo4j start` works where only the binary is (a pip
// install of the Python package): it writes these files out and runs the
// script. See README.md beside this file.
package neo4j

import "embed"

// Files holds neo4j.sh, pom.xml and neo4j.conf.tmpl.
//
//go:embed neo4j.sh pom.xml neo4j.conf.tmpl
var Files embed.FS

// Names are the files of Files, the script first.
var Names = []string{"neo4j.sh", "pom.xml", "neo4j.conf.tmpl"}
