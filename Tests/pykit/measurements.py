"""Figures a test measured (never asserted tightly), printed at the end of the run's log.

A figure travels on the test's report (`user_properties`), so the run's summary shows it
also when pytest-xdist's workers ran the test: the summary is the controller's, and reports
are what workers send it. Each suite registers this module as a plugin (pykit/plugins.py)."""
import pytest

_pending: list[str] = []
_shown: list[str] = []
KEY = "measurement"


def record_measurement(line: str) -> None:
    _pending.append(line)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    if call.when == "teardown" and _pending:
        outcome.get_result().user_properties.extend((KEY, line) for line in _pending)
        _pending.clear()


def pytest_runtest_logreport(report):
    _shown.extend(value for key, value in report.user_properties if key == KEY)


def pytest_terminal_summary(terminalreporter):
    if _shown:
        terminalreporter.section("measurements")
        for line in _shown:
            terminalreporter.write_line(line)
