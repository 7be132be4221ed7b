// The console's parser: one Cypher 5 statement as Neo4j receives it over
// Bolt, with its pre-parser options (EXPLAIN, PROFILE, CYPHER ...) and an
// optional closing semicolon. See README.md.
parser grammar ConsoleParser;

import CypherPreParser;

options { tokenVocab = ConsoleLexer; }

consoleStatement
   : preparserOption* statement SEMICOLON? EOF
   ;

// As Neo4j's own parsers do, the pre-parser's keywords stay usable as names
// (a variable called profile).
unescapedLabelSymbolicNameString
   : preparserKeyword
   | unescapedLabelSymbolicNameString_
   ;
