#!/usr/bin/env python3
"""SigV4 test vectors made by botocore, for ReelS3's signer (Tests/ReelS3Tests/SigV4BotocoreTests.swift).

Prints JSON: each vector is one S3 request (method, host, decoded path, decoded query, extra
headers, payload, time, keys) and what botocore's S3SigV4Auth (header-signed) or
S3SigV4QueryAuth (presigned) made of it: canonical request, string to sign, signature, the
signed headers or the presigned URL.

  .venv/bin/python scripts/sigv4-vectors.py > Tests/ReelS3Tests/Fixtures/sigv4-botocore.json

Tests/e2e/test_sigv4_vectors.py runs this again and compares with the committed file, so the
fixture cannot drift from what botocore does.
"""
import datetime
import hashlib
import json
import sys
from unittest import mock
from urllib.parse import quote

import botocore
import botocore.auth
from botocore.awsrequest import AWSRequest
from botocore.config import Config
from botocore.credentials import Credentials

DOC_KEYS = ("AKIAIOSFODNN7EXAMPLE", "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY")
TEST_KEYS = ("REELTESTACCESSKEY", "reel-test-secret-key-0123456789")
DOC_DATE = "20130524T000000Z"

# (name, kind, method, host, path, query, headers, body, unsigned, keys, token, region, date, expires)
CASES = [
    # The five examples of the S3 API reference ("Signature Calculations for the Authorization
    # Header" and "Query String Authentication"), as botocore signs them.
    ("aws-doc get object range", "header", "GET", "examplebucket.s3.amazonaws.com", "/test.txt", [],
     [("Range", "bytes=0-9")], b"", False, DOC_KEYS, None, "us-east-1", DOC_DATE, None),
    # The documentation's PUT also signs a `Date` header; botocore then drops `x-amz-date`, which
    # ReelS3 always sends, so botocore's vector leaves `Date` out (SigV4AWSExampleTests checks the
    # documentation's own signature, `Date` included).
    ("aws-doc put object without Date", "header", "PUT", "examplebucket.s3.amazonaws.com", "/test$file.text", [],
     [("x-amz-storage-class", "REDUCED_REDUNDANCY")],
     b"Welcome to Amazon S3.", False, DOC_KEYS, None, "us-east-1", DOC_DATE, None),
    ("aws-doc get bucket lifecycle", "header", "GET", "examplebucket.s3.amazonaws.com", "/", [("lifecycle", "")],
     [], b"", False, DOC_KEYS, None, "us-east-1", DOC_DATE, None),
    ("aws-doc list objects", "header", "GET", "examplebucket.s3.amazonaws.com", "/", [("max-keys", "2"), ("prefix", "J")],
     [], b"", False, DOC_KEYS, None, "us-east-1", DOC_DATE, None),
    ("aws-doc presigned get", "presign", "GET", "examplebucket.s3.amazonaws.com", "/test.txt", [],
     [], b"", True, DOC_KEYS, None, "us-east-1", DOC_DATE, 86400),
    # Requests ReelS3 makes, path-style against a local endpoint with a port.
    ("put with payload hash", "header", "PUT", "127.0.0.1:8333", "/reel-media/media/42/720p/seg_00000.m4s", [],
     [("Content-Type", "video/iso.segment")], b"\x00\x01segment bytes\xff" * 40, False, TEST_KEYS, None, "us-east-1",
     "20261125T101530Z", None),
    ("put unsigned payload", "header", "PUT", "127.0.0.1:8333", "/reel-media/media/42/master.m3u8", [],
     [("Content-Type", "application/vnd.apple.mpegurl")], b"#EXTM3U\n", True, TEST_KEYS, None, "eu-west-3",
     "20261125T101530Z", None),
    ("get with space, unicode and reserved characters in the key", "header", "GET", "127.0.0.1:8333",
     "/reel-media/a b/caf\u00e9+(1)*!'=&@:,;$.txt", [], [("Range", "bytes=100-")], b"", False, TEST_KEYS, None,
     "us-east-1", "20261231T235959Z", None),
    ("list objects v2 page", "header", "GET", "127.0.0.1:8333", "/reel-media",
     [("list-type", "2"), ("prefix", "media/42/"), ("continuation-token", "1/abc+def="), ("max-keys", "1000")],
     [], b"", False, TEST_KEYS, None, "us-east-1", "20261125T101530Z", None),
    ("multipart upload part with session token", "header", "PUT", "127.0.0.1:8333", "/reel-media/staging/42/p1/download.mp4",
     [("partNumber", "3"), ("uploadId", "3f2a/9b==")], [], b"part three", False, TEST_KEYS, "FwoGZXIvYXdzE//token+with/slashes=",
     "us-east-1", "20261125T101530Z", None),
    ("complete multipart with repeated spaces in a header", "header", "POST", "127.0.0.1:8333", "/reel-media/k",
     [("uploadId", "abc")], [("Content-Type", "application/xml"), ("X-Amz-Meta-Note", "  two   spaces  inside ")],
     b"<CompleteMultipartUpload></CompleteMultipartUpload>", False, TEST_KEYS, None, "us-east-1", "20261125T101530Z", None),
    ("copy object", "header", "PUT", "127.0.0.1:8333", "/reel-media/media/42/720p/init.mp4", [],
     [("x-amz-copy-source", "/reel-media/staging/42/p1/720p/init.mp4")], b"", False, TEST_KEYS, None, "us-east-1",
     "20261125T101530Z", None),
    ("delete objects", "header", "POST", "127.0.0.1:8333", "/reel-media", [("delete", "")],
     [("Content-MD5", "1B2M2Y8AsgTpgAmY7PhCfg==")], b"<Delete><Quiet>true</Quiet></Delete>", False, TEST_KEYS, None,
     "us-east-1", "20261125T101530Z", None),
    ("presigned get with path escapes", "presign", "GET", "127.0.0.1:8333", "/reel-media/media/42/a b+c.m4s", [],
     [], b"", True, TEST_KEYS, None, "us-east-1", "20261125T101530Z", 900),
    ("presigned get with session token and response override", "presign", "GET", "127.0.0.1:8333",
     "/reel-media/media/42/download.mp4", [("response-content-disposition", "attachment; filename=\"clip 1.mp4\"")],
     [], b"", True, TEST_KEYS, "FwoGZXIvYXdzE//token+with/slashes=", "ap-southeast-2", "20261125T101530Z", 604800),
    ("presigned put", "presign", "PUT", "s3.eu-west-3.amazonaws.com", "/reel-media/uploads/u1/part-00001", [],
     [], b"", True, TEST_KEYS, None, "eu-west-3", "20261125T101530Z", 3600),
]


