"""nginx 1.22 in the foreground with the config `reelhouse edge nginx` prints, on a free port of
127.0.0.1: the edge of the tests that put nginx in front of API nodes."""
import http.client
import os
import shutil
import signal
import subprocess
import time
from pathlib import Path

from .cli import BIN
from .server import free_port

NGINX = shutil.which("nginx") or "/usr/sbin/nginx"


class Edge:
    """nginx in the foreground (`daemon off`) with the printed config, on a free port of
    127.0.0.1, its own prefix (pid, logs, temporary files) and cache folder. Stopped by the
    fixture whatever happens; its whole process group is killed if it does not stop."""

    def __init__(self, folder: Path, upstream_port: int, media_root: Path | None, upstreams: list[int] | None = None,
                 binary: str = BIN):
        self.prefix = folder / "prefix"
        self.cache = folder / "cache"
        for path in [self.prefix, self.cache]:
            path.mkdir(parents=True)
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        args = [binary, "edge", "nginx", "--listen", f"127.0.0.1:{self.port}", "--cache-dir", str(self.cache)]
        for port in upstreams or [upstream_port]:
            args += ["--upstream", f"127.0.0.1:{port}"]
        if media_root is not None:
            args += ["--media-root", str(media_root)]
        printed = subprocess.run(args, capture_output=True, text=True, check=True)
        self.config = self.prefix / "nginx.conf"
        self.config.write_text(printed.stdout)
        command = [NGINX, "-c", str(self.config), "-p", f"{self.prefix}/", "-e", "stderr"]
        checked = subprocess.run([*command, "-t"], capture_output=True, text=True)
        assert checked.returncode == 0, checked.stderr
        self.process = subprocess.Popen([*command, "-g", "daemon off;"], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                        start_new_session=True)
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            assert self.process.poll() is None, f"nginx exited: {self.process.stderr.read().decode()}"
            try:
                http.client.HTTPConnection("127.0.0.1", self.port, timeout=1).connect()
                return
            except OSError:
                time.sleep(0.05)
        self.stop()
        raise AssertionError("nginx did not listen within 20 s")

    def get(self, path: str, headers: dict | None = None, method: str = "GET", body: bytes | None = None):
        """One request with the path sent exactly as written (no client-side normalisation)."""
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        try:
            connection.request(method, path, body=body, headers=headers or {})
            response = connection.getresponse()
            return response.status, {k.lower(): v for k, v in response.getheaders()}, response.read()
        finally:
            connection.close()

    def error_log(self) -> str:
        path = self.prefix / "error.log"
        return path.read_text() if path.exists() else ""

    def stop(self):
        if self.process.poll() is None:
            self.process.terminate()  # SIGTERM: nginx's fast shutdown, workers included
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait()
