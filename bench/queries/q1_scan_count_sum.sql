-- Full scan of two columns with a count and sums: the floor of every query.
SELECT count(*), sum(amount), sum(qty) FROM sales;
