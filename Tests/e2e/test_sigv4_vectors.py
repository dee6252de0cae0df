"""The SigV4 fixture ReelS3's Swift tests check (Tests/ReelS3Tests/Fixtures/sigv4-botocore.json)
is exactly what botocore makes today: regenerated live by scripts/sigv4-vectors.py and compared,
so the committed vectors cannot drift from botocore (or be edited by hand)."""
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_committed_vectors_are_botocores():
    fresh = subprocess.run([sys.executable, str(ROOT / "scripts" / "sigv4-vectors.py")],
                           check=True, capture_output=True, text=True).stdout
    committed = json.loads((ROOT / "Tests" / "ReelS3Tests" / "Fixtures" / "sigv4-botocore.json").read_text())
    regenerated = json.loads(fresh)
    # The botocore version may move on; the vectors themselves must not.
    assert regenerated["vectors"] == committed["vectors"]


def test_documentation_signatures_are_reproduced():
    """botocore itself reproduces the S3 API reference's published signatures."""
    committed = json.loads((ROOT / "Tests" / "ReelS3Tests" / "Fixtures" / "sigv4-botocore.json").read_text())
    by_name = {v["name"]: v["signature"] for v in committed["vectors"]}
    assert by_name["aws-doc get object range"] == "f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41"
    assert by_name["aws-doc get bucket lifecycle"] == "fea454ca298b7da1c68078a5d1bdbfbbe0d65c699e0f91ac7a200a0136783543"
    assert by_name["aws-doc list objects"] == "34b48302e7b5fa45bde8084f4b7868a86f0a534bc59db6670ed5711ef69dc6f7"
    assert by_name["aws-doc presigned get"] == "aeeed9bbccd4d02ee5c0109b86d86835f995330da4c265957d157751f604d404"
