#!/usr/bin/env python3
"""Short-video feed simulator (issue 16): seeded users with latent tastes over tags and
uploaders watch the feed of a REAL `reelhouse serve` through the real API (GET /api/v1/feed,
POST /api/v1/events) in each mode — shuffle, latest, for_you — and the long-view rate, skip
rate and tag concentration of their sessions are reported per mode.

The user model is fixed here, before any result is looked at, and is the same for every mode:

- Library: posts from `bench-seed` (lengths log-uniform 5–60 s, uploader i % U), tagged through
  the API: tag popularity is Zipf-like, each uploader has two home topics most of its posts
  carry, a post has 1–3 tags.
- A user likes 3 tags (0.6–1.0), dislikes 2 (−0.6), is indifferent to the rest (±0.15), likes
  3 uploaders (+0.4) and has a personal bias (±0.15). A post's appeal is 0.7 × the best and
  0.3 × the mean of its tags' interest, plus the uploader's, plus noise N(0, 0.3).
- Boredom: each earlier impression of a tag in the same session lowers interest in it by 0.08
  (at most 0.6). Novelty: +0.1 when the post has a tag not yet seen this session.
- Watching: the person leaves after an exponential time with mean 4 s × e^(2.2 × appeal)
  (a neutral post ≈ 4 s, a loved one ≈ 30 s); leaving within 2 s is a skip. A finished post
  loops again with probability min(0.5, 0.25 × appeal), at most 5 times.
- A long view is KuaiRand's: a complete watch of a post ≤ 18 s, or ≥ 18 s watched of a longer
  one. A long view is liked with probability 0.1 + 0.3 × clamp(appeal, 0, 1).

Every simulated user gets a twin with the same taste and the same random stream in each mode
(an A/B/C test); all warm up for two sessions in shuffle (so For You has signals), then run
their sessions in their mode, the modes interleaved session by session.

`simulate_feed.py` runs the small configuration (the test's), `--large` the benchmark's; the
binary is REELHOUSE_BIN (default .build/release/reelhouse). Goal from the issue: For You's
long-view rate ≥ 1.5× shuffle's, and no tag above 40 % of a session's impressions."""
import argparse
import http.client
import json
import math
import os
import random
import re
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from collections import Counter
from dataclasses import dataclass, field, replace
from datetime import datetime, timezone
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "Tests"))
from pykit.ports import free_port  # noqa: E402

MODES = ("shuffle", "latest", "for_you")
TOPICS = [
    "cooking", "cats", "dogs", "travel", "fitness", "music", "dance", "comedy", "gaming", "art", "science", "fashion",
    "cars", "football", "diy", "gardening", "makeup", "history", "tech", "nature", "skate", "surf", "baking", "coffee",
    "books", "movies", "anime", "yoga", "hiking", "pranks", "magic", "lego", "chess", "birds", "space", "trains",
    "pottery", "knitting", "running", "climbing", "fishing", "camping", "wine", "tea", "horses", "sneakers", "guitar",
    "piano", "drawing", "photography", "interiors", "architecture", "maths", "languages", "parenting", "pets-exotic",
    "street-food", "vegan", "bbq", "cycling",
]


@dataclass(frozen=True)
class Config:
    seed: int = 16
    posts: int = 800
    tags: int = 30
    uploaders: int = 60
    durations: str = "5-60"
    users_per_mode: int = 12
    warmup_sessions: int = 2
    sessions: int = 4
    session_length: int = 30
    page_size: int = 10


SMALL = Config()
LARGE = Config(posts=5000, tags=60, uploaders=300, users_per_mode=40, warmup_sessions=2, sessions=6, session_length=40)

# The user model's constants (see the module docstring). Fixed: tuning them to flatter a feed
# would prove nothing.
LIKED_TAGS, DISLIKED_TAGS, LIKED_UPLOADERS = 3, 2, 3
NOISE = 0.3
BOREDOM, BOREDOM_CAP, NOVELTY = 0.08, 0.6, 0.1
STAY_SECONDS, STAY_GAIN = 4.0, 2.2
SKIP_MS, LONG_VIEW_MS = 2000, 18000


# ─── The library ────────────────────────────────────────────────────────────────────────────

@dataclass
class Post:
    id: int
    tags: list[str]
    uploader: str
    duration_ms: int