def sign(case):
    (name, kind, method, host, path, query, headers, body, unsigned, keys, token, region, date, expires) = case
    credentials = Credentials(keys[0], keys[1], token)
    when = datetime.datetime.strptime(date, "%Y%m%dT%H%M%SZ")
    # botocore's own S3 serializer encodes keys with quote(key, safe='/~'): RFC 3986, '/' kept.
    url = f"http://{host}{quote(path, safe='/~')}"
    request = AWSRequest(method=method, url=url, headers=dict(headers), params=list(query) if kind == "header" else {},
                         data=body)
    if kind == "presign" and query:
        request.url = url + "?" + "&".join(f"{quote(k, safe='-_.~')}={quote(v, safe='-_.~')}" for k, v in query)
    if unsigned and kind == "header":
        request.context["client_config"] = Config(s3={"payload_signing_enabled": False})
    signer = (botocore.auth.S3SigV4QueryAuth(credentials, "s3", region, expires=expires) if kind == "presign"
              else botocore.auth.S3SigV4Auth(credentials, "s3", region))
    recorded = {}
    original_sts = signer.string_to_sign

    def record(req, canonical):
        recorded["canonical_request"] = canonical
        recorded["string_to_sign"] = original_sts(req, canonical)
        return recorded["string_to_sign"]

    with mock.patch.object(botocore.auth, "get_current_datetime", return_value=when), \
            mock.patch.object(signer, "string_to_sign", side_effect=record):
        signer.add_auth(request)
    vector = {
        "name": name, "kind": kind, "method": method, "host": host, "path": path,
        "query": [list(item) for item in query], "headers": [list(item) for item in headers],
        "payload": "UNSIGNED-PAYLOAD" if unsigned or kind == "presign" else hashlib.sha256(body).hexdigest(),
        "access_key": keys[0], "secret_key": keys[1], "session_token": token, "region": region, "date": date,
        "canonical_request": recorded["canonical_request"], "string_to_sign": recorded["string_to_sign"],
    }
    if kind == "presign":
        vector["expires"] = expires
        vector["url"] = request.url
        vector["signature"] = request.url.rsplit("X-Amz-Signature=", 1)[1]
    else:
        sent = {k.lower(): v for k, v in request.headers.items()}
        vector["authorization"] = sent["authorization"]
        vector["signature"] = sent["authorization"].rsplit("Signature=", 1)[1]
        vector["sent_headers"] = {k: sent[k] for k in sorted(sent) if k.startswith("x-amz-") or k == "authorization"}
    return vector


def main():
    vectors = [sign(case) for case in CASES]
    json.dump({"generator": f"botocore {botocore.__version__}", "vectors": vectors}, sys.stdout, indent=2, ensure_ascii=False)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
