// Store a run's samples (the texts and labels the scores refer to).
UNWIND $rows AS row
MERGE (s:Sample {uid: row.uid})
SET s = row