def zipf_weights(count: int, exponent: float = 0.8) -> list[float]:
    return [1 / (rank + 1) ** exponent for rank in range(count)]


def weighted_distinct(rng: random.Random, items: list, weights: list[float], count: int) -> list:
    chosen, pool, pool_weights = [], list(items), list(weights)
    for _ in range(min(count, len(pool))):
        index = rng.choices(range(len(pool)), pool_weights)[0]
        chosen.append(pool.pop(index))
        pool_weights.pop(index)
    return chosen


class LibraryModel:
    """Which tags each post gets: uploaders have home topics, topics have Zipf popularity."""

    def __init__(self, config: Config):
        self.rng = random.Random(f"{config.seed}:library")
        self.tags = TOPICS[:config.tags]
        self.weights = zipf_weights(len(self.tags))
        self.home = {u: weighted_distinct(self.rng, self.tags, self.weights, 2) for u in range(config.uploaders)}

    def tags_for(self, uploader_index: int) -> list[str]:
        home = self.home[uploader_index % len(self.home)]
        count = self.rng.choices((1, 2, 3), (0.3, 0.5, 0.2))[0]
        tags = [self.rng.choice(home) if self.rng.random() < 0.85 else self.popular_tag()]
        while len(tags) < count:
            tag = self.rng.choice(home) if self.rng.random() < 0.5 else self.popular_tag()
            if tag not in tags:
                tags.append(tag)
        return tags

    def popular_tag(self) -> str:
        return self.rng.choices(self.tags, self.weights)[0]


def uploader_index(name: str | None) -> int:
    found = re.search(r"(\d+)$", name or "")
    return int(found.group(1)) if found else 0


# ─── The people ─────────────────────────────────────────────────────────────────────────────

@dataclass
class Taste:
    tags: dict[str, float]
    uploaders: dict[str, float]
    bias: float


def make_taste(config: Config, index: int) -> Taste:
    rng = random.Random(f"{config.seed}:taste:{index}")
    tags = TOPICS[:config.tags]
    # People's interests lean to popular topics, less steeply than the library does.
    liked = weighted_distinct(rng, tags, [w ** 0.5 for w in zipf_weights(len(tags))], LIKED_TAGS)
    taste = {tag: rng.gauss(0, 0.15) for tag in tags}
    for tag in liked:
        taste[tag] = rng.uniform(0.6, 1.0)
    for tag in rng.sample([t for t in tags if t not in liked], DISLIKED_TAGS):
        taste[tag] = -0.6
    uploaders = {f"Uploader {u}": 0.4 for u in rng.sample(range(config.uploaders), LIKED_UPLOADERS)}
    return Taste(taste, uploaders, rng.gauss(0, 0.15))


@dataclass
class Watch:
    watched_ms: int
    duration_ms: int
    loops: int
    long_view: bool
    skip: bool
    liked: bool


def is_long_view(watched_ms: int, duration_ms: int) -> bool:
    if duration_ms <= LONG_VIEW_MS:
        return watched_ms >= duration_ms - 250
    return watched_ms >= LONG_VIEW_MS


class Viewer:
    """One simulated person: a taste, a random stream, and the session's boredom."""

    def __init__(self, taste: Taste, rng: random.Random):
        self.taste = taste
        self.rng = rng
        self.session_tags: Counter = Counter()

    def likes_any(self, post: Post) -> bool:
        return any(self.taste.tags.get(t, 0.0) >= 0.6 for t in post.tags)

    def start_session(self) -> None:
        self.session_tags = Counter()

    def appeal(self, post: Post) -> float:
        interest = [self.taste.tags.get(t, 0.0) - min(BOREDOM_CAP, BOREDOM * self.session_tags[t]) for t in post.tags] or [0.0]
        novelty = NOVELTY if any(self.session_tags[t] == 0 for t in post.tags) else 0.0
        return (0.7 * max(interest) + 0.3 * statistics.fmean(interest) + novelty
                + self.taste.uploaders.get(post.uploader, 0.0) + self.taste.bias + self.rng.gauss(0, NOISE))

    def watch(self, post: Post) -> Watch:
        appeal = self.appeal(post)
        self.session_tags.update(post.tags)
        stay_ms = self.rng.expovariate(1 / (STAY_SECONDS * math.exp(STAY_GAIN * appeal))) * 1000
        duration = post.duration_ms
        loops = 0
        if stay_ms >= duration:
            while loops < 5 and self.rng.random() < min(0.5, 0.25 * max(appeal, 0.0)):
                loops += 1
            watched = duration * (1 + loops)
        else:
            watched = int(stay_ms)
        long_view = is_long_view(watched, duration)
        liked = long_view and self.rng.random() < 0.1 + 0.3 * min(1.0, max(0.0, appeal))
        return Watch(watched, duration, loops, long_view, watched < SKIP_MS, liked)


