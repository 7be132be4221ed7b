// Remove the stored entity nodes, and with them their edges, of the given pair graphs.
UNWIND $graphs AS gid
MATCH (n:Entity {graph: gid})
DETACH DELETE n
