"""`reelhouse library` and `import --library`: libraries and who sees them, from a shell."""
from conftest import db, make_image, reelhouse


def lines(result):
    return [line for line in (result.stdout + result.stderr).splitlines() if line.strip()]


def refused(data, *args):
    """Runs a command that must fail: non-zero exit, one line saying why."""
    result = reelhouse(data, "library", *args, check=False, timeout=60)
    assert result.returncode != 0, (args, result.stdout)
    assert len(lines(result)) == 1, (args, result.stdout, result.stderr)
    return lines(result)[0]


def grants(data, name):
    with db(data) as connection:
        return sorted(row[0] for row in connection.execute(
            "SELECT u.name FROM library_grants g JOIN users u ON u.id = g.user_id JOIN libraries l ON l.id = g.library_id "
            "WHERE l.name = ?", (name,)))


def test_library_commands_and_import_into_a_library(data, tmp_path):
    reelhouse(data, "user", "add", "ana", "--role", "owner", "--bcrypt-cost", "4", stdin="correct horse battery\n")
    reelhouse(data, "user", "add", "bo", "--bcrypt-cost", "4", stdin="correct horse battery\n")
    assert reelhouse(data, "library", "list").stdout.splitlines() == ["1\tLibrary\t0\tana,bo"], "every account gets library 1"

    assert "created library Family (id 2)" in reelhouse(data, "library", "create", " Family ").stdout
    assert "granted Family to bo" in reelhouse(data, "library", "grant", "family", "BO").stdout
    reelhouse(data, "library", "grant", "Family", "bo")
    assert grants(data, "Family") == ["bo"]
    assert "revoked Library from bo" in reelhouse(data, "library", "revoke", "Library", "bo").stdout
    assert grants(data, "Library") == ["ana"]
    assert "renamed library Family to Home videos" in reelhouse(data, "library", "rename", "Family", "Home videos").stdout

    assert "exists" in refused(data, "create", "library")
    assert "exists" in refused(data, "rename", "Home videos", "LIBRARY")
    assert "1 to 64 characters" in refused(data, "create", "   ")
    assert "no library named Nope" in refused(data, "grant", "Nope", "bo")
    assert "no user named zed" in refused(data, "revoke", "Library", "zed")

    # Into a named library, made when missing; without --library, library 1.
    holiday = make_image(tmp_path / "in" / "holiday.jpg")
    other = make_image(tmp_path / "other" / "street.jpg", source="testsrc")
    reelhouse(data, "import", str(holiday.parent), "--library", "Trips", "--no-wait", timeout=120)
    reelhouse(data, "import", str(other.parent), "--no-wait", timeout=120)
    with db(data) as connection:
        placed = dict(connection.execute(
            "SELECT p.folder_name, l.name FROM posts p JOIN libraries l ON l.id = p.library_id").fetchall())
    assert placed == {"holiday": "Trips", "street": "Library"}, placed
    assert [line.split("\t")[1] for line in reelhouse(data, "library", "list").stdout.splitlines()] == ["Library", "Home videos", "Trips"]


def test_library_set_keep_archived_stories(data):
    reelhouse(data, "user", "add", "ana", "--role", "owner", "--bcrypt-cost", "4", stdin="correct horse battery\n")

    def kept():
        with db(data) as connection:
            return connection.execute("SELECT keep_archived_stories FROM libraries WHERE id = 1").fetchone()[0]

    assert kept() == 1, "a library keeps archived stories unless told otherwise"
    assert "Library: keep archived stories off" in reelhouse(data, "library", "set", "library", "--keep-archived-stories", "false").stdout
    assert kept() == 0
    assert "keep archived stories on" in reelhouse(data, "library", "set", "Library", "--keep-archived-stories", "true").stdout
    assert kept() == 1
    assert "nothing to set" in refused(data, "set", "Library")
    assert "no library named Nope" in refused(data, "set", "Nope", "--keep-archived-stories", "false")
