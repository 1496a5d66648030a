# SPDX-License-Identifier: Apache-2.0
"""Writes the CSV load benchmark's file: ROWS rows of id, name, price, qty, day, flag, note.

name is quoted when it holds the separator (a tenth of rows), note is empty (NULL) in a fifth
of rows and otherwise has an escaped quote now and then, so the reader's quoted and escaped
paths are in the timing, not only plain fields.
"""
import random
import sys

def main(path, rows, seed=42):
    rnd = random.Random(seed)
    words = ["apple", "pear", "fig", "plum", "kiwi", "lime", "date", "yuzu"]
    with open(path, "w", buffering=1 << 20) as f:
        f.write("id,name,price,qty,day,flag,note\n")
        out = []
        for i in range(rows):
            w = words[i % 8]
            name = f'"{w}, {i % 1000}"' if i % 10 == 0 else f"{w}{i % 1000}"
            price = f"{(i * 37 % 100000) / 100:.2f}"
            day = f"2024-{i % 12 + 1:02d}-{i % 28 + 1:02d}"
            flag = "true" if i % 3 == 0 else "false"
            note = "" if i % 5 == 0 else (f'"say \\"{w}\\""' if i % 7 == 0 else f"n{rnd.randrange(10**6)}")
            out.append(f"{i},{name},{price},{i % 500},{day},{flag},{note}\n")
            if len(out) == 100000:
                f.write("".join(out))
                out.clear()
        f.write("".join(out))

if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]))
