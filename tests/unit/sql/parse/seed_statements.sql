-- SPDX-License-Identifier: Apache-2.0
-- The SQL statements of the user stories in ../shared/seeds/, extracted by hand (the seeds are
-- prose with code, not files of SQL) and kept as written, one statement per ';'.
-- test_sql_corpus parses every one. Left out: PySpark code, and the T-SQL audit query of
-- seed 000 (it uses SQL Server's FORMAT(ts, 'fmt') and a [bracketed] alias, which are not
-- Spark SQL; its Spark form is in scenarios/gold_sales_orders.test).

-- ---- seeds/000_8e00c5c224abf11f.txt (Fabric lakehouse: time travel, rollback, audit) ----
SELECT *
FROM gold_sales_orders
FOR SYSTEM_VERSION AS OF 2;

SELECT *
FROM gold_sales_orders
FOR SYSTEM_TIME AS OF '2024-06-15T09:32:00.000';

SELECT
'Version 2 (clean)' AS snapshot,
SUM(revenue) AS total_revenue,
COUNT(*) AS row_count
FROM gold_sales_orders
FOR SYSTEM_VERSION AS OF 2
UNION ALL
SELECT
'Version 3 (corrupt)' AS snapshot,
SUM(revenue) AS total_revenue,
COUNT(*) AS row_count
FROM gold_sales_orders
FOR SYSTEM_VERSION AS OF 3;

WITH clean AS (
SELECT order_date, category, region, revenue AS revenue_clean
FROM gold_sales_orders FOR SYSTEM_VERSION AS OF 2
),
corrupted AS (
SELECT order_date, category, region, revenue AS revenue_corrupt
FROM gold_sales_orders FOR SYSTEM_VERSION AS OF 3
)
SELECT
c.order_date,
c.category,
c.region,
c.revenue_clean,
d.revenue_corrupt,
d.revenue_corrupt - c.revenue_clean AS overstatement
FROM clean c
JOIN corrupted d
ON c.order_date = d.order_date
AND c.category = d.category
AND c.region = d.region
WHERE c.revenue_clean <> d.revenue_corrupt
ORDER BY overstatement DESC;

DESCRIBE DETAIL delta.`Tables/gold_sales_orders`;

ALTER TABLE delta.`Tables/gold_sales_orders`
SET TBLPROPERTIES (
'delta.deletedFileRetentionDuration' = 'interval 30 days',
'delta.logRetentionDuration' = 'interval 30 days'
);

VACUUM delta.`Tables/gold_sales_orders` DRY RUN;

VACUUM delta.`Tables/gold_sales_orders` RETAIN 720 HOURS;

GENERATE symlink_format_manifest FOR TABLE delta.`Tables/gold_sales_orders`;

-- ---- seeds/001_b57c66eb39c6c049.txt (history, time travel, recovery) ----
DESCRIBE HISTORY f1_demo.drivers_merge;

SELECT *
FROM f1_demo.drivers_merge VERSION AS OF 1
ORDER BY driverId;

SELECT *
FROM f1_demo.drivers_merge VERSION AS OF 2
ORDER BY driverId;

-- Replace with an actual timestamp from DESCRIBE HISTORY.
SELECT *
FROM f1_demo.drivers_merge
TIMESTAMP AS OF 'YYYY-MM-DD HH:MM:SS';

DESCRIBE DETAIL f1_demo.drivers_merge;

VACUUM f1_demo.drivers_merge;

DELETE FROM f1_demo.drivers_merge
WHERE driverId = 1;

SELECT COUNT(*) AS current_count
FROM f1_demo.drivers_merge;

SELECT COUNT(*) AS prior_count
FROM f1_demo.drivers_merge VERSION AS OF 3;

MERGE INTO f1_demo.drivers_merge AS tgt
USING (
SELECT *
FROM f1_demo.drivers_merge VERSION AS OF 3
WHERE driverId = 1
) AS src
ON tgt.driverId = src.driverId
WHEN NOT MATCHED THEN INSERT *;

SELECT *
FROM f1_demo.drivers_merge
WHERE driverId = 1;

-- ---- seeds/002_3c3133043907adff.txt (transaction log, time travel, RESTORE) ----
DESCRIBE DETAIL orders;
UPDATE orders SET status = 'shipped', updated_at = '2026-10-04 08:30:00' WHERE order_id = 1004;
DELETE FROM orders WHERE status = 'cancelled';
DESCRIBE HISTORY orders;
SELECT order_id, status FROM orders VERSION AS OF 0 ORDER BY order_id;
RESTORE TABLE orders TO VERSION AS OF 0;

-- ---- seeds/003_a70260c2387ecaa4.txt (deep dive: every operation) ----
CREATE SCHEMA IF NOT EXISTS delta_demo;
USE delta_demo;
SELECT * FROM delta_demo.employees ORDER BY emp_id;
INSERT INTO delta_demo.employees VALUES
(6, 'Anita', 'Marketing', 'Montreal', 78000, '2024-03-15'),
(7, 'Deepak', 'Finance', 'Edmonton', 82000, '2024-05-01');
UPDATE delta_demo.employees
SET salary = 105000, city = 'Toronto'
WHERE emp_id = 1;
SELECT * FROM delta_demo.employees WHERE emp_id = 1;
DELETE FROM delta_demo.employees
WHERE emp_id = 5;
DESCRIBE HISTORY delta_demo.employees;
SELECT * FROM delta_demo.employees VERSION AS OF 0 ORDER BY emp_id;
SELECT * FROM delta_demo.employees VERSION AS OF 1 ORDER BY emp_id;
SELECT * FROM delta_demo.employees VERSION AS OF 2 WHERE emp_id = 1;
SELECT * FROM delta_demo.employees VERSION AS OF 2 WHERE emp_id = 5; -- Ravi EXISTS
SELECT * FROM delta_demo.employees VERSION AS OF 3 WHERE emp_id = 5; -- Ravi GONE
-- What did the table look like at a specific timestamp?
SELECT * FROM delta_demo.employees TIMESTAMP AS OF '2026-05-05 10:12:00' ORDER BY emp_id;
RESTORE TABLE delta_demo.employees TO VERSION AS OF 1;
RESTORE TABLE delta_demo.employees TO VERSION AS OF 4;
DESCRIBE DETAIL delta_demo.employees;
VACUUM delta_demo.employees RETAIN 168 HOURS;
SET spark.databricks.delta.retentionDurationCheck.enabled = false;
VACUUM delta_demo.employees RETAIN 0 HOURS;
SELECT emp_id, name, city, salary, level
FROM delta_demo.employees
ORDER BY emp_id;
OPTIMIZE table_name;
