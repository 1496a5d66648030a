-- Hash join of every sale with its customer (sales.customer_id = customers.id), then an
-- aggregate on a string column of the build side.
SELECT c.segment, count(*) AS n, sum(s.amount) AS total, avg(c.credit_limit) AS avg_limit
FROM sales s JOIN customers c ON s.customer_id = c.id
GROUP BY c.segment
ORDER BY c.segment;
