"""The suites' skip policy: a test may skip only because this machine lacks a system dependency
(and then says which, starting its reason with MISSING_DEPENDENCY). Any other skip — a route
"not on this server yet", a backend the test cannot run on — fails the run, so a test never
passes by not running. Tests that do not apply somewhere are deselected instead (see
Tests/e2e/conftest.py's `sqlite_only`), and deselection is counted, not hidden.

Each suite's conftest imports the two hooks below."""
import pytest

MISSING_DEPENDENCY = "missing system dependency:"

_refused: list[str] = []


def skip_for_missing(dependency: str, why: str) -> None:
    """The one allowed skip."""
    pytest.skip(f"{MISSING_DEPENDENCY} {dependency} ({why})")


def pytest_runtest_logreport(report):
    if not report.skipped or getattr(report, "wasxfail", None) is not None:
        return
    longrepr = report.longrepr
    reason = longrepr[2] if isinstance(longrepr, tuple) else str(longrepr)
    reason = reason.removeprefix("Skipped: ")
    if not reason.startswith(MISSING_DEPENDENCY):
        _refused.append(f"{report.nodeid}: {reason}")


def pytest_sessionfinish(session, exitstatus):
    if _refused:
        print("\n── skips that do not name a missing system dependency (each fails the run) ──")
        for line in _refused:
            print(f"  {line}")
        session.exitstatus = pytest.ExitCode.TESTS_FAILED
