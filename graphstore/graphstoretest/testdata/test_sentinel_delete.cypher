// Tests only: remove the sentinels of $tag.
MATCH (n) WHERE n.tag = $tag
DETACH DELETE n
