"""Fixtures of the Python package's tests: a fresh warehouse per test. The package must be
importable (scripts/test installs it into build/python/site and puts that on PYTHONPATH);
nothing here skips: a missing package is an error naming what to run."""

import os
import time

import pytest

os.environ["TZ"] = "UTC"
time.tzset()

try:
    import deltalite  # noqa: F401
except ImportError as exc:  # pragma: no cover - the message is the point
    raise pytest.UsageError(
        f"cannot import deltalite ({exc}): pip install ./python (scripts/test installs it into "
        "build/python/site and runs pytest with PYTHONPATH=build/python/site)") from exc


@pytest.fixture
def warehouse(tmp_path):
    return tmp_path / "warehouse"


@pytest.fixture
def con(warehouse):
    with deltalite.connect(warehouse, fsync=False) as c:
        yield c
