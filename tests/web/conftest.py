"""A workshop application per test module, with its own job folder, through Starlette's client."""

from __future__ import annotations

import time
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # starlette asks for httpx2; httpx works the same here
    from starlette.testclient import TestClient

from runarch_gen.web.app import create_app
from runarch_gen.web.jobs import JobManager

BASE = "http://127.0.0.1:8000"
SAME_ORIGIN = {"Origin": BASE}


@pytest.fixture(scope="module")
def jobs(tmp_path_factory: pytest.TempPathFactory) -> Iterator[JobManager]:
    manager = JobManager(root=tmp_path_factory.mktemp("jobs"))
    yield manager
    manager.shutdown()


@pytest.fixture(scope="module")
def client(jobs: JobManager) -> Iterator[TestClient]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        with TestClient(create_app(jobs=jobs, tick_seconds=0.2), base_url=BASE) as test_client:
            yield test_client


def wait_for(client: TestClient, job: str, timeout: float = 120.0) -> dict[str, Any]:
    """The job's status once it has ended."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        status: dict[str, Any] = client.get(f"/api/jobs/{job}").json()
        if status["state"] not in ("queued", "running"):
            return status
        time.sleep(0.1)
    raise AssertionError(f"job {job} still running after {timeout} s")


def files_under(root: Path) -> list[Path]:
    return sorted(p for p in root.rglob("*") if p.is_file())
