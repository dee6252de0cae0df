"""schemathesis against a live server's /openapi.json: every documented operation is fuzzed
(examples, boundary coverage, random data) and walked through its OpenAPI links (stateful),
signed in and signed out. Goals: no 5xx, no answer the document does not describe, no 2xx
without credentials on a route that needs them."""
import os
import subprocess
import sys
import xml.etree.ElementTree as ElementTree
from pathlib import Path

from e2e.conftest import record_measurement

SCHEMATHESIS = str(Path(sys.executable).parent / "schemathesis")
HOOKS_MODULE = "hooks"
# Bounded so the suite stays well within 3 minutes on two shared cores (about 1.5 min at 15).
MAX_EXAMPLES = os.environ.get("REELHOUSE_FUZZ_EXAMPLES", "15")

# Nothing is left out: the login route is fuzzed too (conftest lifts the per-IP limit; the
# per-account limit still answers 429, which is documented), and so are the media, tus and
# event-stream routes. Revoking a key is fuzzed in its own pass with a throw-away user's key:
# in the main pass it would revoke the very key the run signs in with, and every later answer
# would be a 401 that says nothing about the route it came from.
REVOKE_KEY = "DELETE /api/v1/me/keys/{id}"
EXCLUDED: list[str] = ["--exclude-name", REVOKE_KEY]
# positive_data_acceptance expects 2xx for any schema-valid input, which an id that names no
# post (404) or a job that is not failed (409 on retry) can never give; every other check runs.
CHECKS = ["--checks", "all", "--exclude-checks", "positive_data_acceptance"]


# Reports and full logs stay here after the run (pytest's tmp folders rotate).
REPORTS = Path(os.environ.get("REELHOUSE_API_REPORTS", Path(__file__).resolve().parents[2] / ".build/api-reports"))


def run(server, name, headers=(), signed_out=False, extra=(), selection=tuple(EXCLUDED)):
    REPORTS.mkdir(parents=True, exist_ok=True)
    report = REPORTS / f"{name}.xml"
    command = [SCHEMATHESIS, "--config-file", str(Path(__file__).with_name("schemathesis.toml")), "run", f"{server.base}/openapi.json", *CHECKS, *selection,
               "--max-examples", MAX_EXAMPLES, "--seed", "20261124", "--workers", "1",
               "--request-timeout", "20", "--report", "junit", "--report-junit-path", str(report),
               "--no-color", *extra]
    for header in headers:
        command += ["-H", header]
    env = {**os.environ, "SCHEMATHESIS_HOOKS": HOOKS_MODULE,
           "PYTHONPATH": str(Path(__file__).parent) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    if signed_out:
        env["REELHOUSE_FUZZ_SIGNED_OUT"] = "1"
    # Run inside the reports folder: schemathesis keeps a cache folder in its working directory.
    result = subprocess.run(command, capture_output=True, text=True, env=env, timeout=600, cwd=REPORTS)
    (REPORTS / f"{name}.log").write_text(result.stdout + result.stderr)
    return result, summarize(report)


def summarize(report: Path) -> dict:
    """Operations tested, and the failing ones, from the JUnit report."""
    cases = list(ElementTree.parse(report).getroot().iter("testcase"))
    failing = [case.get("name") for case in cases if case.find("failure") is not None or case.find("error") is not None]
    return {"operations": len(cases), "failing": failing}


def test_signed_in_every_operation_conforms(api_server):
    result, summary = run(api_server, "signed-in", headers=[f"api-key: {api_server.owner_key}"],
                          extra=["--phases", "examples,coverage,fuzzing,stateful"])
    record_measurement(f"schemathesis signed in: {summary['operations']} operations, "
                       f"{len(summary['failing'])} failing {summary['failing']}; exit {result.returncode}")
    assert summary["operations"] >= 40, result.stdout[-3000:]
    assert result.returncode == 0, result.stdout[-12000:]


def test_revoking_keys_conforms(api_server):
    disposable = api_server.add_user("disposable")
    result, summary = run(api_server, "revoke-key", headers=[f"api-key: {disposable}"],
                          selection=("--include-name", REVOKE_KEY), extra=["--phases", "examples,coverage,fuzzing"])
    record_measurement(f"schemathesis key revocation: {summary['operations']} operations, "
                       f"{len(summary['failing'])} failing {summary['failing']}; exit {result.returncode}")
    assert summary["operations"] == 1, result.stdout[-3000:]
    assert result.returncode == 0, result.stdout[-12000:]


def test_signed_out_no_operation_succeeds_without_credentials(api_server):
    result, summary = run(api_server, "signed-out", signed_out=True,
                          extra=["--phases", "examples,coverage,fuzzing"])
    record_measurement(f"schemathesis signed out: {summary['operations']} operations, "
                       f"{len(summary['failing'])} failing {summary['failing']}; exit {result.returncode}")
    assert summary["operations"] >= 40, result.stdout[-3000:]
    assert result.returncode == 0, result.stdout[-12000:]
