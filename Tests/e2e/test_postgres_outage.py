"""PostgreSQL restarting under a node (issue 28, "faults"): while the database is down the API
answers 503 with Retry-After (never a 500), `/ready` says the node cannot serve while `/health`
(liveness) still answers, and once PostgreSQL is back the node serves again within 5 s, without
a restart. The cluster is this test's own, so stopping it disturbs no other test."""
import json
import time

from conftest import LiveServer
from pykit import cli, postgres
from pykit.api import http


def test_a_postgresql_restart_is_503_with_retry_after_and_heals_within_5_s(tmp_path):
    cluster = postgres.Cluster()
    try:
        url = cluster.fresh_database()
        data = tmp_path / "data"
        node = LiveServer(data, args=("--bcrypt-cost", "4"), ready_text="listening on", startup_timeout=120,
                          env={"REELHOUSE_DATABASE_URL": url, "REELHOUSE_WORKER": "0", "REELHOUSE_CREDENTIAL_CACHE_SECONDS": "0"})
        try:
            key = cli.run(data, "key", "create", "--user", "owner", env={"REELHOUSE_DATABASE_URL": url}).stdout.strip()
            headers = {"api-key": key}
            assert http(node.url + "/api/v1/feed", headers=headers)[0] == 200
            assert http(node.url + "/ready")[0] == 200

            cluster.stop_server()
            calls = [("GET", "/api/v1/feed", None), ("POST", "/api/v1/videos/1/favorite", None),
                     ("PUT", "/api/v1/videos/1/rating", {"rating": 4}), ("GET", "/api/v1/me", None)]
            for method, path, body in calls:
                started = time.monotonic()
                status, answer_headers, answer = http(node.url + path, method, headers=headers, body=body, timeout=30)
                assert status == 503, f"{method} {path} while PostgreSQL is down: {status} {answer[:300]!r}"
                assert int(answer_headers.get("Retry-After", "0")) >= 1, f"{method} {path}: no Retry-After"
                assert json.loads(answer)["error"]["code"] == "unavailable"
                took = time.monotonic() - started
                assert took < 15, f"{method} {path} took {took:.1f} s to say so"
                print(f"{method} {path} while PostgreSQL is down: 503 in {took:.2f} s")
            status, _, body = http(node.url + "/ready")
            assert status == 503 and json.loads(body)["status"] == "unavailable"
            assert http(node.url + "/health")[0] == 200, "liveness: the process itself is fine"

            cluster.start_server()
            back = time.monotonic()
            while http(node.url + "/api/v1/feed", headers=headers, timeout=10)[0] != 200:
                assert time.monotonic() - back < 5, f"the node did not heal within 5 s of PostgreSQL's return:\n{node.output()[-3000:]}"
                time.sleep(0.1)
            healed = time.monotonic() - back
            assert http(node.url + "/ready")[0] == 200
            assert node.process.poll() is None, "the node healed without a restart"
            print(f"healed {healed:.2f} s after PostgreSQL accepted connections again")
        finally:
            node.stop()
    finally:
        cluster.stop()
