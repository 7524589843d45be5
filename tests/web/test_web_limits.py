"""The workshop's limits that need a server of their own: requests at once (503, as JSON) and
finished jobs capped in number and in bytes."""

from __future__ import annotations

import time
import warnings
from pathlib import Path

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from runarch_gen.web.app import create_app
from runarch_gen.web.jobs import Job, JobManager

BASE = "http://127.0.0.1:8000"


def test_beyond_the_requests_at_once_the_answer_is_503_json(tmp_path: Path) -> None:
    jobs = JobManager(root=tmp_path)
    with TestClient(create_app(jobs=jobs, max_requests=0), base_url=BASE) as client:
        response = client.get("/api/runarch/count")
    assert response.status_code == 503
    assert response.headers["content-type"] == "application/json"
    assert "too many requests at once" in response.json()["error"]


def _finished(manager: JobManager, name: str, size: int, finished: float) -> Job:
    folder = manager.root / name
    folder.mkdir()
    (folder / "data").write_bytes(b"x" * size)
    job = Job(name, "deck", "127.0.0.1", {}, folder, time.time(), state="done")
    job.finished, job.size = finished, size
    manager._jobs[name] = job
    return job


def test_finished_jobs_are_capped_in_number_and_bytes_oldest_first(tmp_path: Path) -> None:
    manager = JobManager(root=tmp_path, max_finished=3, max_bytes=10_000)
    for i in range(5):
        _finished(manager, f"job{i}", 1000, finished=float(i))
    manager.tick()
    assert sorted(manager._jobs) == ["job2", "job3", "job4"]  # the two oldest went
    assert sorted(p.name for p in manager.root.iterdir()) == ["job2", "job3", "job4"]
    _finished(manager, "big", 9500, finished=10.0)
    manager.tick()
    assert sorted(manager._jobs) == ["big"]  # over 10,000 bytes: the older ones went
    manager.shutdown()
    assert not manager.root.exists()
