"""A live `reelhouse serve` on a free port of 127.0.0.1 over a data folder: started, awaited
until /health answers, and stopped by the test or fixture that owns it."""
import os
import re
import subprocess
import time
from pathlib import Path

from . import TEST_ENVIRONMENT, api, cli
from .cli import BIN
from .ports import free_port
from .postgres import library_environment



class LiveServer:
    """`reelhouse serve --data DATA --port P ARGS` with `env` on top of this process's
    environment; its output goes to `log_path` (default: server-P.log next to the data folder).
    The constructor returns once /health answers 200 (and `ready_text` is in the output, when
    given; a node with no HTTP — `--role worker` — is awaited by `ready_text` alone), and fails
    with the output if the server exits or `startup_timeout` passes first. `port` restarts a node
    where an edge expects it."""

    def __init__(self, data: Path, args: tuple = (), env: dict | None = None, log_path: Path | None = None,
                 startup_timeout: float = 30, ready_text: str | None = None, port: int | None = None,
                 serves_http: bool = True):
        self.data = data
        self.serves_http = serves_http
        data.mkdir(parents=True, exist_ok=True)
        self.port = port or free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log_path = log_path or data.parent / f"server-{self.port}.log"
        self.log = open(self.log_path, "w+")
        self.process = subprocess.Popen(
            [BIN, "serve", "--data", str(data), "--port", str(self.port), *args],
            stdout=self.log, stderr=subprocess.STDOUT, env={**os.environ, **TEST_ENVIRONMENT, **library_environment(data), **(env or {})})
        self._wait_until_ready(startup_timeout, ready_text)

    def _wait_until_ready(self, timeout: float, ready_text: str | None) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise AssertionError(f"reelhouse serve exited ({self.process.returncode}):\n{self.output()}")
            try:
                if (ready_text is None or ready_text in self.output()) and \
                        (not self.serves_http or api.http(self.url + "/health", timeout=1)[0] == 200):
                    return
            except OSError:
                pass
            time.sleep(0.1)
        self.stop()
        raise AssertionError(f"reelhouse serve did not answer /health within {timeout:.0f} s:\n{self.output()}")

    def output(self) -> str:
        if not self.log.closed:
            self.log.flush()
        return self.log_path.read_text()

    def printed_password(self) -> str | None:
        """The one-time password `serve` prints when it creates the owner account (right after
        the address it listens on, so it may trail /health's first answer by a moment)."""
        deadline = time.monotonic() + 5
        output = self.output()
        while "Reelhouse is listening on" not in output and "Reelhouse worker started" not in output and time.monotonic() < deadline:
            time.sleep(0.05)
            output = self.output()
        found = re.search(r"password: (\S+)", output)
        return found.group(1) if found else None

    def key(self, user: str = "owner") -> str:
        """A new API key for `user`."""
        return cli.run(self.data, "key", "create", "--user", user).stdout.strip()

    def add_user(self, name: str, role: str = "member", password: str = "a-long-password-123") -> str:
        """Creates the user and returns an API key for it."""
        cli.run(self.data, "user", "add", name, "--role", role, stdin=password + "\n")
        return self.key(name)

    def rss_kb(self) -> int:
        """The server's resident memory now, in KiB (Linux)."""
        for line in Path(f"/proc/{self.process.pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
        return 0

    def kill(self) -> None:
        """SIGKILL: the node dies mid-whatever, as a crashed machine would."""
        self.process.kill()
        self.process.wait()
        if not self.log.closed:
            self.log.close()

    def stop(self, timeout: float = 30) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        if not self.log.closed:
            self.log.close()
