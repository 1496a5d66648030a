-- Hash aggregation keyed on two string columns (20 x 5 = 100 groups).
SELECT category, region, count(*) AS n, sum(amount) AS total
FROM sales
GROUP BY category, region
ORDER BY category, region;
