// Remove the stored relation nodes, and with them their edges, of the given pair graphs.
UNWIND $graphs AS gid
MATCH (n:Relation {graph: gid})
DETACH DELETE n
