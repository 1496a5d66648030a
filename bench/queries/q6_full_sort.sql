-- A full sort of the whole table on two keys, every column carried, every row returned.
SELECT *
FROM sales
ORDER BY customer_id, ts;
