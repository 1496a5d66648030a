-- A selective range filter (one week of two years, about 1% of rows). ts rises with the row
-- number, so row-group statistics can skip most of the file.
SELECT count(*), sum(amount), max(qty)
FROM sales
WHERE ts >= TIMESTAMP '2024-03-01 00:00:00' AND ts < TIMESTAMP '2024-03-08 00:00:00';
