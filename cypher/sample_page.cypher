// A page of a run's samples, filtered and sorted, with the total that match.
// The score that the range ($min, $max), null ($null: true = only null
// scores, false = only scored) and null-reason ($reason) filters and a score
// sort read is either a KG score, $field of the PairScore of $pair and
// $variant, or a metric value, $field (value) of the MetricScore named
// $score; the other of $pair and $score is null. $by is a Sample property
// to sort on (from the caller's allow-list) or null to sort on that score.
// $sep is U+001F, the separator of stored uids. Null scores sort last either
// way.
MATCH (s:Sample {run: $run})
WHERE $system IS NULL OR s.system = $system
OPTIONAL MATCH (p:PairScore {uid: s.uid + $sep + $pair + $sep + $variant})
OPTIONAL MATCH (m:MetricScore {uid: s.uid + $sep + $score})
WITH s, coalesce(p, m) AS x
WITH s, x, CASE WHEN x IS NULL OR $field IS NULL THEN null ELSE x[$field] END AS v
WHERE ($min IS NULL OR v >= $min) AND ($max IS NULL OR v <= $max)
  AND ($null IS NULL OR (v IS NULL) = $null)
  AND ($reason IS NULL OR x.reason = $reason)
WITH s, CASE WHEN $by IS NULL THEN v ELSE s[$by] END AS k
ORDER BY k IS NULL,
         CASE WHEN $desc THEN null ELSE k END ASC,
         CASE WHEN $desc THEN k ELSE null END DESC,
         s.record, s.id
WITH collect(s {.uid, .id, .record, .system}) AS rows
RETURN size(rows) AS total, rows[$offset..($offset + $limit)] AS page
