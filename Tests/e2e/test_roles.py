"""`reelhouse serve --role api|worker|all` (docs/scale-out.md): an API node serves HTTP and
runs no jobs, a worker node runs jobs and listens nowhere, and a bad role is refused at start."""
import os
import socket
import subprocess
import time
from pathlib import Path

import pytest

from conftest import BIN, LiveServer, db, import_json, make_clip, reelhouse
from pykit import TEST_ENVIRONMENT
from pykit.server import free_port


def job_states(data: Path) -> list[str]:
    with db(data) as connection:
        return [row["state"] for row in connection.execute("SELECT state FROM jobs WHERE kind = 'transcode'")]


def listening(port: int) -> bool:
    with socket.socket() as probe:
        probe.settimeout(0.5)
        return probe.connect_ex(("127.0.0.1", port)) == 0


@pytest.mark.sqlite_only("checks the rows in the SQLite file")
def test_an_api_node_leaves_jobs_to_a_worker_node_that_listens_nowhere(tmp_path, data):
    clip = make_clip(tmp_path / "clip.mp4", seconds=2)
    post_id = import_json(data, clip, extra=("--no-wait",))["imported"][0]["id"]
    api = LiveServer(data, args=("--role", "api", "--bcrypt-cost", "4"), env={"REELHOUSE_PRESET": "ultrafast"})
    worker = None
    try:
        time.sleep(3)
        assert job_states(data) == ["queued"], "an API node must not run jobs"
        port = free_port()
        log = open(tmp_path / "worker.log", "w+")
        worker = subprocess.Popen([BIN, "serve", "--data", str(data), "--role", "worker", "--port", str(port)],
                                  stdout=log, stderr=subprocess.STDOUT,
                                  env={**os.environ, **TEST_ENVIRONMENT, "REELHOUSE_PRESET": "ultrafast"})
        deadline = time.monotonic() + 120
        while job_states(data) != ["succeeded"] and time.monotonic() < deadline:
            assert worker.poll() is None, (tmp_path / "worker.log").read_text()
            time.sleep(0.2)
        assert job_states(data) == ["succeeded"], (tmp_path / "worker.log").read_text()
        assert not listening(port), "a worker node listens for nothing"
        with db(data) as connection:
            assert connection.execute("SELECT status FROM posts WHERE id = ?", (post_id,)).fetchone()["status"] == "ready"
    finally:
        if worker is not None:
            worker.terminate()
            # SIGTERM stops a worker node gracefully.
            assert worker.wait(timeout=30) == 0
        api.stop()


def test_an_unknown_role_is_refused_with_one_line(data):
    result = reelhouse(data, "serve", "--role", "edge", "--port", "0", check=False)
    assert result.returncode != 0
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "role must be all, api or worker" in lines[0], result.stderr
