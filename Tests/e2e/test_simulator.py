"""The feed simulator (scripts/simulate_feed.py), small and seeded, against the real binary: its
simulated people watch each feed mode through the real API, and For You has to earn more long
views than shuffle without collapsing a session into one tag (issue 16's goal)."""
import importlib.util
from pathlib import Path

import pytest

from conftest import LiveServer, record_measurement
from pykit.cli import BIN

ROOT = Path(__file__).resolve().parents[2]
_spec = importlib.util.spec_from_file_location("simulate_feed", ROOT / "scripts/simulate_feed.py")
simulate_feed = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(simulate_feed)

# The goals, with the margins a small seeded run needs: the server's own randomness
# (shuffle keys, exploration) moves the rates by a few percent between runs, so For You must
# reach 90 % of the 1.5× goal; a session's top tag may exceed 40 % by at most one impression.
LONG_VIEW_GOAL, LONG_VIEW_MARGIN = 1.5, 0.9
TAG_SHARE_GOAL = 0.40


@pytest.mark.sqlite_only("bench-seed writes the synthetic library into SQLite only")
def test_for_you_earns_more_long_views_than_shuffle_without_collapsing_into_one_tag(tmp_path):
    config = simulate_feed.SMALL
    data = tmp_path / "data"
    owner_key, keys = simulate_feed.prepare_data(BIN, data, config)
    server = LiveServer(data, args=simulate_feed.SERVE_ARGS)
    try:
        summary = simulate_feed.simulate(server.url, owner_key, keys, config, log=record_measurement)
    finally:
        server.stop()
    table = simulate_feed.report(summary)
    for line in table.splitlines():
        record_measurement(line)

    sessions = config.users_per_mode * config.sessions
    for mode in ("shuffle", "for_you"):
        # An endless feed: every session ran its full length.
        assert summary[mode]["sessions"] == sessions and summary[mode]["impressions"] == sessions * config.session_length, table
    for_you, shuffle = summary["for_you"], summary["shuffle"]
    assert for_you["reasons"], "For You items carry a reason_kind\n" + table
    assert shuffle["long_view_rate"] > 0, table
    ratio = for_you["long_view_rate"] / shuffle["long_view_rate"]
    assert ratio >= LONG_VIEW_GOAL * LONG_VIEW_MARGIN, f"For You ÷ shuffle long-view rate is {ratio:.2f}\n{table}"
    assert for_you["top_tag_share_mean"] <= TAG_SHARE_GOAL, table
    assert for_you["top_tag_share_max"] <= TAG_SHARE_GOAL + 1 / config.session_length + 1e-9, table
