"""wrk, the HTTP load generator, run once and its report parsed: what every benchmark measures."""
import os
import re
import subprocess
from pathlib import Path


def to_ms(text: str) -> float:
    """wrk's latency figure (`812.00us`, `3.41ms`, `1.20s`) in milliseconds."""
    value, unit = re.match(r"([\d.]+)(us|ms|s)", text).groups()
    return float(value) * {"us": 0.001, "ms": 1.0, "s": 1000.0}[unit]


def run(url: str, *, connections: int | str, seconds: int | str, threads: int = 2, timeout: str = "30s",
        headers: dict | None = None, script: Path | None = None, env: dict | None = None) -> dict:
    """p50 and p99 (ms), req/s, requests and seconds, non-2xx/3xx answers and socket errors.

    `timeout` is generous by default: wrk leaves requests slower than it out of the latency
    figures, which would flatter a slow baseline."""
    args = ["wrk", f"-t{threads}", f"-c{connections}", f"-d{seconds}s", "--timeout", timeout, "--latency"]
    for name, value in (headers or {}).items():
        args += ["-H", f"{name}: {value}"]
    if script:
        args += ["-s", str(script)]
    out = subprocess.run(args + [url], capture_output=True, text=True, check=True, env={**os.environ, **(env or {})}).stdout
    latency = dict(re.findall(r"^\s+(50|99)%\s+(\S+)", out, re.M))
    total = re.search(r"(\d+) requests in ([\d.]+)(ms|s|m)", out)
    non2xx = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    sockets = re.search(r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)", out)
    result = {
        "p50": to_ms(latency["50"]), "p99": to_ms(latency["99"]),
        "rps": float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1)),
        "requests": int(total.group(1)),
        "seconds": float(total.group(2)) * {"ms": 0.001, "s": 1.0, "m": 60.0}[total.group(3)],
        "non2xx": int(non2xx.group(1)) if non2xx else 0,
        "socket_errors": sum(map(int, sockets.groups())) if sockets else 0,
    }
    result["errors"] = result["non2xx"] + result["socket_errors"]
    return result