# ─── The server, through its API ────────────────────────────────────────────────────────────

class API:
    """Keep-alive JSON requests to the server with one credential; waits out 429s."""

    def __init__(self, base: str, key: str):
        self.host, self.port = re.match(r"http://([^:/]+):(\d+)", base).groups()
        self.key = key
        self.connection: http.client.HTTPConnection | None = None
        self.requests = 0

    def call(self, method: str, path: str, body: dict | None = None) -> tuple[int, dict]:
        data = json.dumps(body).encode() if body is not None else None
        headers = {"api-key": self.key, "Accept": "application/json"}
        if data is not None:
            headers["Content-Type"] = "application/json"
        for attempt in range(20):
            try:
                if self.connection is None:
                    self.connection = http.client.HTTPConnection(self.host, int(self.port), timeout=120)
                self.connection.request(method, path, body=data, headers=headers)
                response = self.connection.getresponse()
                raw = response.read()
            except (ConnectionError, http.client.HTTPException, socket.timeout):
                self.connection = None
                time.sleep(0.2 * (attempt + 1))
                continue
            self.requests += 1
            if response.status == 429:
                time.sleep(float(response.getheader("Retry-After") or 1))
                continue
            return response.status, (json.loads(raw) if raw else {})
        raise RuntimeError(f"{method} {path}: no answer after 20 attempts")

    def ok(self, method: str, path: str, body: dict | None = None) -> dict:
        status, answer = self.call(method, path, body)
        if status >= 300:
            raise RuntimeError(f"{method} {path} → {status}: {answer}")
        return answer


def now_iso() -> str:
    return datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3] + "Z"


def event(kind: str, post_id: int, **extra) -> dict:
    return {"event_id": str(uuid.uuid4()), "type": kind, "post_id": post_id, "at": now_iso(), **extra}


