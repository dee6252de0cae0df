"""nginx 1.22 in the foreground with the config `reelhouse edge nginx` prints, on a free port of
127.0.0.1: the edge of the tests that put nginx in front of API nodes."""
import http.client
import json
import os
import shutil
import signal
import subprocess
import time
from pathlib import Path
from urllib.parse import urljoin

import m3u8

from .cli import BIN
from .server import free_port

NGINX = shutil.which("nginx") or "/usr/sbin/nginx"


class Edge:
    """nginx in the foreground (`daemon off`) with the printed config, on a free port of
    127.0.0.1, its own prefix (pid, logs, temporary files) and cache folder. Stopped by the
    fixture whatever happens; its whole process group is killed if it does not stop."""

    def __init__(self, folder: Path, upstream_port: int, media_root: Path | None, upstreams: list[int] | None = None,
                 binary: str = BIN, data: Path | None = None):
        self.prefix = folder / "prefix"
        self.cache = folder / "cache"
        for path in [self.prefix, self.cache]:
            path.mkdir(parents=True)
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.arguments = [binary, "edge", "nginx", "--listen", f"127.0.0.1:{self.port}", "--cache-dir", str(self.cache)]
        for port in upstreams or [upstream_port]:
            self.arguments += ["--upstream", f"127.0.0.1:{port}"]
        if media_root is not None:
            self.arguments += ["--media-root", str(media_root)]
        if data is not None:  # the API's secret.key: kept answers are tagged with it
            self.arguments += ["--data", str(data)]
        self.config = self.prefix / "nginx.conf"
        self.command = [NGINX, "-c", str(self.config), "-p", f"{self.prefix}/", "-e", "stderr"]
        self.write_config()
        self.process = subprocess.Popen([*self.command, "-g", "daemon off;"], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
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

    def write_config(self):
        """Prints the config again (`reelhouse edge nginx`) and has nginx check it."""
        printed = subprocess.run(self.arguments, capture_output=True, text=True, check=True)
        self.config.write_text(printed.stdout)
        checked = subprocess.run([*self.command, "-t"], capture_output=True, text=True)
        assert checked.returncode == 0, checked.stderr

    def reload(self):
        """The config printed again and nginx reloaded (SIGHUP), as after a secret rotation;
        returns once the new workers answer (the old ones finish their requests and go)."""
        self.write_config()
        workers = set(self.workers())
        os.kill(self.process.pid, signal.SIGHUP)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and (not self.workers() or set(self.workers()) & workers):
            time.sleep(0.05)

    def workers(self) -> list[int]:
        """nginx's worker processes (the children of its master)."""
        children = Path(f"/proc/{self.process.pid}/task/{self.process.pid}/children")
        return [int(pid) for pid in children.read_text().split()] if children.exists() else []

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


def static_nginx(file: Path, work: Path, content_type: str, workers: str = "auto") -> tuple[subprocess.Popen, str]:
    """nginx serving `file`'s folder as plain static files (the benches' baseline: what nginx
    alone does with the same bytes); returns the process and `file`'s URL once it answers. The
    folders on the way must be readable by nginx's unprivileged workers."""
    port = free_port()
    conf = work / "static-nginx.conf"
    conf.write_text(f"""
worker_processes {workers}; daemon off; pid {work}/static.pid; error_log {work}/static-error.log;
events {{ worker_connections 4096; }}
http {{
  access_log off; client_body_temp_path {work}/ct; proxy_temp_path {work}/pt; fastcgi_temp_path {work}/ft;
  uwsgi_temp_path {work}/ut; scgi_temp_path {work}/st;
  server {{ listen 127.0.0.1:{port}; root {file.parent}; location / {{ default_type {content_type}; }} }}
}}""")
    process = subprocess.Popen([NGINX, "-c", str(conf)], stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}/{file.name}"
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        try:
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=1)
            connection.request("GET", f"/{file.name}")
            if connection.getresponse().status == 200:
                return process, url
        except OSError:
            time.sleep(0.1)
    process.kill()
    raise RuntimeError(f"static nginx did not serve {url}: {(work / 'static-error.log').read_text()[-500:]}")


def variant(edge: Edge, item: dict) -> tuple[str, m3u8.M3U8]:
    """The first rendition's playlist URL and contents, through the edge."""
    master_url = item["media"]["master"]
    status, headers, body = edge.get(master_url)
    assert status == 200, body
    master = m3u8.loads(body.decode())
    url = urljoin(master_url, master.playlists[0].uri)
    status, _, body = edge.get(url)
    assert status == 200, body
    return url, m3u8.loads(body.decode())


def play_through(edge: Edge, item: dict, output: Path) -> dict:
    """Plays `item` (a feed or post answer) through the edge as a player would: master → variant →
    key → init → every segment, each segment decrypted on its own (AES-128-CBC, IV = media
    sequence number); writes the clear fMP4 to `output` and returns ffprobe's video stream
    (codec_name, nb_read_frames)."""
    from cryptography.hazmat.primitives import padding
    from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes

    url, playlist = variant(edge, item)
    assert playlist.keys and playlist.keys[-1].method == "AES-128"
    status, _, key = edge.get(urljoin(url, playlist.keys[-1].uri))
    assert status == 200 and len(key) == 16
    status, _, init = edge.get(urljoin(url, playlist.segment_map[0].uri))
    assert status == 200
    clear = bytearray(init)
    for index, segment in enumerate(playlist.segments):
        status, _, encrypted = edge.get(urljoin(url, segment.uri))
        assert status == 200 and len(encrypted) % 16 == 0
        iv = ((playlist.media_sequence or 0) + index).to_bytes(16, "big")
        decryptor = Cipher(algorithms.AES(key), modes.CBC(iv)).decryptor()
        unpadder = padding.PKCS7(128).unpadder()
        plain = unpadder.update(decryptor.update(encrypted) + decryptor.finalize()) + unpadder.finalize()
        assert plain[4:8] in (b"styp", b"moof", b"sidx"), plain[:16]
        clear += plain
    output.write_bytes(bytes(clear))
    probe = subprocess.run(["ffprobe", "-v", "error", "-select_streams", "v:0", "-count_frames", "-show_entries",
                            "stream=nb_read_frames,codec_name", "-of", "json", str(output)], capture_output=True, text=True, check=True)
    return json.loads(probe.stdout)["streams"][0]
