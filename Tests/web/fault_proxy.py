"""An HTTP/1.1 proxy for the web tests that sits between the browser and `reelhouse serve` and
misbehaves on purpose: it forwards every request, except the ones a rule picks, which it answers
with a status of the test's choice (a 503 with a Retry-After, a 403 …), drops (the connection closes before any answer), cuts (the
body breaks off half way) or stalls (no answer at all until the browser gives up on it).

Every request is logged with its path, when it came, what the proxy did and when the answer was
complete, so a test can say which request was retried and how long recovery took. It runs its
own asyncio loop on a thread; each answer closes its connection (simple, and plenty fast on
127.0.0.1)."""
import asyncio
import re
import threading
import time
from dataclasses import dataclass, field


def without_connection_headers(lines: list[str]) -> list[str]:
    """Header lines without Connection and Keep-Alive: each answer here closes its connection."""
    return [line for line in lines if not line.lower().startswith(("connection:", "keep-alive:"))]


@dataclass
class Rule:
    pattern: re.Pattern
    action: str            # a status ('503', '429', '403' …) | 'drop' | 'cut' | 'stall'
    hits: set[int]         # which matching requests (1 = the first) are answered badly
    retry_after: str | None = "1"
    seen: int = 0


@dataclass
class Entry:
    path: str
    action: str            # 'forward' or a rule's action
    started: float         # time.monotonic() when the request arrived
    finished: float | None = None
    status: int | None = None


@dataclass
class FaultProxy:
    upstream_port: int
    rules: list[Rule] = field(default_factory=list)
    log: list[Entry] = field(default_factory=list)

    def start(self) -> "FaultProxy":
        self.lock = threading.Lock()
        self.loop = asyncio.new_event_loop()
        ready = threading.Event()

        async def serve():
            self.server = await asyncio.start_server(self.handle, "127.0.0.1", 0)
            self.port = self.server.sockets[0].getsockname()[1]
            ready.set()
            async with self.server:
                await self.server.serve_forever()

        self.thread = threading.Thread(target=lambda: self.loop.run_until_complete(self._run(serve)), daemon=True)
        self.thread.start()
        if not ready.wait(10):
            raise AssertionError("the fault proxy did not start")
        self.url = f"http://127.0.0.1:{self.port}"
        return self

    async def _run(self, serve):
        try:
            await serve()
        except asyncio.CancelledError:
            pass

    def stop(self) -> None:
        def shutdown():
            self.server.close()
            for task in asyncio.all_tasks(self.loop):
                task.cancel()
        self.loop.call_soon_threadsafe(shutdown)
        self.thread.join(10)

    def fail(self, pattern: str, action: str, hits=(1,), retry_after: str | None = "1") -> None:
        """Answers the requests whose path matches `pattern` (a regex) with `action`; `hits`
        counts matching requests from 1 (a range or set for several)."""
        with self.lock:
            self.rules.append(Rule(re.compile(pattern), action, set(hits), retry_after))

    def requests(self, pattern: str) -> list[Entry]:
        with self.lock:
            return [entry for entry in self.log if re.search(pattern, entry.path)]

    def _choose(self, path: str) -> tuple[str, Rule | None]:
        with self.lock:
            for rule in self.rules:
                if rule.pattern.search(path):
                    rule.seen += 1
                    if rule.seen in rule.hits:
                        return rule.action, rule
            return "forward", None

    async def handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            head = await reader.readuntil(b"\r\n\r\n")
            request_line, *header_lines = head.decode("latin-1").split("\r\n")
            method, target, _ = request_line.split(" ", 2)
            headers = [line for line in header_lines if line]
            length = next((int(line.split(":", 1)[1]) for line in headers if line.lower().startswith("content-length:")), 0)
            body = await reader.readexactly(length) if length else b""
            path = target.split("?", 1)[0]
            action, rule = self._choose(path)
            entry = Entry(path=path, action=action, started=time.monotonic())
            with self.lock:
                self.log.append(entry)
            if action == "stall":
                await reader.read()  # until the browser closes the connection
                return
            if action == "drop":
                writer.transport.abort()
                return
            if action.isdigit():
                extra = f"Retry-After: {rule.retry_after}\r\n" if rule.retry_after is not None else ""
                writer.write(f"HTTP/1.1 {action} Injected\r\n{extra}Content-Length: 0\r\nConnection: close\r\n\r\n".encode())
                await writer.drain()
                entry.status, entry.finished = int(action), time.monotonic()
                return
            status, response = await self.forward(method, target, headers, body)
            if action == "cut":
                header_end = response.index(b"\r\n\r\n") + 4
                writer.write(response[: header_end + (len(response) - header_end) // 2])
                await writer.drain()
                writer.transport.abort()
                return
            writer.write(response)
            await writer.drain()
            entry.status, entry.finished = status, time.monotonic()
        except (asyncio.IncompleteReadError, ConnectionError, ValueError):
            pass
        finally:
            writer.close()

    async def forward(self, method: str, target: str, headers: list[str], body: bytes) -> tuple[int, bytes]:
        """The upstream's whole answer, re-headed to close the connection after it."""
        upstream_reader, upstream_writer = await asyncio.open_connection("127.0.0.1", self.upstream_port)
        kept = without_connection_headers(headers)
        head = "".join(f"{line}\r\n" for line in [f"{method} {target} HTTP/1.1", *kept, "Connection: close"]) + "\r\n"
        upstream_writer.write(head.encode("latin-1") + body)
        await upstream_writer.drain()
        response = await upstream_reader.read()
        upstream_writer.close()
        head_end = response.index(b"\r\n\r\n")
        status_line, *response_headers = response[:head_end].decode("latin-1").split("\r\n")
        status = int(status_line.split(" ")[1])
        new_head = "\r\n".join([status_line, *without_connection_headers(response_headers), "Connection: close"]) + "\r\n\r\n"
        return status, new_head.encode("latin-1") + response[head_end + 4:]
