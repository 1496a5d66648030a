"""docs/pyspark.md's examples: each ```python block runs (in order, in one namespace, in a
fresh working directory), and a block followed by "prints" and a ``` block prints that."""

import contextlib
import io
import pathlib
import re

DOC = pathlib.Path(__file__).resolve().parents[3] / "docs" / "pyspark.md"


def examples():
    text = DOC.read_text()
    blocks = re.finditer(r"```python\n(.*?)```\n(?:\nprints\n\n```\n(.*?)```\n)?", text, re.S)
    return [(m.group(1), m.group(2)) for m in blocks]


def test_docs_examples_run(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    found = examples()
    assert found, "docs/pyspark.md has no python examples"
    namespace = {}
    for code, expected in found:
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            exec(compile(code, str(DOC), "exec"), namespace)
        if expected is not None:
            assert out.getvalue() == expected + "\n"
