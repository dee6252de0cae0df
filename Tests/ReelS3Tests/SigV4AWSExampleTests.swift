import Foundation
import ReelS3
import Testing

/// The examples of the Amazon S3 API reference, "Authenticating Requests (AWS Signature
/// Version 4)": "Signature Calculations for the Authorization Header: Transferring Payload in a
/// Single Chunk" (GET object, PUT object, GET bucket lifecycle, GET bucket objects) and "Query
/// String Authentication" (presigned GET). Keys, time and signatures as published there
/// (botocore reproduces every one: scripts/sigv4-vectors.py).
@Suite("SigV4: the AWS documentation's examples")
struct SigV4AWSExampleTests {
    static let signer = SigV4(
        credentials: S3Credentials(accessKeyID: "AKIAIOSFODNN7EXAMPLE", secretAccessKey: "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"),
        region: "us-east-1"
    )
    static let date = SigV4.date(amz: "20130524T000000Z")!
    static let host = "examplebucket.s3.amazonaws.com"

    @Test("GET /test.txt with Range bytes=0-9")
    func getObject() {
        let request = SigV4Request(method: "GET", host: Self.host, path: "/test.txt", headers: [("Range", "bytes=0-9")])
        let signed = Self.signer.sign(request, payload: .sha256(SigV4Payload.emptySHA256), date: Self.date)
        #expect(signed.canonicalRequest == """
            GET
            /test.txt

            host:examplebucket.s3.amazonaws.com
            range:bytes=0-9
            x-amz-content-sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855
            x-amz-date:20130524T000000Z

            host;range;x-amz-content-sha256;x-amz-date
            e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855
            """)
        #expect(signed.stringToSign == """
            AWS4-HMAC-SHA256
            20130524T000000Z
            20130524/us-east-1/s3/aws4_request
            7344ae5b7ee6c3e7e6b0fe0640412a37625d1fbfff95c48bbb2dc43964946972
            """)
        #expect(signed.signature == "f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41")
        #expect(signed.authorization == "AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request, "
            + "SignedHeaders=host;range;x-amz-content-sha256;x-amz-date, Signature=f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41")
    }

    @Test("PUT /test$file.text with a payload, Date and a storage class")
    func putObject() {
        let body = Data("Welcome to Amazon S3.".utf8)
        #expect(SigV4Payload.hashing(body) == .sha256("44ce7dd67c959e0d3524ffac1771dfbba87d2b6b4b4e99e42034a8b803f8b072"))
        let request = SigV4Request(method: "PUT", host: Self.host, path: "/test$file.text", headers: [
            ("Date", "Fri, 24 May 2013 00:00:00 GMT"), ("x-amz-storage-class", "REDUCED_REDUNDANCY"),
        ])
        let signed = Self.signer.sign(request, payload: .hashing(body), date: Self.date)
        #expect(signed.canonicalRequest.hasPrefix("PUT\n/test%24file.text\n\ndate:Fri, 24 May 2013 00:00:00 GMT\n"))
        #expect(signed.signature == "98ad721746da40c64f1a55b78f14c238d841ea1380cd77a1b5971af0ece108bd")
    }

    @Test("GET /?lifecycle")
    func lifecycle() {
        let request = SigV4Request(method: "GET", host: Self.host, path: "/", query: [("lifecycle", "")])
        let signed = Self.signer.sign(request, payload: .sha256(SigV4Payload.emptySHA256), date: Self.date)
        #expect(signed.canonicalRequest.hasPrefix("GET\n/\nlifecycle=\n"))
        #expect(signed.signature == "fea454ca298b7da1c68078a5d1bdbfbbe0d65c699e0f91ac7a200a0136783543")
    }

    @Test("GET /?max-keys=2&prefix=J (list objects)")
    func listObjects() {
        // Given out of order: the canonical query sorts them.
        let request = SigV4Request(method: "GET", host: Self.host, path: "/", query: [("prefix", "J"), ("max-keys", "2")])
        let signed = Self.signer.sign(request, payload: .sha256(SigV4Payload.emptySHA256), date: Self.date)
        #expect(signed.canonicalRequest.hasPrefix("GET\n/\nmax-keys=2&prefix=J\n"))
        #expect(signed.signature == "34b48302e7b5fa45bde8084f4b7868a86f0a534bc59db6670ed5711ef69dc6f7")
    }

    @Test("Presigned GET /test.txt for 86400 s")
    func presigned() {
        let request = SigV4Request(method: "GET", host: Self.host, path: "/test.txt")
        let signed = Self.signer.presign(request, expires: 86400, date: Self.date)
        #expect(signed.canonicalRequest == """
            GET
            /test.txt
            X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=AKIAIOSFODNN7EXAMPLE%2F20130524%2Fus-east-1%2Fs3%2Faws4_request&X-Amz-Date=20130524T000000Z&X-Amz-Expires=86400&X-Amz-SignedHeaders=host
            host:examplebucket.s3.amazonaws.com

            host
            UNSIGNED-PAYLOAD
            """)
        #expect(signed.signature == "aeeed9bbccd4d02ee5c0109b86d86835f995330da4c265957d157751f604d404")
        #expect(signed.query.last?.name == "X-Amz-Signature")
    }

    @Test("A different secret, region or second gives a different signature")
    func sensitivity() {
        let request = SigV4Request(method: "GET", host: Self.host, path: "/test.txt", headers: [("Range", "bytes=0-9")])
        let good = Self.signer.sign(request, payload: .sha256(SigV4Payload.emptySHA256), date: Self.date).signature
        let wrongSecret = SigV4(credentials: S3Credentials(accessKeyID: "AKIAIOSFODNN7EXAMPLE", secretAccessKey: "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEZ"), region: "us-east-1")
        let otherRegion = SigV4(credentials: Self.signer.credentials, region: "us-east-2")
        #expect(wrongSecret.sign(request, payload: .sha256(SigV4Payload.emptySHA256), date: Self.date).signature != good)
        #expect(otherRegion.sign(request, payload: .sha256(SigV4Payload.emptySHA256), date: Self.date).signature != good)
        #expect(Self.signer.sign(request, payload: .sha256(SigV4Payload.emptySHA256), date: Self.date + 1).signature != good)
    }

    @Test("URI encoding: RFC 3986 unreserved kept, everything else %XX per UTF-8 byte, / kept in paths")
    func encoding() {
        #expect(SigV4.uriEncode("AZaz09-_.~") == "AZaz09-_.~")
        #expect(SigV4.uriEncode("a b+c/d=é*") == "a%20b%2Bc%2Fd%3D%C3%A9%2A")
        #expect(SigV4.canonicalURI("/bucket/a b/c+d.txt") == "/bucket/a%20b/c%2Bd.txt")
        #expect(SigV4.canonicalURI("/bucket/already%20encoded") == "/bucket/already%2520encoded")
        #expect(SigV4.canonicalQuery([("b", "2"), ("a", "x y"), ("a", "1")]) == "a=1&a=x%20y&b=2")
        #expect(SigV4.amzDate(Self.date) == "20130524T000000Z")
    }

    @Test("Credentials never print their secret")
    func redacted() {
        let credentials = S3Credentials(accessKeyID: "AKIA", secretAccessKey: "very-secret", sessionToken: "token-secret")
        #expect(!"\(credentials)".contains("very-secret"))
        #expect(!"\(credentials)".contains("token-secret"))
    }
}
