"""docs/python.md: every ```python block runs, in order, in one namespace, in a fresh folder."""

import os
import pathlib
import re

DOC = pathlib.Path(__file__).resolve().parents[2] / "docs" / "python.md"


def test_every_example_of_docs_python_md_runs(tmp_path, capsys):
    blocks = re.findall(r"```python\n(.*?)```", DOC.read_text(), re.S)
    assert len(blocks) >= 8
    cwd = os.getcwd()
    os.chdir(tmp_path)
    namespace = {}
    try:
        for i, block in enumerate(blocks):
            exec(compile(block, f"{DOC.name} block {i + 1}", "exec"), namespace)
    finally:
        os.chdir(cwd)
    assert "south" in capsys.readouterr().out  # the .show() example printed its table
