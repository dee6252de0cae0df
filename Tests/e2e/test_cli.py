"""The CLI contract that scripts rely on."""
import json
import os
import re
import subprocess
import time

import pytest

from conftest import BIN, RunningServer, http, import_json, library_environment, make_clip, reelhouse


def test_doctor_checks_tools_encoders_folder_and_database(data):
    create_library(data)
    result = reelhouse(data, "doctor")
    lines = result.stdout.splitlines()
    for what in ["ffmpeg:", "ffprobe:", "encoder libx264:", "encoder aac:", "data folder:", "database:"]:
        assert any(line.startswith("ok") and what in line for line in lines), (what, result.stdout)
    assert any(line.startswith("info pexels: no REELHOUSE_PEXELS_KEY") for line in lines), result.stdout
    keyed = reelhouse(data, "doctor", env={"REELHOUSE_PEXELS_KEY": "secret-key-123"}).stdout
    assert "info pexels: REELHOUSE_PEXELS_KEY is set" in keyed and "secret-key-123" not in keyed
    (data / "config.json").write_text(json.dumps({"pexelsKey": "secret-key-456"}))
    from_file = reelhouse(data, "doctor").stdout
    assert "info pexels: REELHOUSE_PEXELS_KEY is set" in from_file and "secret-key-456" not in from_file


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


def create_library(data):
    """`user add` starts a library (as serve and import do); other commands need one."""
    subprocess.run([BIN, "user", "add", "someone", "--data", str(data)], input="a-long-password-123\n",
                   capture_output=True, text=True, check=True, env={**os.environ, **library_environment(data)})


@pytest.mark.sqlite_only("on PostgreSQL the library is the database: a missing data folder (secret, work files) is made")
def test_commands_refuse_a_data_folder_that_does_not_exist(tmp_path):
    missing = tmp_path / "mistyped"
    for args in (["jobs"], ["doctor"], ["user", "list"], ["key", "list"], ["worker"], ["search", "rebuild"]):
        result = reelhouse(missing, *args, check=False, timeout=60)
        assert result.returncode != 0, args
        assert str(missing) in result.stderr + result.stdout, (args, result.stderr, result.stdout)
    assert not missing.exists(), "a command created the mistyped folder"


@pytest.mark.sqlite_only("bench-seed writes synthetic posts into a SQLite library only")
def test_search_rebuild_prints_how_many_posts_it_indexed(data):
    reelhouse(data, "bench-seed", "--count", "3")
    assert reelhouse(data, "search", "rebuild").stdout.strip() == "indexed 3 ready posts"


def test_import_json_prints_its_object_even_when_a_path_is_missing(tmp_path, data):
    result = reelhouse(data, "import", str(tmp_path / "nope.mp4"), "--json", check=False)
    assert result.returncode != 0
    report = json.loads(result.stdout)
    assert report["imported"] == [] and report["rejected"] == [{"path": str(tmp_path / "nope.mp4"), "reason": "does not exist"}]
    result = reelhouse(data, "import", str(tmp_path), "--json", "--filter", "sepia-ish", check=False)
    assert result.returncode != 0
    assert "--filter must be one of" in json.loads(result.stdout)["error"]


def test_user_add_names_an_existing_user_before_judging_the_password(data):
    create_library(data)
    result = subprocess.run([BIN, "user", "add", "someone", "--data", str(data)], input="short\n",
                            capture_output=True, text=True, env={**os.environ, **library_environment(data)})
    assert result.returncode != 0
    assert "already exists" in result.stderr and "8 characters" not in result.stderr


def test_key_list_names_the_user(data):
    create_library(data)
    reelhouse(data, "key", "create", "--user", "someone", "--name", "phone")
    lines = reelhouse(data, "key", "list").stdout.splitlines()
    assert len(lines) == 1 and "\tsomeone\t" in lines[0] and "\tphone\t" in lines[0], lines


