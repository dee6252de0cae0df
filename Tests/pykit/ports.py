"""Free TCP ports on 127.0.0.1 for the servers a test starts.

Binding port 0 and releasing it is not enough: the kernel hands out the same range
(`ip_local_port_range`, 32768–60999 by default) as the source ports of outgoing
connections, so between the probe's release and the server's bind, one of the many
connections a test makes (Chromium, an HTTP client, PostgreSQL's) can take it, and the
server fails with "address already in use". Ports below that range are never given to an
outgoing connection, so they stay free once a probe finds them free. Ports already handed
out by this process are not handed out again."""
import random
import socket
from pathlib import Path

LOWEST = 10_000
_handed_out: set[int] = set()


def _ephemeral_start() -> int:
    try:
        return int(Path("/proc/sys/net/ipv4/ip_local_port_range").read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return 32_768


def _is_free(port: int) -> bool:
    with socket.socket() as probe:
        try:
            probe.bind(("127.0.0.1", port))
        except OSError:
            return False
        return True


def free_ports(count: int) -> list[int]:
    """`count` distinct ports that nothing listens on and no outgoing connection will take."""
    upper = _ephemeral_start()
    assert upper - LOWEST > 1_000, f"the ephemeral port range starts at {upper}: no room below it for test servers"
    chosen: list[int] = []
    for _ in range(count * 200):
        if len(chosen) == count:
            break
        port = random.randrange(LOWEST, upper)
        if port in _handed_out or not _is_free(port):
            continue
        _handed_out.add(port)
        chosen.append(port)
    assert len(chosen) == count, f"found only {len(chosen)} of {count} free ports below {upper}"
    return chosen


def free_port() -> int:
    return free_ports(1)[0]
