"""Shared helpers for the end-to-end tests: real ffmpeg clips, the real `reelhouse` binary,
the real SQLite file it writes."""
import json
import os
import sqlite3
import subprocess
from pathlib import Path

import pytest

BIN = os.environ.get("REELHOUSE_BIN") or str(Path(__file__).resolve().parents[2] / ".build/debug/reelhouse")


def ffmpeg(*args: str) -> None:
    subprocess.run(["ffmpeg", "-hide_banner", "-loglevel", "error", "-y", *args], check=True)


def make_clip(path: Path, size: str = "360x640", seconds: float = 3, audio: bool = True,
              source: str = "testsrc2", rate: int = 30, extra: tuple = ()) -> Path:
    """A short H.264 (+AAC) clip from one of ffmpeg's lavfi sources."""
    path.parent.mkdir(parents=True, exist_ok=True)
    # A source that already has options (`color=c=red`) gets the size appended with ':'.
    joiner = ":" if "=" in source else "="
    args = ["-f", "lavfi", "-i", f"{source}{joiner}size={size}:rate={rate}"]
    if audio:
        args += ["-f", "lavfi", "-i", f"sine=frequency=440:sample_rate=48000:duration={seconds}"]
    args += ["-t", str(seconds), "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p"]
    if audio:
        args += ["-c:a", "aac", "-shortest"]
    args += [*extra, str(path)]
    ffmpeg(*args)
    return path


def make_image(path: Path, size: str = "800x600", source: str = "testsrc2") -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    ffmpeg("-f", "lavfi", "-i", f"{source}=size={size}", "-frames:v", "1", str(path))
    return path


def reelhouse(data: Path, *args: str, check: bool = True, env: dict | None = None, timeout: int = 600):
    full_env = {**os.environ, **(env or {})}
    result = subprocess.run([BIN, *args, "--data", str(data)], capture_output=True, text=True,
                            env=full_env, timeout=timeout)
    if check and result.returncode != 0:
        raise AssertionError(f"reelhouse {' '.join(args)} failed ({result.returncode}):\n{result.stderr}\n{result.stdout}")
    return result


def import_json(data: Path, *paths: Path, extra: tuple = (), env: dict | None = None, check: bool = True) -> dict:
    result = reelhouse(data, "import", *map(str, paths), "--json", *extra, env=env, check=check)
    return json.loads(result.stdout)


def db(data: Path) -> sqlite3.Connection:
    connection = sqlite3.connect(data / "reelhouse.sqlite")
    connection.row_factory = sqlite3.Row
    return connection


def post_media(data: Path, post_id: int) -> dict:
    with db(data) as connection:
        row = connection.execute("SELECT media_json FROM posts WHERE id = ?", (post_id,)).fetchone()
    assert row is not None and row["media_json"], f"post {post_id} has no media"
    return json.loads(row["media_json"])


def files_under(folder: Path) -> set[str]:
    return {str(p.relative_to(folder)) for p in folder.rglob("*") if p.is_file()}


@pytest.fixture
def data(tmp_path: Path) -> Path:
    return tmp_path / "data"


def free_port() -> int:
    import socket
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def http(url: str, method: str = "GET", headers: dict | None = None, body: bytes | dict | None = None, timeout: float = 60):
    """One request with urllib: (status, headers, body bytes) for any status."""
    import urllib.error
    import urllib.request
    headers = dict(headers or {})
    if isinstance(body, dict):
        body = json.dumps(body).encode()
        headers.setdefault("Content-Type", "application/json")
    req = urllib.request.Request(url, data=body, method=method, headers=headers)
    try:
        with urllib.request.urlopen(req, timeout=timeout) as response:
            return response.status, dict(response.headers), response.read()
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read()


class RunningServer:
    """`reelhouse serve` on a free port over `data`, started and stopped by the test."""

    def __init__(self, data: Path, env: dict | None = None, args: tuple = ()):
        import re
        import time
        self.data = data
        data.mkdir(parents=True, exist_ok=True)
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.log_path = data.parent / f"server-{self.port}.log"
        self.log = open(self.log_path, "w+")
        self.process = subprocess.Popen(
            [BIN, "serve", "--data", str(data), "--port", str(self.port), "--bcrypt-cost", "4", *args],
            stdout=self.log, stderr=subprocess.STDOUT, env={**os.environ, "REELHOUSE_PRESET": "ultrafast", **(env or {})})
        deadline = time.monotonic() + 600
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise AssertionError("server exited:\n" + self.output())
            try:
                if "listening on" in self.output() and http(self.base + "/health")[0] == 200:
                    break
            except OSError:
                pass
            time.sleep(0.3)
        else:
            self.stop()
            raise AssertionError("server did not come up:\n" + self.output())
        found = re.search(r"password: (\S+)", self.output())
        self.password = found.group(1) if found else None

    def output(self) -> str:
        self.log.flush()
        return self.log_path.read_text()

    def key(self, user: str = "owner") -> str:
        return reelhouse(self.data, "key", "create", "--user", user).stdout.strip()

    def add_user(self, name: str, role: str = "member") -> str:
        """Creates the user and returns an API key for it."""
        subprocess.run([BIN, "user", "add", name, "--role", role, "--data", str(self.data)], input="a-long-password-123\n",
                       capture_output=True, text=True, check=True)
        return self.key(name)

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.process.kill()
        self.log.close()

    def rss_kb(self) -> int:
        for line in Path(f"/proc/{self.process.pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
        return 0


MEASUREMENTS: list[str] = []


def record_measurement(line: str) -> None:
    """A figure a test measured (never asserted tightly), shown at the end of the run's log."""
    MEASUREMENTS.append(line)


def pytest_terminal_summary(terminalreporter):
    if MEASUREMENTS:
        terminalreporter.section("measurements")
        for line in MEASUREMENTS:
            terminalreporter.write_line(line)
