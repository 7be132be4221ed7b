// A page of a run's samples, filtered and sorted, with the total that match.
// $pair and $metric pick the score that the range ($min, $max), null
// ($null: true = only null scores, false = only scored) and null-reason
// ($reason) filters and a score sort read; $by is a Sample property to sort
// on (from the caller's allow-list) or null to sort on that score. $sep is
// U+001F, the separator of stored uids. Null scores sort last either way.
MATCH (s:Sample {run: $run})
WHERE $system IS NULL OR s.system = $system
OPTIONAL MATCH (p:PairScore {uid: s.uid + $sep + $pair + $sep + $variant})
WITH s, p, CASE WHEN p IS NULL OR $metric IS NULL THEN null ELSE p[$metric] END AS v
WHERE ($min IS NULL OR v >= $min) AND ($max IS NULL OR v <= $max)
  AND ($null IS NULL OR (v IS NULL) = $null)
  AND ($reason IS NULL OR p.reason = $reason)
WITH s, CASE WHEN $by IS NULL THEN v ELSE s[$by] END AS k
ORDER BY k IS NULL,
         CASE WHEN $desc THEN null ELSE k END ASC,
         CASE WHEN $desc THEN k ELSE null END DESC,
         s.record, s.id
WITH collect(s {.uid, .id, .record, .system}) AS rows
RETURN size(rows) AS total, rows[$offset..($offset + $limit)] AS page
