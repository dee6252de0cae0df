"""The `reelhouse` binary under test: REELHOUSE_BIN, or this checkout's debug build."""
import os
import subprocess
from pathlib import Path

from . import ROOT, TEST_ENVIRONMENT
from .postgres import library_environment

BIN = os.environ.get("REELHOUSE_BIN") or str(ROOT / ".build/debug/reelhouse")


def run(data: Path, *args: str, stdin: str | None = None, check: bool = True, env: dict | None = None,
        timeout: int = 600) -> subprocess.CompletedProcess:
    """`reelhouse ARGS --data DATA`; a non-zero exit fails the test (with both streams) unless
    check is off."""
    result = subprocess.run([BIN, *args, "--data", str(data)], input=stdin, capture_output=True, text=True,
                            env={**os.environ, **TEST_ENVIRONMENT, **library_environment(data), **(env or {})}, timeout=timeout)
    if check and result.returncode != 0:
        raise AssertionError(f"reelhouse {' '.join(args)} failed ({result.returncode}):\n{result.stderr}\n{result.stdout}")
    return result
