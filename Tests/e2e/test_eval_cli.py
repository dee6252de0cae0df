"""`reelhouse eval`: the table it prints on the generated log, and bad input refused in one line.
(MovieLens itself is `make eval`'s: it is downloaded, never part of `make test`.)"""
import subprocess

from conftest import BIN

MODELS = ["random", "most-popular", "item-knn", "ours", "ours+explore"]


def evaluate(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([BIN, "eval", *args], capture_output=True, text=True, timeout=300)


def table_rows(stdout: str, title: str) -> dict[str, list[float]]:
    lines = stdout.splitlines()
    start = next(index for index, line in enumerate(lines) if line.startswith(title))
    rows = {}
    for line in lines[start + 2:start + 2 + len(MODELS)]:
        name, *numbers = line.split()
        rows[name] = [float(number) for number in numbers]
    return rows


def test_generated_log_prints_both_splits_and_the_goals():
    result = evaluate("--generated", "--seed", "16")
    assert result.returncode == 0, result.stderr
    for title in ["per-user temporal 80/20", "global temporal 80/20"]:
        rows = table_rows(result.stdout, title)
        assert list(rows) == MODELS, result.stdout
        assert all(0 <= value <= 1 for numbers in rows.values() for value in numbers)
        assert rows["ours"][1] > rows["most-popular"][1] > 0, result.stdout
    assert result.stdout.rstrip().splitlines()[-1] == "goals hold (2 of 2)", result.stdout


def test_one_split_only():
    result = evaluate("--generated", "--split", "global")
    assert result.returncode == 0, result.stderr
    assert "global temporal 80/20" in result.stdout and "per-user" not in result.stdout


def test_bad_input_is_one_line_naming_what_and_why(tmp_path):
    missing = evaluate("--movielens", str(tmp_path / "nope.inter"))
    assert missing.returncode != 0
    assert missing.stderr.strip().splitlines() == [f"error: cannot read {tmp_path / 'nope.inter'}: no such file"]

    broken = tmp_path / "broken.inter"
    broken.write_text("user_id:token\titem_id:token\trating:float\ttimestamp:float\n1\t2\t4\t100\n1\tx\t4\t200\n")
    result = evaluate("--movielens", str(broken))
    assert result.returncode != 0
    assert result.stderr.strip().splitlines() == [f"error: {broken}: line 3: item_id \"x\" is not an integer"]

    neither = evaluate()
    assert neither.returncode != 0 and "--movielens PATH or --generated" in neither.stderr
