# SPDX-License-Identifier: GPL-2.0-or-later
# sqlite-workload.awk - writes the sqlite3 workload's SQL script: a table,
# N single-row INSERTs in one transaction, an index, N/5 indexed point
# lookups (a join against the index), a range query and a GROUP BY
# aggregate. The values are arithmetic on the row number, so the script and
# the query results are the same on every run and machine.
# Usage: awk -v n=50000 -f sqlite-workload.awk > workload.sql
BEGIN {
    print "CREATE TABLE item(id INTEGER PRIMARY KEY, k INTEGER, name TEXT, price REAL);"
    print "BEGIN;"
    for (i = 1; i <= n; i++)
        printf "INSERT INTO item(k, name, price) VALUES(%d, 'name%d', %d.%02d);\n",
            (i * 7919) % 100003, i % 997, i % 1000, i % 100
    print "COMMIT;"
    print "CREATE INDEX item_k ON item(k);"
    printf "WITH RECURSIVE q(x) AS (SELECT 0 UNION ALL SELECT x + 1 FROM q WHERE x < %d)\n", n / 5 - 1
    print "  SELECT count(*), sum(item.price) FROM q JOIN item ON item.k = q.x * 5;"
    print "SELECT count(*), min(id), max(id) FROM item WHERE k BETWEEN 1000 AND 20000;"
    print "SELECT name, count(*), round(avg(price), 3), max(k) FROM item GROUP BY name"
    print "  ORDER BY count(*) DESC, name LIMIT 3;"
}
