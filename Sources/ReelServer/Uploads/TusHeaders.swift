import Crypto
import Foundation
import HTTPTypes

/// The tus 1.0 header vocabulary, parsed by pure functions so every rule is testable without a
/// server. Anything malformed is an `APIError` with the status tus (and tusd's tests) expect.
enum TusHeaders {
    static let version = "1.0.0"
    static let extensions = "creation,creation-with-upload,termination,expiration,checksum"
    static let checksumAlgorithms = "sha1,sha256"
    static let offsetContentType = "application/offset+octet-stream"

    static let tusResumable = HTTPField.Name("Tus-Resumable")!
    static let tusVersion = HTTPField.Name("Tus-Version")!
    static let tusExtension = HTTPField.Name("Tus-Extension")!
    static let tusMaxSize = HTTPField.Name("Tus-Max-Size")!
    static let tusChecksumAlgorithm = HTTPField.Name("Tus-Checksum-Algorithm")!
    static let uploadOffset = HTTPField.Name("Upload-Offset")!
    static let uploadLength = HTTPField.Name("Upload-Length")!
    static let uploadDeferLength = HTTPField.Name("Upload-Defer-Length")!
    static let uploadMetadata = HTTPField.Name("Upload-Metadata")!
    static let uploadChecksum = HTTPField.Name("Upload-Checksum")!
    static let uploadExpires = HTTPField.Name("Upload-Expires")!
    /// Ours: where a finished upload went, for the uploader to follow.
    static let uploadJobID = HTTPField.Name("Upload-Job-Id")!
    static let uploadPostID = HTTPField.Name("Upload-Post-Id")!

    /// Every request but OPTIONS must say it speaks our version (412 otherwise).
    static func requireVersion(_ headers: HTTPFields) throws {
        guard let value = headers[tusResumable] else {
            throw APIError.preconditionFailed("the Tus-Resumable header is required (this server speaks tus \(version))")
        }
        guard value.trimmingCharacters(in: .whitespaces) == version else {
            throw APIError.preconditionFailed("tus version \(value) is not supported; this server speaks \(version)")
        }
    }

    /// A non-negative decimal integer header, or nil when absent.
    static func integer(_ headers: HTTPFields, _ name: HTTPField.Name) throws -> Int64? {
        guard let text = headers[name] else { return nil }
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty, trimmed.utf8.allSatisfy({ (48...57).contains($0) }), let value = Int64(trimmed) else {
            throw APIError.badRequest("\(name.rawName) must be a non-negative integer")
        }
        return value
    }

    /// `Upload-Length` at creation: required (we do not offer deferred lengths, so an unknown
    /// size cannot be checked against the limit: 413), and within `maxBytes` (413 naming it).
    static func uploadLength(_ headers: HTTPFields, maxBytes: Int64) throws -> Int64 {
        if headers[uploadDeferLength] != nil {
            throw APIError.badRequest("Upload-Defer-Length is not supported; send Upload-Length")
        }
        guard let length = try integer(headers, uploadLength) else {
            throw APIError.uploadTooLarge("Upload-Length is required: uploads must declare their size, at most \(describe(bytes: maxBytes))")
        }
        guard length <= maxBytes else {
            throw APIError.uploadTooLarge("the file is \(describe(bytes: length)); uploads are limited to \(describe(bytes: maxBytes))")
        }
        return length
    }

    static func describe(bytes: Int64) -> String {
        let megabytes = Double(bytes) / 1_000_000
        let short = megabytes >= 10 || megabytes == megabytes.rounded() ? String(format: "%.0f", megabytes) : String(format: "%.1f", megabytes)
        return "\(short) MB (\(bytes) bytes)"
    }

    /// The longest `Upload-Metadata` accepted: room for a long description (2,000 characters)
    /// in base64 plus a file name and tags, and no more (the record keeps all of it).
    static let maxMetadataBytes = 8 * 1024

