// Tests only: how many nodes and relationships the database holds.
MATCH (n) WITH count(n) AS nodes
MATCH ()-[r]->()
RETURN nodes, count(r) AS rels
