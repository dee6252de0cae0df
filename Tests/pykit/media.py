"""Media made with ffmpeg's lavfi generators: short H.264/AAC clips and still images, with an
optional label burned in so a screenshot shows which item is which."""
import subprocess
from pathlib import Path

FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"


def ffmpeg(*args: str) -> None:
    subprocess.run(["ffmpeg", "-hide_banner", "-loglevel", "error", "-y", *args], check=True)


def label_filter(label: str, fontsize: int, y: str, box_opacity: float) -> str:
    """drawtext for a centred label on a dark box (the label must not contain quotes or colons)."""
    return (f"drawtext=fontfile={FONT}:text='{label}':fontsize={fontsize}:fontcolor=white"
            f":box=1:boxcolor=black@{box_opacity}:x=(w-tw)/2:y={y}")


def make_clip(path: Path, size: str = "360x640", seconds: float = 3, audio: bool = True,
              source: str = "testsrc2", rate: int = 30, extra: tuple = (), label: str | None = None,
              frequency: int = 440) -> Path:
    """A short H.264 (+AAC sine at `frequency`) clip from one of ffmpeg's lavfi sources."""
    path.parent.mkdir(parents=True, exist_ok=True)
    # A source that already has options (`color=c=red`) gets the size appended with ':'.
    joiner = ":" if "=" in source else "="
    args = ["-f", "lavfi", "-i", f"{source}{joiner}size={size}:rate={rate}"]
    if audio:
        args += ["-f", "lavfi", "-i", f"sine=frequency={frequency}:sample_rate=48000:duration={seconds}"]
    args += ["-t", str(seconds)]
    if label is not None:
        args += ["-vf", label_filter(label, 44, "h*0.28", 0.55)]
    args += ["-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p"]
    if audio:
        args += ["-c:a", "aac", "-shortest"]
    args += [*extra, str(path)]
    ffmpeg(*args)
    return path


def make_image(path: Path, size: str = "800x600", source: str = "testsrc2", label: str | None = None) -> Path:
    """One still frame of a lavfi source (format from the file name's extension)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    args = ["-f", "lavfi", "-i", f"{source}=size={size}", "-frames:v", "1"]
    if label is not None:
        args += ["-vf", label_filter(label, 96, "h*0.4", 0.6)]
    ffmpeg(*args, str(path))
    return path
