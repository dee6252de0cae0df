import Crypto
import Foundation

/// Keys for signing. `description` never shows the secret or the session token.
public struct S3Credentials: Sendable, Equatable, CustomStringConvertible {
    public var accessKeyID: String
    public var secretAccessKey: String
    public var sessionToken: String?

    public init(accessKeyID: String, secretAccessKey: String, sessionToken: String? = nil) {
        self.accessKeyID = accessKeyID
        self.secretAccessKey = secretAccessKey
        self.sessionToken = sessionToken
    }

    public var description: String { "S3Credentials(\(accessKeyID), secret: ***\(sessionToken == nil ? "" : ", token: ***"))" }
}

/// What `x-amz-content-sha256` says about the body: its SHA-256, or that it is not signed.
public enum SigV4Payload: Sendable, Equatable {
    case unsigned
    case sha256(String)

    public static let emptySHA256 = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"

    public static func hashing(_ body: Data) -> SigV4Payload { .sha256(SigV4.hex(SHA256.hash(data: body))) }

    public var headerValue: String {
        switch self {
        case .unsigned: "UNSIGNED-PAYLOAD"
        case .sha256(let hex): hex
        }
    }
}

/// One request as the signer sees it. `path` is *decoded* (`/bucket/a b.txt`); the signer
/// encodes it exactly once, as S3 wants (no normalisation, `/` kept). Query items are decoded
/// too. `headers` are what the caller will send besides the ones signing adds.
public struct SigV4Request: Sendable {
    public var method: String
    public var host: String
    public var path: String
    public var query: [(name: String, value: String)]
    public var headers: [(name: String, value: String)]

    public init(method: String, host: String, path: String, query: [(name: String, value: String)] = [], headers: [(name: String, value: String)] = []) {
        self.method = method
        self.host = host
        self.path = path
        self.query = query
        self.headers = headers
    }

    /// The path and query as they go on the wire, encoded the same way they were signed.
    public var encodedPathAndQuery: String {
        let query = SigV4.canonicalQuery(self.query)
        return SigV4.canonicalURI(path) + (query.isEmpty ? "" : "?" + query)
    }
}

/// The result of signing, with the intermediate strings kept so tests can compare each step.
public struct SigV4Signature: Sendable {
    public var canonicalRequest: String
    public var stringToSign: String
    public var signature: String
    /// Header-signed: every header to send (the caller's, plus `host`, `x-amz-date`,
    /// `x-amz-content-sha256`, `x-amz-security-token` and `authorization`), names lower-cased.
    /// Presigned: the caller's headers plus `host`.
    public var headers: [(name: String, value: String)]
    /// Header-signed: the caller's query. Presigned: it plus every `X-Amz-*` item, signature last.
    public var query: [(name: String, value: String)]

    public var authorization: String? { headers.first { $0.name == "authorization" }?.value }
}

/// AWS Signature Version 4 for S3 (header-signed and presigned), on swift-crypto. Pure: the
/// caller passes the time. Reference: "Authenticating Requests (AWS Signature Version 4)" in the
/// Amazon S3 API reference.
public struct SigV4: Sendable {
    public static let algorithm = "AWS4-HMAC-SHA256"

    public let credentials: S3Credentials
    public let region: String
    public let service: String

    public init(credentials: S3Credentials, region: String, service: String = "s3") {
        self.credentials = credentials
        self.region = region
        self.service = service
    }

    // MARK: - Signing

