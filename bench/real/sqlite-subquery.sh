#!/bin/sh
# mk.sh N: a database with t1(N rows) and t2(N rows), no index on t2.x
N=$1
cat <<SQL
PRAGMA automatic_index=off;
CREATE TABLE t1(id INTEGER PRIMARY KEY, x INT, name TEXT);
CREATE TABLE t2(id INTEGER PRIMARY KEY, x INT, v TEXT);
WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i+1 FROM c WHERE i < $N)
INSERT INTO t1 SELECT i, i % 97, 'n' || i FROM c;
WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i+1 FROM c WHERE i < $N)
INSERT INTO t2 SELECT i, i % 89, 'v' || i FROM c;
SELECT sum((SELECT count(*) FROM t2 WHERE t2.x = t1.x)) FROM t1;
SQL
