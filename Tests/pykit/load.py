"""Many keep-alive connections hammering one address from threads: the load of the fault tests
(a node killed under load) and the figures they print. Each connection loops over `plan(n)`,
which says what its n-th request is; every answer is counted, and what a write's `on_ok` keeps
(an acknowledged event id) is the test's to check afterwards."""
import http.client
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Callable


@dataclass
class Request:
    method: str
    path: str
    body: bytes | None = None
    on_ok: Callable[[], None] | None = None


@dataclass
class Tally:
    statuses: Counter = field(default_factory=Counter)
    errors: Counter = field(default_factory=Counter)
    missing_retry_after: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)

    def count(self, status: int | None, error: str | None = None, retry_after: str | None = None) -> None:
        with self.lock:
            if error is not None:
                self.errors[error] += 1
            else:
                self.statuses[status] += 1
                if status in (429, 503) and not retry_after:
                    self.missing_retry_after += 1

    @property
    def total(self) -> int:
        return sum(self.statuses.values()) + sum(self.errors.values())

    @property
    def failed(self) -> int:
        return sum(count for status, count in self.statuses.items() if status >= 500 or status == 429) + sum(self.errors.values())


def hammer(port: int, connections: int, seconds: float, headers: dict, plan: Callable[[int], Request],
           during: Callable[[], None] | None = None, at: float = 0, tally: Tally | None = None,
           until: threading.Event | None = None, timeout: float = 60) -> Tally:
    """`connections` threads for `seconds` (or until `until` is set); `during` runs once, `at`
    seconds in."""
    tally = tally if tally is not None else Tally()
    until = until or threading.Event()
    stop = time.monotonic() + seconds

    def connection_loop(index: int):
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
        n = index
        while time.monotonic() < stop and not until.is_set():
            request = plan(n)
            n += connections
            try:
                connection.request(request.method, request.path, body=request.body, headers=headers)
                response = connection.getresponse()
                response.read()
                tally.count(response.status, retry_after=response.getheader("retry-after"))
                if 200 <= response.status < 300 and request.on_ok:
                    request.on_ok()
                if response.getheader("connection", "").lower() == "close":
                    connection.close()
            except (OSError, http.client.HTTPException) as error:
                tally.count(None, f"{type(error).__name__} {request.method} {request.path.split('?')[0]}")
                connection.close()
        connection.close()

    threads = [threading.Thread(target=connection_loop, args=(index,), daemon=True) for index in range(connections)]
    for thread in threads:
        thread.start()
    if during is not None:
        time.sleep(at)
        during()
    for thread in threads:
        thread.join(timeout=seconds + 120)
    return tally