    /// `Upload-Metadata`: comma-separated `key base64value` pairs (the value may be absent).
    /// Keys are ASCII without spaces or commas, unique; values valid base64 of UTF-8.
    static func metadata(_ text: String?) throws -> [String: String] {
        guard let text, !text.trimmingCharacters(in: .whitespaces).isEmpty else { return [:] }
        guard text.utf8.count <= maxMetadataBytes else {
            throw APIError.badRequest("Upload-Metadata is longer than \(maxMetadataBytes) bytes")
        }
        var result: [String: String] = [:]
        for pair in text.split(separator: ",", omittingEmptySubsequences: false) {
            let parts = pair.trimmingCharacters(in: .whitespaces).split(separator: " ", omittingEmptySubsequences: true)
            guard (1...2).contains(parts.count), let key = parts.first, key.utf8.allSatisfy({ $0 > 32 && $0 < 127 }) else {
                throw APIError.badRequest("Upload-Metadata must be comma-separated \"key base64value\" pairs")
            }
            guard result[String(key)] == nil else { throw APIError.badRequest("Upload-Metadata repeats the key \(key)") }
            var value = ""
            if parts.count == 2 {
                guard let data = Data(base64Encoded: String(parts[1])), let decoded = String(data: data, encoding: .utf8) else {
                    throw APIError.badRequest("Upload-Metadata value of \(key) is not base64 of UTF-8 text")
                }
                value = decoded
            }
            result[String(key)] = value
        }
        return result
    }

    /// `Upload-Checksum: <algorithm> <base64 digest>` for the body of this request.
    struct Checksum {
        enum Algorithm: String { case sha1, sha256 }
        let algorithm: Algorithm
        let digest: Data

        func hasher() -> ChunkHasher { ChunkHasher(algorithm) }
    }

    static func checksum(_ text: String?) throws -> Checksum? {
        guard let text else { return nil }
        let parts = text.trimmingCharacters(in: .whitespaces).split(separator: " ")
        guard parts.count == 2 else { throw APIError.badRequest("Upload-Checksum must be \"<algorithm> <base64 digest>\"") }
        guard let algorithm = Checksum.Algorithm(rawValue: parts[0].lowercased()) else {
            throw APIError.badRequest("checksum algorithm \(parts[0]) is not supported; use one of \(checksumAlgorithms)")
        }
        guard let digest = Data(base64Encoded: String(parts[1])) else { throw APIError.badRequest("the Upload-Checksum digest is not base64") }
        return Checksum(algorithm: algorithm, digest: digest)
    }

    /// HTTP-date (RFC 9110 IMF-fixdate) for `Upload-Expires`.
    static func httpDate(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "GMT")!
        let parts = calendar.dateComponents([.weekday, .day, .month, .year, .hour, .minute, .second], from: date)
        let weekdays = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        func two(_ value: Int?) -> String { String(format: "%02d", value ?? 0) }
        return "\(weekdays[(parts.weekday ?? 1) - 1]), \(two(parts.day)) \(months[(parts.month ?? 1) - 1]) \(parts.year ?? 1970) "
            + "\(two(parts.hour)):\(two(parts.minute)):\(two(parts.second)) GMT"
    }
}

/// A running digest of one PATCH body, in the algorithm its `Upload-Checksum` named.
struct ChunkHasher {
    private var sha1 = Insecure.SHA1()
    private var sha256 = SHA256()
    private let algorithm: TusHeaders.Checksum.Algorithm

    init(_ algorithm: TusHeaders.Checksum.Algorithm) { self.algorithm = algorithm }

    mutating func update(_ bytes: UnsafeRawBufferPointer) {
        switch algorithm {
        case .sha1: sha1.update(bufferPointer: bytes)
        case .sha256: sha256.update(bufferPointer: bytes)
        }
    }

    func finalize() -> Data {
        switch algorithm {
        case .sha1: Data(sha1.finalize())
        case .sha256: Data(sha256.finalize())
        }
    }
}
