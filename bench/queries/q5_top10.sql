-- ORDER BY ... LIMIT 10: a top-N, which should never sort the whole table.
SELECT id, customer_id, amount, ts
FROM sales
ORDER BY amount DESC, id
LIMIT 10;
