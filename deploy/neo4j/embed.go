// Package neo4j carries the bundled Neo4j + GDS launcher (neo4j.sh, the
// Maven pom that lists the jars, the neo4j.conf template) inside the kgeval
// binary, so that `kgeval neo4j start` works where only the binary is (a pip
// install of the Python package): it writes these files out and runs the
// script. The jars are fetched by Install from the lock (jars.lock), with
// no Maven. See README.md beside this file.
package neo4j

import "embed"

// Files holds neo4j.sh, pom.xml, neo4j.conf.tmpl and jars.lock (the jars
// Install fetches from Maven Central with no Maven).
//
//go:embed neo4j.sh pom.xml neo4j.conf.tmpl jars.lock
var Files embed.FS

// Names are the launcher's files of Files, the script first (written out
// beside each other; jars.lock is read in place).
var Names = []string{"neo4j.sh", "pom.xml", "neo4j.conf.tmpl"}