def test_user_disable_revokes_keys_and_never_disables_the_last_owner(data):
    create_library(data)
    environment = {**os.environ, **library_environment(data)}
    subprocess.run([BIN, "user", "add", "boss", "--role", "owner", "--bcrypt-cost", "4", "--data", str(data)],
                   input="a-long-password-123\n", capture_output=True, text=True, check=True, env=environment)
    reelhouse(data, "key", "create", "--user", "someone", "--name", "phone")
    assert "disabled someone" in reelhouse(data, "user", "disable", "someone").stdout
    users = dict(line.split("\t")[1::2] for line in reelhouse(data, "user", "list").stdout.splitlines())
    assert users == {"someone": "disabled", "boss": "active"}, users
    assert "\trevoked" in reelhouse(data, "key", "list", "--user", "someone").stdout
    refused = reelhouse(data, "user", "disable", "boss", check=False)
    assert refused.returncode != 0 and "only owner" in refused.stderr and len(refused.stderr.strip().splitlines()) == 1, refused.stderr
    reelhouse(data, "user", "enable", "someone")
    assert "\tsomeone\tmember\tactive" in reelhouse(data, "user", "list").stdout


def start_serve(data, *args, env=None):
    log = open(data.parent / "serve.log", "w+")
    process = subprocess.Popen([BIN, "serve", "--data", str(data), "--bcrypt-cost", "4", "--no-worker", *args],
                               stdout=log, stderr=subprocess.STDOUT, env={**os.environ, **library_environment(data), **(env or {})})
    return process, log


def wait_for(process, log, text, timeout=60):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        log.seek(0)
        output = log.read()
        if text in output or process.poll() is not None:
            return output
        time.sleep(0.1)
    return log.read()


def test_serve_port_0_prints_the_bound_port_and_a_taken_port_is_one_clear_line(data):
    process, log = start_serve(data, "--port", "0")
    try:
        output = wait_for(process, log, "listening on")
        found = re.search(r"listening on http://127\.0\.0\.1:(\d+)/", output)
        assert found, output
        port = int(found.group(1))
        assert port != 0 and http(f"http://127.0.0.1:{port}/health")[0] == 200

        taken = subprocess.run([BIN, "serve", "--data", str(data), "--port", str(port), "--no-worker"],
                               capture_output=True, text=True, timeout=60, env={**os.environ, **library_environment(data)})
        assert taken.returncode != 0
        assert "listening" not in taken.stdout
        assert f"port {port} is in use: choose another with --port or REELHOUSE_PORT" in taken.stderr
        # one line says what and why (log lines carry a timestamp); no raw errno
        said = [line for line in taken.stderr.splitlines() if not re.match(r"\d{4}-\d\d-\d\dT", line)]
        assert said == [f"Error: serve: port {port} is in use: choose another with --port or REELHOUSE_PORT"], taken.stderr
        assert "bind" not in taken.stderr and "errno" not in taken.stderr.lower()

        # The port is checked first: with the worker and --demo on an empty folder, nothing runs.
        empty = data.parent / "another-library"
        busy = subprocess.run([BIN, "serve", "--data", str(empty), "--port", str(port), "--demo"],
                              capture_output=True, text=True, timeout=60, env={**os.environ, **library_environment(empty)})
        assert busy.returncode != 0 and f"port {port} is in use" in busy.stderr, busy.stderr
        assert "demo" not in busy.stdout + busy.stderr and not (empty / "demo-source").exists(), busy.stdout + busy.stderr
        assert "job" not in busy.stderr.lower() and "password" not in busy.stdout, busy.stdout + busy.stderr
    finally:
        process.terminate()
        process.wait(timeout=30)
        log.close()


def test_serve_refuses_to_start_when_the_secret_cannot_be_kept(data):
    data.mkdir(parents=True)
    (data / "secret.key").mkdir()  # root ignores permissions; a folder in its place cannot be read or written
    result = subprocess.run([BIN, "serve", "--data", str(data), "--port", "0", "--no-worker"],
                            capture_output=True, text=True, timeout=60, env={**os.environ, **library_environment(data)})
    assert result.returncode != 0
    assert "secret.key" in result.stderr and "listening" not in result.stdout
    said = [line for line in result.stderr.splitlines() if not re.match(r"\d{4}-\d\d-\d\dT", line)]
    assert len(said) == 1, result.stderr


