#!/usr/bin/env python3
"""Ladder transcode benchmark: a 30 s 1080×1920 clip through the real pipeline
(`reelhouse import`) against (a) the same ladder typed by hand as one raw ffmpeg command and
(b) one ffmpeg run per rung (PeerTube's way). Prints seconds and ratios; asserts nothing.
Goals from the issue: pipeline ÷ raw ≤ 1.05, pipeline ÷ per-rung ≤ 0.7."""
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

BIN = os.environ.get("REELHOUSE_BIN", ".build/release/reelhouse")
SECONDS = int(os.environ.get("BENCH_SECONDS", "30"))
PRESET = "veryfast"
ROUNDS = int(os.environ.get("BENCH_ROUNDS", "2"))
# (name, width, height, video kbps, audio kbps): the default BitrateTable for a 1080×1920 source.
LADDER = [("240p", 240, 426, 400, 96), ("360p", 360, 640, 800, 96), ("540p", 540, 960, 2000, 128),
          ("720p", 720, 1280, 3000, 128), ("1080p", 1080, 1920, 6000, 128)]


def run(args, **kw):
    subprocess.run(args, check=True, stdout=subprocess.DEVNULL, **kw)


def timed(label, fn):
    start = time.monotonic()
    fn()
    elapsed = time.monotonic() - start
    print(f"  {label:<28} {elapsed:7.2f} s", flush=True)
    return elapsed


def rung_video_args(i, name, w, h, kbps):
    return [f"-b:v:{i}", f"{kbps}k", f"-maxrate:v:{i}", f"{int(kbps * 1.5)}k", f"-bufsize:v:{i}", f"{kbps * 3}k",
            f"-profile:v:{i}", "high", f"-g:v:{i}", "60", f"-keyint_min:v:{i}", "60"]


def raw_one_command(src: Path, out: Path):
    """The ladder as a person would type it: one decode, split, var_stream_map."""
    n = len(LADDER)
    graph = f"[0:v]split={n}" + "".join(f"[s{i}]" for i in range(n)) + ";" + ";".join(
        f"[s{i}]scale={w}:{h},format=yuv420p[v{i}]" for i, (_, w, h, _, _) in enumerate(LADDER))
    args = ["ffmpeg", "-hide_banner", "-loglevel", "error", "-y", "-i", str(src), "-filter_complex", graph]
    for i in range(n):
        args += ["-map", f"[v{i}]", "-map", "0:a:0"]
    args += ["-c:v", "libx264", "-preset", PRESET]
    for i, (name, w, h, kbps, akbps) in enumerate(LADDER):
        args += rung_video_args(i, name, w, h, kbps) + [f"-b:a:{i}", f"{akbps}k"]
    args += ["-sc_threshold", "0", "-force_key_frames", "expr:gte(t,n_forced*2)", "-c:a", "aac", "-ac", "2", "-ar", "48000",
             "-f", "hls", "-hls_time", "2", "-hls_playlist_type", "vod", "-hls_flags", "independent_segments",
             "-hls_segment_type", "fmp4", "-hls_segment_filename", f"{out}/%v/seg_%05d.m4s",
             "-var_stream_map", " ".join(f"v:{i},a:{i},name:{LADDER[i][0]}" for i in range(n)),
             "-master_pl_name", "master.m3u8", f"{out}/%v/index.m3u8"]
    run(args)


def per_rung(src: Path, out: Path):
    for name, w, h, kbps, akbps in LADDER:
        folder = out / name
        folder.mkdir(parents=True, exist_ok=True)
        run(["ffmpeg", "-hide_banner", "-loglevel", "error", "-y", "-i", str(src), "-vf", f"scale={w}:{h},format=yuv420p",
             "-c:v", "libx264", "-preset", PRESET,
             "-b:v", f"{kbps}k", "-maxrate", f"{int(kbps * 1.5)}k", "-bufsize", f"{kbps * 3}k", "-profile:v", "high",
             "-g", "60", "-keyint_min", "60", "-sc_threshold", "0", "-force_key_frames", "expr:gte(t,n_forced*2)",
             "-c:a", "aac", "-b:a", f"{akbps}k", "-ac", "2", "-ar", "48000",
             "-f", "hls", "-hls_time", "2", "-hls_playlist_type", "vod", "-hls_segment_type", "fmp4",
             "-hls_segment_filename", f"{folder}/seg_%05d.m4s", f"{folder}/index.m3u8"])


def main():
    work = Path(tempfile.mkdtemp(prefix="reel-bench-"))
    try:
        src = work / "source.mp4"
        print(f"transcode benchmark: {SECONDS} s 1080×1920 30 fps source, preset {PRESET}, {os.cpu_count()} cores", flush=True)
        run(["ffmpeg", "-hide_banner", "-loglevel", "error", "-y", "-f", "lavfi", "-i", f"testsrc2=size=1080x1920:rate=30:duration={SECONDS}",
             "-f", "lavfi", "-i", f"sine=frequency=440:sample_rate=48000:duration={SECONDS}",
             "-c:v", "libx264", "-preset", "ultrafast", "-crf", "18", "-pix_fmt", "yuv420p", "-c:a", "aac", "-shortest", str(src)])
        # Alternate the three and keep each one's best of ROUNDS: on a shared 2-core machine the
        # order and the neighbours' load move single runs by ±15 %.
        best = {"raw": float("inf"), "rung": float("inf"), "pipeline": float("inf")}
        for round_index in range(ROUNDS):
            for folder in ["raw", "per-rung", "data"]:
                shutil.rmtree(work / folder, ignore_errors=True)
            (work / "raw").mkdir()
            best["raw"] = min(best["raw"], timed(f"raw one-command ladder #{round_index + 1}", lambda: raw_one_command(src, work / "raw")))
            best["rung"] = min(best["rung"], timed(f"one ffmpeg run per rung #{round_index + 1}", lambda: per_rung(src, work / "per-rung")))
            best["pipeline"] = min(best["pipeline"], timed(
                f"reelhouse import #{round_index + 1}",
                lambda: run([BIN, "import", str(src), "--data", str(work / "data"), "--json", "--preset", PRESET],
                            stderr=subprocess.DEVNULL)))
        raw, rung, pipeline = best["raw"], best["rung"], best["pipeline"]
        print(f"  best of {ROUNDS}: raw {raw:.2f} s, per-rung {rung:.2f} s, pipeline {pipeline:.2f} s")
        print(f"  pipeline ÷ raw       = {pipeline / raw:.3f}   (goal ≤ 1.05)")
        print(f"  pipeline ÷ per-rung  = {pipeline / rung:.3f}   (goal ≤ 0.70)")
        print(f"  per-rung ÷ raw       = {rung / raw:.3f}")
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
