import Foundation
import ReelS3
import Testing

/// Every vector botocore made for the same requests (scripts/sigv4-vectors.py →
/// Fixtures/sigv4-botocore.json; Tests/e2e/test_sigv4_vectors.py regenerates it live and
/// compares): header-signed with a payload hash and with `UNSIGNED-PAYLOAD`, with a session
/// token, and presigned; each step (canonical request, string to sign, signature) compared.
@Suite("SigV4: botocore's signatures for the same requests")
struct SigV4BotocoreTests {
    struct Fixture: Decodable {
        var generator: String
        var vectors: [Vector]
    }

    struct Vector: Decodable, CustomTestStringConvertible {
        var name, kind, method, host, path, payload: String
        var query: [[String]]
        var headers: [[String]]
        var access_key, secret_key, region, date: String
        var session_token: String?
        var canonical_request, string_to_sign, signature: String
        var expires: Int?
        var url: String?
        var authorization: String?
        var sent_headers: [String: String]?

        var testDescription: String { name }

        var request: SigV4Request {
            SigV4Request(
                method: method, host: host, path: path, query: query.map { ($0[0], $0[1]) }, headers: headers.map { ($0[0], $0[1]) }
            )
        }

        var signer: SigV4 {
            SigV4(credentials: S3Credentials(accessKeyID: access_key, secretAccessKey: secret_key, sessionToken: session_token), region: region)
        }
    }

    static let fixture: Fixture = {
        let url = Bundle.module.url(forResource: "sigv4-botocore", withExtension: "json", subdirectory: "Fixtures")!
        return try! JSONDecoder().decode(Fixture.self, from: Data(contentsOf: url))
    }()

    @Test("The fixture covers both kinds, both payload modes and a session token")
    func coverage() {
        let vectors = Self.fixture.vectors
        #expect(vectors.count >= 15)
        #expect(vectors.contains { $0.kind == "presign" } && vectors.contains { $0.kind == "header" })
        #expect(vectors.contains { $0.kind == "header" && $0.payload == "UNSIGNED-PAYLOAD" })
        #expect(vectors.contains { $0.kind == "header" && $0.payload != "UNSIGNED-PAYLOAD" })
        #expect(vectors.contains { $0.session_token != nil && $0.kind == "header" } && vectors.contains { $0.session_token != nil && $0.kind == "presign" })
    }

    @Test("Header-signed requests", arguments: fixture.vectors.filter { $0.kind == "header" })
    func headerSigned(_ vector: Vector) throws {
        let date = try #require(SigV4.date(amz: vector.date))
        let payload: SigV4Payload = vector.payload == "UNSIGNED-PAYLOAD" ? .unsigned : .sha256(vector.payload)
        let signed = vector.signer.sign(vector.request, payload: payload, date: date)
        #expect(signed.canonicalRequest == vector.canonical_request)
        #expect(signed.stringToSign == vector.string_to_sign)
        #expect(signed.signature == vector.signature)
        #expect(signed.authorization == vector.authorization)
        // The x-amz-* headers sent are exactly botocore's.
        let ours = Dictionary(uniqueKeysWithValues: signed.headers.filter { $0.name.hasPrefix("x-amz-") || $0.name == "authorization" }.map { ($0.name, $0.value) })
        #expect(ours == vector.sent_headers)
    }

    @Test("Presigned URLs", arguments: fixture.vectors.filter { $0.kind == "presign" })
    func presigned(_ vector: Vector) throws {
        let date = try #require(SigV4.date(amz: vector.date))
        let signed = vector.signer.presign(vector.request, expires: try #require(vector.expires), date: date)
        #expect(signed.canonicalRequest == vector.canonical_request)
        #expect(signed.stringToSign == vector.string_to_sign)
        #expect(signed.signature == vector.signature)
        // Same path and the same query items (botocore does not sort the URL's query; S3 does not care).
        let url = try #require(vector.url)
        let (botoPath, botoQuery) = try #require(Self.split(url))
        #expect(botoPath == SigV4.canonicalURI(vector.path))
        let ours = SigV4.canonicalQuery(signed.query).split(separator: "&").map(String.init).sorted()
        #expect(ours == botoQuery.split(separator: "&").map(String.init).sorted())
    }

    static func split(_ url: String) -> (String, String)? {
        guard let schemeEnd = url.range(of: "://"), let pathStart = url[schemeEnd.upperBound...].firstIndex(of: "/") else { return nil }
        let rest = url[pathStart...]
        guard let question = rest.firstIndex(of: "?") else { return (String(rest), "") }
        return (String(rest[..<question]), String(rest[rest.index(after: question)...]))
    }
}
