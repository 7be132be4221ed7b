// Tests only: the transactions of the Cypher console still open in Neo4j
// (the console tags each with the metadata {app: $app}), with the CPU time
// they have used, to show that a refused or timed-out console query leaves
// nothing running.
SHOW TRANSACTIONS YIELD transactionId, metaData, status, elapsedTime, cpuTime, currentQuery
WHERE metaData.app = $app
RETURN transactionId AS id, status, elapsedTime.milliseconds AS elapsed_ms, cpuTime.milliseconds AS cpu_ms, currentQuery AS query
