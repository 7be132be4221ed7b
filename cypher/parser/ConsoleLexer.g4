// The console's lexer: Neo4j's Cypher 5 lexer with the pre-parser's
// keywords (EXPLAIN, PROFILE, CYPHER). See README.md.
lexer grammar ConsoleLexer;

import CypherPreLexer;