    /// Signs with an `Authorization` header.
    public func sign(_ request: SigV4Request, payload: SigV4Payload, date: Date) -> SigV4Signature {
        let amzDate = Self.amzDate(date)
        var headers = request.headers.filter { !Self.addedBySigning.contains($0.name.lowercased()) }
        headers.append(("host", request.host))
        headers.append(("x-amz-date", amzDate))
        headers.append(("x-amz-content-sha256", payload.headerValue))
        if let token = credentials.sessionToken { headers.append(("x-amz-security-token", token)) }
        let canonicalHeaders = Self.canonicalHeaders(headers)
        let canonical = Self.canonicalRequest(
            method: request.method, path: request.path, query: request.query, headers: canonicalHeaders, payloadHash: payload.headerValue
        )
        let scope = credentialScope(day: String(amzDate.prefix(8)))
        let toSign = Self.stringToSign(amzDate: amzDate, scope: scope, canonicalRequest: canonical)
        let signature = signature(of: toSign, day: String(amzDate.prefix(8)))
        let authorization = "\(Self.algorithm) Credential=\(credentials.accessKeyID)/\(scope), SignedHeaders=\(canonicalHeaders.signedNames), Signature=\(signature)"
        // Sent as given (S3 keeps user metadata byte for byte); signed in canonical form.
        var sent = headers.map { (name: $0.name.lowercased(), value: $0.value) }
        sent.append(("authorization", authorization))
        return SigV4Signature(canonicalRequest: canonical, stringToSign: toSign, signature: signature, headers: sent, query: request.query)
    }

    /// A presigned URL's query: anyone holding it may make this request until `expires` seconds
    /// after `date`. The payload is always `UNSIGNED-PAYLOAD`.
    public func presign(_ request: SigV4Request, expires: Int, date: Date) -> SigV4Signature {
        let amzDate = Self.amzDate(date)
        let day = String(amzDate.prefix(8))
        var headers = request.headers
        headers.append(("host", request.host))
        let canonicalHeaders = Self.canonicalHeaders(headers)
        var query = request.query
        query.append(("X-Amz-Algorithm", Self.algorithm))
        query.append(("X-Amz-Credential", "\(credentials.accessKeyID)/\(credentialScope(day: day))"))
        query.append(("X-Amz-Date", amzDate))
        query.append(("X-Amz-Expires", String(expires)))
        query.append(("X-Amz-SignedHeaders", canonicalHeaders.signedNames))
        if let token = credentials.sessionToken { query.append(("X-Amz-Security-Token", token)) }
        let canonical = Self.canonicalRequest(
            method: request.method, path: request.path, query: query, headers: canonicalHeaders, payloadHash: SigV4Payload.unsigned.headerValue
        )
        let toSign = Self.stringToSign(amzDate: amzDate, scope: credentialScope(day: day), canonicalRequest: canonical)
        let signature = signature(of: toSign, day: day)
        query.append(("X-Amz-Signature", signature))
        return SigV4Signature(
            canonicalRequest: canonical, stringToSign: toSign, signature: signature,
            headers: canonicalHeaders.lines.map { (name: $0.name, value: $0.value) }, query: query
        )
    }

    // MARK: - Steps

    public func credentialScope(day: String) -> String { "\(day)/\(region)/\(service)/aws4_request" }

    public static func canonicalRequest(
        method: String, path: String, query: [(name: String, value: String)], headers: CanonicalHeaders, payloadHash: String
    ) -> String {
        [
            method.uppercased(), canonicalURI(path), canonicalQuery(query),
            headers.lines.map { "\($0.name):\($0.value)\n" }.joined(), headers.signedNames, payloadHash,
        ].joined(separator: "\n")
    }

    public static func stringToSign(amzDate: String, scope: String, canonicalRequest: String) -> String {
        [algorithm, amzDate, scope, hex(SHA256.hash(data: Data(canonicalRequest.utf8)))].joined(separator: "\n")
    }

    /// `HMAC(HMAC(HMAC(HMAC("AWS4" + secret, day), region), service), "aws4_request")`.
    public static func signingKey(secret: String, day: String, region: String, service: String) -> SymmetricKey {
        var key = SymmetricKey(data: Data("AWS4\(secret)".utf8))
        for part in [day, region, service, "aws4_request"] {
            key = SymmetricKey(data: Data(HMAC<SHA256>.authenticationCode(for: Data(part.utf8), using: key)))
        }
        return key
    }