def list_library(owner: API, expected: int) -> list[dict]:
    """Every post once, by paging the owner's shuffle (every post before any repeats)."""
    found: dict[int, dict] = {}
    cursor = ""
    for _ in range(expected // 50 + 20):
        page = owner.ok("GET", f"/api/v1/feed?mode=shuffle&limit=50{cursor}")
        for item in page["items"]:
            found.setdefault(item["id"], item)
        if len(found) >= expected or not page.get("next_cursor"):
            break
        cursor = f"&cursor={page['next_cursor']}"
    return list(found.values())


def tag_library(owner: API, config: Config) -> dict[str, int]:
    """Tags every post through PUT /api/v1/videos/{id}; returns how many posts carry each tag."""
    model = LibraryModel(config)
    posts = sorted(list_library(owner, config.posts), key=lambda item: item["id"])
    if len(posts) < config.posts:
        raise RuntimeError(f"the feed listed {len(posts)} of {config.posts} posts")
    counts: Counter = Counter()
    for item in posts:
        tags = model.tags_for(uploader_index(item.get("uploader")))
        owner.ok("PUT", f"/api/v1/videos/{item['id']}", {"tags": tags})
        counts.update(tags)
    return dict(counts)


# ─── Sessions and what they measure ─────────────────────────────────────────────────────────

@dataclass
class SessionStats:
    impressions: int = 0
    long_views: int = 0
    skips: int = 0
    likes: int = 0
    watched_ms: int = 0
    tags: Counter = field(default_factory=Counter)
    reasons: Counter = field(default_factory=Counter)
    reason_long_views: Counter = field(default_factory=Counter)
    # Diagnostics (not goals): how often the feed hit one of the person's liked tags, and how
    # long the posts it chose were.
    liked_tag_hits: int = 0
    liked_tag_long_views: int = 0
    duration_ms: int = 0

    def add(self, post: Post, watch: Watch, reason: str | None, liked_tag: bool) -> None:
        self.impressions += 1
        self.long_views += watch.long_view
        self.skips += watch.skip
        self.likes += watch.liked
        self.watched_ms += watch.watched_ms
        self.duration_ms += post.duration_ms
        self.liked_tag_hits += liked_tag
        self.liked_tag_long_views += liked_tag and watch.long_view
        self.tags.update(set(post.tags))
        if reason:
            self.reasons[reason] += 1
            self.reason_long_views[reason] += watch.long_view

    @property
    def top_tag_share(self) -> float:
        return max(self.tags.values()) / self.impressions if self.tags and self.impressions else 0.0


def post_from(item: dict) -> Post:
    duration = item.get("duration") or 1.0
    return Post(item["id"], [t["name"] for t in item.get("tags", [])], item.get("uploader") or item.get("username") or "",
                max(1, int(round(duration * 1000))))


def events_for(post: Post, watch: Watch) -> list[dict]:
    events = [event("impression", post.id)]
    if watch.skip:
        events.append(event("skip", post.id, watched_ms=watch.watched_ms))
    else:
        events.append(event("view", post.id, watched_ms=watch.watched_ms, duration_ms=watch.duration_ms, loops=watch.loops))
    if watch.liked:
        events.append(event("like", post.id))
    return events


def send_events(api: API, events: list[dict]) -> None:
    for start in range(0, len(events), 500):
        api.ok("POST", "/api/v1/events", {"events": events[start:start + 500]})


def run_session(api: API, viewer: Viewer, mode: str, config: Config) -> SessionStats:
    """One session: pages of the feed in `mode`, each item watched, events sent in a batch
    before the next page is asked for (as the web client flushes when it requests a page)."""
    viewer.start_session()
    stats, cursor, pending = SessionStats(), "", []
    while stats.impressions < config.session_length:
        send_events(api, pending)
        pending = []
        page = api.ok("GET", f"/api/v1/feed?mode={mode}&limit={config.page_size}{cursor}")
        for item in page["items"]:
            if stats.impressions >= config.session_length:
                break
            post = post_from(item)
            watch = viewer.watch(post)
            pending += events_for(post, watch)
            stats.add(post, watch, item.get("reason_kind"), viewer.likes_any(post))
        if not page["items"] or not page.get("next_cursor"):
            break
        cursor = f"&cursor={page['next_cursor']}"
    send_events(api, pending)
    return stats


@dataclass
class SimUser:
    name: str
    key: str
    mode: str
    viewer: Viewer
    api: API | None = None


def make_users(config: Config, keys: dict[str, str]) -> list[SimUser]:
    users = []
    for index in range(config.users_per_mode):
        taste = make_taste(config, index)
        for mode in MODES:
            name = user_name(index, mode)
            # Twins: the same taste and the same random stream in every mode.
            users.append(SimUser(name, keys[name], mode, Viewer(taste, random.Random(f"{config.seed}:behaviour:{index}"))))
    return users


def user_name(index: int, mode: str) -> str:
    return f"sim{index:03d}-{mode.replace('_', '')}"


def wait_for_neighbours(owner: API, since: float, timeout: float = 180) -> None:
    """Until a round of the recs.neighbors job that started after `since` (the warm-up's end)
    has finished: its table is built from the warm-up's events. A fixed wait of two refresh
    periods was not always enough on a loaded machine (For You then ran on older neighbours, and
    a fresh-clone CI measured it at 1.32× shuffle). The recurring job is one row: a finished
    round is queued again, keeping its `started_at` (whole seconds, so the round must start in
    a later second than `since`)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for job in owner.ok("GET", "/api/v1/jobs?kind=recs.neighbors&limit=5")["items"]:
            started = job.get("started_at")
            if started and job["state"] in ("queued", "succeeded") \
                    and datetime.fromisoformat(started.replace("Z", "+00:00")).timestamp() >= math.ceil(since):
                return
        time.sleep(0.25)
    raise RuntimeError(f"the recs.neighbors job did not finish a round in {timeout:.0f} s")


def simulate(base: str, owner_key: str, keys: dict[str, str], config: Config, log=print) -> dict:
    """Tags the library, warms every user up in shuffle, then runs the measured sessions."""
    owner = API(base, owner_key)
    started = time.monotonic()
    tag_counts = tag_library(owner, config)
    log(f"  tagged {config.posts} posts in {time.monotonic() - started:.1f} s; the most common tag is on "
        f"{max(tag_counts.values()) / config.posts:.0%} of posts")
    users = make_users(config, keys)
    for user in users:
        user.api = API(base, user.key)
    started = time.monotonic()
    for _ in range(config.warmup_sessions):
        for user in users:
            run_session(user.api, user.viewer, "shuffle", config)
    log(f"  warm-up: {config.warmup_sessions} shuffle sessions per user in {time.monotonic() - started:.1f} s")
    started = time.monotonic()
    wait_for_neighbours(owner, since=time.time())
    log(f"  post neighbours rebuilt from the warm-up's events in {time.monotonic() - started:.1f} s")
    started = time.monotonic()
    sessions: dict[str, list[SessionStats]] = {mode: [] for mode in MODES}
    for _ in range(config.sessions):
        for user in users:
            sessions[user.mode].append(run_session(user.api, user.viewer, user.mode, config))
    requests = sum(u.api.requests for u in users)
    log(f"  measured: {config.sessions} sessions × {len(users)} users in {time.monotonic() - started:.1f} s "
        f"({requests} requests in all)")
    return summarize(sessions)


def summarize(sessions: dict[str, list[SessionStats]]) -> dict:
    summary = {}
    for mode, runs in sessions.items():
        impressions = sum(s.impressions for s in runs)
        shares = [s.top_tag_share for s in runs if s.impressions]
        reasons = sum((s.reasons for s in runs), Counter())
        reason_long_views = sum((s.reason_long_views for s in runs), Counter())
        summary[mode] = {
            "sessions": len(runs),
            "impressions": impressions,
            "long_view_rate": sum(s.long_views for s in runs) / impressions if impressions else 0.0,
            "skip_rate": sum(s.skips for s in runs) / impressions if impressions else 0.0,
            "like_rate": sum(s.likes for s in runs) / impressions if impressions else 0.0,
            "watch_seconds_per_impression": sum(s.watched_ms for s in runs) / impressions / 1000 if impressions else 0.0,
            "top_tag_share_max": max(shares, default=0.0),
            "top_tag_share_mean": statistics.fmean(shares) if shares else 0.0,
            "reasons": dict(reasons.most_common()),
            "long_view_rate_by_reason": {k: reason_long_views[k] / n for k, n in reasons.most_common()},
            "liked_tag_rate": sum(s.liked_tag_hits for s in runs) / impressions if impressions else 0.0,
            "liked_tag_long_view_rate": (sum(s.liked_tag_long_views for s in runs) / hits
                                         if (hits := sum(s.liked_tag_hits for s in runs)) else 0.0),
            "mean_duration_seconds": sum(s.duration_ms for s in runs) / impressions / 1000 if impressions else 0.0,
        }
    return summary


def report(summary: dict) -> str:
    lines = [f"  {'mode':<8} {'sessions':>8} {'impr.':>6} {'long view':>9} {'skip':>6} {'like':>6} {'s/impr.':>7} "
             f"{'top tag max':>11} {'top tag mean':>12}"]
    for mode in MODES:
        r = summary[mode]
        lines.append(f"  {mode:<8} {r['sessions']:>8} {r['impressions']:>6} {r['long_view_rate']:>9.3f} {r['skip_rate']:>6.3f} "
                     f"{r['like_rate']:>6.3f} {r['watch_seconds_per_impression']:>7.1f} {r['top_tag_share_max']:>11.0%} "
                     f"{r['top_tag_share_mean']:>12.0%}")
    shuffle = summary["shuffle"]["long_view_rate"]
    ratio = summary["for_you"]["long_view_rate"] / shuffle if shuffle else float("inf")
    lines.append(f"  for_you ÷ shuffle long-view rate = {ratio:.2f}   (goal ≥ 1.5); for_you's top tag share: max "
                 f"{summary['for_you']['top_tag_share_max']:.0%}, mean {summary['for_you']['top_tag_share_mean']:.0%} (goal ≤ 40 %)")
    lines.append("  diagnostics — impressions carrying a liked tag: " + ", ".join(
        f"{mode} {summary[mode]['liked_tag_rate']:.0%} (long views {summary[mode]['liked_tag_long_view_rate']:.2f})"
        for mode in MODES) + "; mean post length: " + ", ".join(
        f"{mode} {summary[mode]['mean_duration_seconds']:.1f} s" for mode in MODES))
    if summary["for_you"]["reasons"]:
        lines.append("  for_you reasons (impressions, long-view rate): " + ", ".join(
            f"{k} {v} ({summary['for_you']['long_view_rate_by_reason'][k]:.2f})" for k, v in summary["for_you"]["reasons"].items()))
    return "\n".join(lines)


# ─── Setting up a server of our own ─────────────────────────────────────────────────────────

def cli(binary: str, data: Path, *args: str, stdin: str | None = None) -> str:
    result = subprocess.run([binary, *args, "--data", str(data)], input=stdin, capture_output=True, text=True, timeout=600)
    if result.returncode != 0:
        raise RuntimeError(f"reelhouse {' '.join(args)} failed ({result.returncode}):\n{result.stderr}{result.stdout}")
    return result.stdout


def prepare_data(binary: str, data: Path, config: Config) -> tuple[str, dict[str, str]]:
    """The library (`bench-seed`, untagged) and one member account with an API key per simulated
    user, written before the server starts. Returns the owner's key and each user's."""
    owner_key = cli(binary, data, "bench-seed", "--count", str(config.posts), "--tags", "0",
                    "--uploaders", str(config.uploaders), "--durations", config.durations).strip()
    keys = {}
    for index in range(config.users_per_mode):
        for mode in MODES:
            name = user_name(index, mode)
            cli(binary, data, "user", "add", name, "--bcrypt-cost", "4", stdin="simulated-user-password\n")
            keys[name] = cli(binary, data, "key", "create", "--user", name, "--name", "simulator").strip()
    return owner_key, keys


# `serve` flags for a simulation: requests are not rate-limited per credential (the owner tags
# the whole library at once); events still are, per user, as the contract says. The neighbour
# table is rebuilt every 6 s instead of every 10 minutes, because a simulated day lasts seconds:
# without it For You would run on tags and popularity alone, never on "because you liked …".
NEIGHBOR_REFRESH_MINUTES = 0.1
SERVE_ARGS = ("--bcrypt-cost", "4", "--api-requests-per-minute", "100000000",
              "--neighbor-refresh-minutes", str(NEIGHBOR_REFRESH_MINUTES))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--large", action="store_true", help="the benchmark's size")
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument("--json", action="store_true", help="print the summary as JSON too")
    arguments = parser.parse_args()
    config = LARGE if arguments.large else SMALL
    if arguments.seed is not None:
        config = replace(config, seed=arguments.seed)
    binary = os.environ.get("REELHOUSE_BIN", ".build/release/reelhouse")
    work = Path(tempfile.mkdtemp(prefix="reel-simulate-"))
    print(f"feed simulation ({'large' if arguments.large else 'small'}): {config.posts} posts, {config.tags} tags, "
          f"{config.uploaders} uploaders, {config.users_per_mode} users per mode, {config.sessions} sessions of "
          f"{config.session_length} after {config.warmup_sessions} warm-up sessions, seed {config.seed}", flush=True)
    server = None
    try:
        data = work / "data"
        started = time.monotonic()
        owner_key, keys = prepare_data(binary, data, config)
        print(f"  seeded the library and {len(keys)} users in {time.monotonic() - started:.1f} s", flush=True)
        port = free_port()
        log = open(work / "server.log", "w")
        server = subprocess.Popen([binary, "serve", "--data", str(data), "--port", str(port), *SERVE_ARGS],
                                  stdout=log, stderr=subprocess.STDOUT)
        base = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 120
        while True:
            try:
                if API(base, owner_key).call("GET", "/health")[0] == 200:
                    break
            except RuntimeError:
                pass
            if time.monotonic() > deadline or server.poll() is not None:
                raise RuntimeError("the server did not come up:\n" + (work / "server.log").read_text()[-2000:])
            time.sleep(0.2)
        summary = simulate(base, owner_key, keys, config, log=lambda line: print(line, flush=True))
        print(report(summary), flush=True)
        if arguments.json:
            print(json.dumps(summary, indent=2))
    finally:
        if server is not None:
            server.terminate()
            server.wait(timeout=30)
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