def test_the_secret_comes_from_a_file_flag_or_the_config_and_is_never_printed(data, tmp_path):
    """The secret setting (REELHOUSE_SECRET, config.json's "secret", --secret-file; never a value
    on the command line): serve signs with it instead of making secret.key, and the edge config
    reads the same setting from the data folder's config.json."""
    secret = os.urandom(24).hex()
    path = tmp_path / "secret"
    path.write_text(secret + "\n")
    process, log = start_serve(data, "--port", "0", "--secret-file", str(path))
    try:
        output = wait_for(process, log, "listening on")
        assert "listening on" in output, output
    finally:
        process.terminate()
        process.wait(timeout=30)
        log.close()
    assert secret not in output and not (data / "secret.key").exists()

    def edge(env=None):
        result = subprocess.run([BIN, "edge", "nginx", "--data", str(data)], capture_output=True, text=True, timeout=60,
                                env={**os.environ, **(env or {})})
        assert result.returncode == 0, result.stderr
        assert secret not in result.stdout
        return result.stdout

    assert "No API secret was read" in edge()
    from_environment = edge({"REELHOUSE_SECRET": secret})
    (data / "config.json").write_text(json.dumps({"secret": secret}))
    assert edge() == from_environment and "No API secret was read" not in from_environment
    short = subprocess.run([BIN, "serve", "--data", str(data), "--port", "0", "--no-worker"], capture_output=True, text=True,
                           timeout=60, env={**os.environ, **library_environment(data), "REELHOUSE_SECRET": "too-short"})
    assert short.returncode != 0 and "REELHOUSE_SECRET" in short.stderr and "too-short" not in short.stderr


def test_a_wrong_api_key_is_named_as_such(data):
    server = RunningServer(data)
    try:
        status, _, body = http(server.base + "/api/v1/me", headers={"api-key": "rh_not_a_real_key"})
        assert status == 401
        assert json.loads(body)["error"] == {"code": "invalid_api_key", "message": "this API key is not valid"}
        status, _, body = http(server.base + "/api/v1/me")
        assert status == 401 and json.loads(body)["error"]["code"] == "unauthorized"
    finally:
        server.stop()


def help_sections(text: str) -> dict[str, list[str]]:
    """`--help` output by section (ARGUMENTS, OPTIONS, SUBCOMMANDS), each a list of lines."""
    sections, current = {}, None
    for line in text.splitlines():
        if re.fullmatch(r"[A-Z][A-Z ]+:", line):
            current = sections.setdefault(line[:-1], [])
        elif current is not None and line.strip():
            current.append(line)
    return sections


def test_every_argument_of_every_command_says_what_it_is(tmp_path):
    """Walks the whole command tree from `reelhouse --help`, so a new command is covered too."""
    pending, seen, bare = [[]], 0, []
    while pending:
        path = pending.pop()
        result = subprocess.run([BIN, *path, "--help"], capture_output=True, text=True, check=True)
        seen += 1
        sections = help_sections(result.stdout)
        pending += [path + [line.split()[0]] for line in sections.get("SUBCOMMANDS", [])
                    if re.match(r"  [a-z][a-z-]+( |$)", line) and line.split()[0] != "help"]
        lines = sections.get("ARGUMENTS", [])
        for index, line in enumerate(lines):
            match = re.match(r"  (<[^>]+>(?:\.\.\.)?)(.*)", line)
            if not match:
                continue
            described_below = index + 1 < len(lines) and re.match(r" {10,}\S", lines[index + 1])
            if not match.group(2).strip() and not described_below:
                bare.append(f"reelhouse {' '.join(path)} {match.group(1)}")
    assert seen > 20, seen
    assert bare == [], "arguments without a description: " + ", ".join(bare)


def test_a_file_that_is_not_media_is_named_once_with_its_reason(tmp_path, data):
    notes = tmp_path / "README.md"
    notes.write_text("# not a video\n")
    result = reelhouse(data, "import", str(notes), check=False)
    assert result.returncode == 1
    output = result.stdout + result.stderr
    assert output.count("unsupported file type .md") == 1, output
    assert "1 skipped" in result.stdout, result.stdout


def test_the_new_owner_password_is_printed_last_and_set_apart(data):
    process, log = start_serve(data, "--port", "0")
    try:
        output = wait_for(process, log, "└ Sign in")
        lines = output.splitlines()
        listening = next(i for i, line in enumerate(lines) if line.startswith("Reelhouse is listening on"))
        password = next(i for i, line in enumerate(lines) if re.search(r"password: \S{16}$", line))
        assert listening < password, output
        assert lines[listening + 1].strip() == "" and lines[listening + 2].startswith("┌"), output  # set apart
        assert lines[password - 1].strip() == "│   username: owner", output
    finally:
        process.terminate()
        process.wait(timeout=30)
        log.close()
