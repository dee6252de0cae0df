"""A private PostgreSQL 15 cluster for the Python suites, as Tests/ReelTestSupport/PostgresCluster.swift
starts one for the Swift tests: `initdb` and the server under a temp folder on a free port of
127.0.0.1, as the `postgres` user when the tests run as root (initdb refuses root), started on
first use and stopped when the test process ends. Each caller takes a fresh database from it.

The server is our own child (not daemonized by pg_ctl) started through `setpriv --pdeathsig INT`,
so even a killed pytest stops it (SIGINT is PostgreSQL's fast shutdown). Missing server binaries
fail with what to install; they never skip."""
import atexit
import os
import pwd
import shutil
import subprocess
import tempfile
import time
import uuid
from pathlib import Path

from .ports import free_port

# `REELHOUSE_E2E_DATABASE=postgres` (what `make e2e-postgres` sets): every `reelhouse` the kit
# starts keeps its library in PostgreSQL instead of the data folder's SQLite file.
ON_POSTGRES = os.environ.get("REELHOUSE_E2E_DATABASE", "sqlite") == "postgres"
BIN_DIRECTORY = Path(os.environ.get("REELHOUSE_PG_BIN", "/usr/lib/postgresql/15/bin"))
SUPERUSER = "postgres"



class Cluster:
    def __init__(self, shared_buffers: str = "32MB") -> None:
        """`shared_buffers`: the tests' small default; the feed benchmark gives PostgreSQL a
        realistic cache (SQLite there reads through the OS page cache)."""
        for binary in ("initdb", "postgres", "pg_isready", "psql", "createdb", "dropdb"):
            assert (BIN_DIRECTORY / binary).exists(), \
                f"{BIN_DIRECTORY / binary} not found: the PostgreSQL tests need Debian's PostgreSQL 15 server; " \
                "run `scripts/ensure-deps.sh test` (installs `postgresql`)"
        self.folder = Path(tempfile.mkdtemp(prefix="reelhouse-pg-py-"))
        account = None
        if os.geteuid() == 0:
            try:
                account = pwd.getpwnam(SUPERUSER)
            except KeyError:
                raise AssertionError("no `postgres` user (tests run as root, and initdb refuses root): run scripts/ensure-deps.sh test")
            os.chown(self.folder, account.pw_uid, account.pw_gid)
        self.as_server_user = ["setpriv", f"--reuid={SUPERUSER}", f"--regid={SUPERUSER}", "--init-groups"] if account else []
        data = self.folder / "data"
        # C locale: text sorts by code point, as SQLite's BINARY collation does (and the Swift cluster).
        initdb = subprocess.run([*self.as_server_user, str(BIN_DIRECTORY / "initdb"), "-D", str(data), "-U", SUPERUSER,
                                 "-A", "trust", "--no-sync", "-E", "UTF8", "--locale=C"], capture_output=True, text=True)
        assert initdb.returncode == 0, f"initdb failed:\n{initdb.stdout}\n{initdb.stderr}"
        self.data = data
        self.shared_buffers = shared_buffers
        self.port = free_port()
        self.log_path = self.folder / "server.log"
        atexit.register(self.stop)
        self.start_server()

    def start_server(self) -> None:
        """Starts the server on the cluster's port and waits until it accepts connections."""
        log = open(self.log_path, "a")
        launcher = self.as_server_user or ["setpriv"]
        self.process = subprocess.Popen(
            [*launcher, "--pdeathsig", "INT", "--", str(BIN_DIRECTORY / "postgres"), "-D", str(self.data), "-p", str(self.port),
             "-k", str(self.folder), "-c", "listen_addresses=127.0.0.1", "-c", "fsync=off", "-c", "synchronous_commit=off",
             "-c", "full_page_writes=off", "-c", "max_connections=300", "-c", f"shared_buffers={self.shared_buffers}"],
            stdout=log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 60
        while subprocess.run([str(BIN_DIRECTORY / "pg_isready"), "-q", "-h", "127.0.0.1", "-p", str(self.port)]).returncode != 0:
            assert self.process.poll() is None, f"postgres exited while starting:\n{self.log_path.read_text()[-2000:]}"
            assert time.monotonic() < deadline, f"postgres did not accept connections within 60 s:\n{self.log_path.read_text()[-2000:]}"
            time.sleep(0.05)

    def stop_server(self) -> None:
        """Stops the server (fast shutdown: clients are disconnected) and keeps its data, as a
        restart of PostgreSQL does; `start_server()` brings it back on the same port."""
        if self.process.poll() is None:
            self.process.send_signal(2)
            self.process.wait(timeout=30)

    def url(self, database: str) -> str:
        return f"postgres://{SUPERUSER}@127.0.0.1:{self.port}/{database}"

    def fresh_database(self) -> str:
        """A new empty database; its postgres:// URL."""
        name = "t_" + uuid.uuid4().hex
        self._client("createdb", name)
        return self.url(name)

    def drop(self, url: str) -> None:
        """Drops a database made by `fresh_database`, disconnecting whoever is still connected."""
        self._client("dropdb", "--force", "--if-exists", url.rsplit("/", 1)[1])

    def query(self, url: str, sql: str) -> list[list[str]]:
        """Rows of `sql` on the database at `url`, each a list of column texts (NULL is '')."""
        result = self._client("psql", "-X", "-A", "-t", "-F", "\t", "-v", "ON_ERROR_STOP=1", "-d", url.rsplit("/", 1)[1], "-c", sql)
        return [line.split("\t") for line in result.stdout.splitlines() if line]

    def _client(self, program: str, *args: str) -> subprocess.CompletedProcess:
        result = subprocess.run([str(BIN_DIRECTORY / program), "-h", "127.0.0.1", "-p", str(self.port), "-U", SUPERUSER, *args],
                                capture_output=True, text=True)
        assert result.returncode == 0, f"{program} {' '.join(args)} failed:\n{result.stderr}"
        return result

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(2)  # SIGINT: fast shutdown
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        shutil.rmtree(self.folder, ignore_errors=True)


_cluster: Cluster | None = None


def cluster() -> Cluster:
    """This test process's cluster, started on first use."""
    global _cluster
    if _cluster is None:
        _cluster = Cluster()
    return _cluster


_libraries: dict[Path, str] = {}


def library_environment(data: Path) -> dict:
    """What a `reelhouse` run over `data` needs in its environment for its library: on PostgreSQL
    the URL of a database of its own, fresh the first time this data folder is seen — so, as on
    SQLite, the same folder is the same library and a new folder an empty one. Empty on SQLite."""
    if not ON_POSTGRES:
        return {}
    key = Path(data).resolve()
    if key not in _libraries:
        _libraries[key] = cluster().fresh_database()
    return {"REELHOUSE_DATABASE_URL": _libraries[key]}


def share_library(folder: Path, shared: Path) -> None:
    """Makes `folder` another node's data folder over the library of `shared` (on SQLite the
    caller links the file; here both name the same database)."""
    if ON_POSTGRES:
        _libraries[Path(folder).resolve()] = library_environment(shared)["REELHOUSE_DATABASE_URL"]
