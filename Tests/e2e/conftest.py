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
