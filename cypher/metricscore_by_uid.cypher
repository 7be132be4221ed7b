// Stored metric values (no explanation) by MetricScore uid (run, sample id
// and metric joined by U+001F); missing uids give no row.
UNWIND $uids AS uid
MATCH (m:MetricScore {uid: uid})
RETURN m.sample AS sample, m.metric AS metric, m.family AS family, m.value AS value, m.reason AS reason
