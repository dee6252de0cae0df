"""The CLI contract that scripts rely on."""
import json

from conftest import import_json, make_clip, reelhouse


def test_doctor_checks_tools_encoders_folder_and_database(data):
    result = reelhouse(data, "doctor")
    lines = result.stdout.splitlines()
    for what in ["ffmpeg:", "ffprobe:", "encoder libx264:", "encoder aac:", "data folder:", "database:"]:
        assert any(line.startswith("ok") and what in line for line in lines), (what, result.stdout)


def test_doctor_fails_on_an_unwritable_data_folder(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    result = reelhouse(blocker / "data", "doctor", check=False)
    assert result.returncode != 0
    assert "FAIL data folder" in result.stdout


def test_jobs_json_and_no_wait(tmp_path, data):
    clip = make_clip(tmp_path / "clip.mp4", size="320x568", seconds=2)
    report = import_json(data, clip, extra=("--no-wait",))
    assert len(report["imported"]) == 1
    jobs = json.loads(reelhouse(data, "jobs", "--json").stdout)
    assert [job["state"] for job in jobs] == ["queued"]
    assert jobs[0]["post_id"] == report["imported"][0]["id"]
    human = reelhouse(data, "jobs").stdout
    assert "queued" in human


def test_import_json_prints_exactly_one_object(tmp_path, data):
    clip = make_clip(tmp_path / "a.mp4", size="320x568", seconds=2)
    out = reelhouse(data, "import", str(clip), "--json").stdout
    parsed = json.loads(out)
    assert set(parsed) >= {"imported", "skipped", "rejected"}
    assert out.strip().count("\n") == 0


def test_importing_a_folder_that_holds_the_data_folder_skips_our_own_files(tmp_path):
    library = tmp_path / "library"
    make_clip(library / "clip.mp4", size="320x568", seconds=2)
    data = library / "data"
    first = import_json(data, library)
    assert [item["path"] for item in first["imported"]] == ["clip.mp4"]
    again = import_json(data, library)
    assert again["imported"] == [] and again["rejected"] == []
    assert [item["path"] for item in again["skipped"]] == ["clip.mp4"]
