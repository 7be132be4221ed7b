lexer grammar CypherPreLexer;

import Cypher5Lexer;

EXPLAIN:
   E X P L A I N;

PROFILE:
   P R O F I L E;

CYPHER:
   C Y P H E R;