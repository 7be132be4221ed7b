#!/usr/bin/env bash
# Regenerates console_lexer.go and console_parser.go from the grammars here
# (go generate ./cypher/parser). Needs java and mvn: the ANTLR tool is
# fetched from Maven Central into the local Maven repository. See README.md.
set -euo pipefail
cd "$(dirname "$0")"
version=4.13.2
jar="${ANTLR_JAR:-$HOME/.m2/repository/org/antlr/antlr4/$version/antlr4-$version-complete.jar}"
if [ ! -f "$jar" ]; then
  mvn -q dependency:get -Dartifact="org.antlr:antlr4:$version:jar:complete"
fi
java -jar "$jar" -Dlanguage=Go -package parser -no-listener -no-visitor -Xexact-output-dir -o . \
  ConsoleLexer.g4 ConsoleParser.g4
rm -f ./*.interp ./*.tokens
# go vet reports the generated "return; goto errorExit" (a trick that keeps
# the label used) as unreachable code: use the label before it instead.
perl -0pi -e 's/\n\treturn localctx\n\tgoto errorExit \/\/ Trick to prevent compiler error if the label is not used\n/\n\treturn localctx\n/g; s/\nerrorExit:\n/\n\tif false {\n\t\tgoto errorExit \/\/ keeps the label used (see generate.sh)\n\t}\nerrorExit:\n/g' console_parser.go
gofmt -w console_lexer.go console_parser.go