    func signature(of stringToSign: String, day: String) -> String {
        let key = Self.signingKey(secret: credentials.secretAccessKey, day: day, region: region, service: service)
        return Self.hex(HMAC<SHA256>.authenticationCode(for: Data(stringToSign.utf8), using: key))
    }

    /// Headers in canonical form: names lower-cased, values trimmed with inner runs of spaces
    /// collapsed, repeated names joined with commas, sorted by name.
    public struct CanonicalHeaders: Sendable {
        public var lines: [(name: String, value: String)]
        public var signedNames: String { lines.map(\.name).joined(separator: ";") }
    }

    public static func canonicalHeaders(_ headers: [(name: String, value: String)]) -> CanonicalHeaders {
        var merged: [String: [String]] = [:]
        for (name, value) in headers {
            let collapsed = value.split(whereSeparator: { $0 == " " || $0 == "\t" }).joined(separator: " ")
            merged[name.lowercased().trimmingCharacters(in: .whitespaces), default: []].append(collapsed)
        }
        return CanonicalHeaders(lines: merged.keys.sorted().map { ($0, merged[$0]!.joined(separator: ",")) })
    }

    /// Each path segment percent-encoded once (RFC 3986 unreserved characters kept, `/` kept).
    public static func canonicalURI(_ path: String) -> String {
        let encoded = path.split(separator: "/", omittingEmptySubsequences: false).map { uriEncode(String($0)) }.joined(separator: "/")
        return encoded.hasPrefix("/") ? encoded : "/" + encoded
    }

    /// Names and values encoded, sorted by encoded name then value, `name=value` joined by `&`.
    public static func canonicalQuery(_ items: [(name: String, value: String)]) -> String {
        let encoded: [(name: String, value: String)] = items.map { (uriEncode($0.name), uriEncode($0.value)) }
        let sorted = encoded.sorted { (a: (name: String, value: String), b: (name: String, value: String)) -> Bool in
            a.name == b.name ? a.value < b.value : a.name < b.name
        }
        return sorted.map { $0.name + "=" + $0.value }.joined(separator: "&")
    }

    /// RFC 3986: everything but `A–Z a–z 0–9 - _ . ~` becomes `%XX` (upper-case hex) per UTF-8 byte.
    public static func uriEncode(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."), UInt8(ascii: "~"):
                out.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                out += "%" + String(byte >> 4, radix: 16, uppercase: true) + String(byte & 0xF, radix: 16, uppercase: true)
            }
        }
        return out
    }

    /// `yyyyMMdd'T'HHmmss'Z'` in UTC.
    public static func amzDate(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        func two(_ value: Int?) -> String { value.map { $0 < 10 ? "0\($0)" : String($0) } ?? "00" }
        return "\(c.year ?? 1970)\(two(c.month))\(two(c.day))T\(two(c.hour))\(two(c.minute))\(two(c.second))Z"
    }

    /// Parses `amzDate`'s format (for tests and fixtures).
    public static func date(amz text: String) -> Date? {
        let digits = text.filter(\.isNumber)
        guard text.count == 16, digits.count == 14 else { return nil }
        let n = digits.map { Int(String($0))! }
        func num(_ range: Range<Int>) -> Int { n[range].reduce(0) { $0 * 10 + $1 } }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return calendar.date(from: DateComponents(
            year: num(0..<4), month: num(4..<6), day: num(6..<8), hour: num(8..<10), minute: num(10..<12), second: num(12..<14)
        ))
    }

    static let addedBySigning: Set<String> = ["authorization", "host", "x-amz-date", "x-amz-content-sha256", "x-amz-security-token"]

    static func hex<D: Sequence>(_ bytes: D) -> String where D.Element == UInt8 {
        bytes.map { $0 < 16 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined()
    }
}
