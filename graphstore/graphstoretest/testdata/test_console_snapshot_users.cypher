// Tests only: the database users (run against the system database).
SHOW USERS YIELD user
RETURN user
ORDER BY user
