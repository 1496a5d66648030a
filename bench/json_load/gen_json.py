# SPDX-License-Identifier: Apache-2.0
"""Writes the JSON load benchmark's file: ROWS JSON Lines of id, name, price, qty, day, flag,
note, tags (an array) and dim (a struct).

note is null in a fifth of rows and has an escaped quote now and then; a tenth of names has a
non-ASCII character written as a \\u escape, so the reader's unescaping and copied-string
paths are in the timing.
"""
import json
import random
import sys


WORDS = ["apple", "pear", "fig", "plum", "kiwi", "lime", "date", "yuzu"]


def record(rnd, i):
    w = WORDS[i % 8]
    note = None if i % 5 == 0 else (f'say "{w}"' if i % 7 == 0 else f"n{rnd.randrange(10**6)}")
    return {
        "id": i,
        "name": f"{w}\u00e9{i % 1000}" if i % 10 == 0 else f"{w}{i % 1000}",
        "price": round((i * 37 % 100000) / 100 + 0.01, 2),
        "qty": i % 500,
        "day": f"2024-{i % 12 + 1:02d}-{i % 28 + 1:02d}",
        "flag": i % 3 == 0,
        "note": note,
        "tags": [w, WORDS[(i + 1) % 8]],
        "dim": {"w": i % 7, "h": i % 11},
    }


def main(path, rows, seed=42):
    rnd = random.Random(seed)
    with open(path, "w", buffering=1 << 20) as f:
        f.writelines(json.dumps(record(rnd, i), separators=(",", ":")) + "\n" for i in range(rows))


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]))
