import Foundation
import ReelModels

/// What the server knows about one resumable upload besides its bytes.
public struct UploadRecord: Codable, Sendable, Equatable {
    /// 32 lowercase hex digits, made by the server; the only thing a request names.
    public var id: String
    /// The declared total size (`Upload-Length`).
    public var length: Int64
    /// `Upload-Metadata` as sent (filename, filetype, description, tags, filter…).
    public var metadata: [String: String]
    public var userID: Int64
    public var createdAt: Date
    /// An incomplete upload is removed after this.
    public var expiresAt: Date
    /// Set once the complete upload became a post.
    public var outcome: ImportedPost?
    /// Who sent the last byte, by name (the post's uploader), set when the upload became
    /// complete, so the import job can run without the request.
    public var uploaderName: String?

    public init(
        id: String, length: Int64, metadata: [String: String], userID: Int64, createdAt: Date, expiresAt: Date,
        outcome: ImportedPost? = nil, uploaderName: String? = nil
    ) {
        self.uploaderName = uploaderName
        self.id = id
        self.length = length
        self.metadata = metadata
        self.userID = userID
        self.createdAt = createdAt
        self.expiresAt = expiresAt
        self.outcome = outcome
    }

    /// A new random upload id.
    public static func makeID() -> String {
        var generator = SystemRandomNumberGenerator()
        return Hex.lowercase((0..<16).map { _ in UInt8.random(in: 0...255, using: &generator) })
    }

    /// Whether `text` has the shape of an id we make; checked before any storage lookup, so no
    /// request string ever becomes part of a path.
    public static func isValidID(_ text: some StringProtocol) -> Bool {
        text.utf8.count == 32 && text.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
    }
}

/// Where upload bytes wait until they are complete. The embedded implementation is a folder on
/// the local disk; a shared one (S3 multipart, a network volume) can take its place when API
/// nodes multiply, as long as one upload's PATCHes reach one node at a time.
public protocol UploadStorage: Sendable {
    func create(_ record: UploadRecord) throws
    func record(id: String) throws -> UploadRecord?
    func save(_ record: UploadRecord) throws
    /// Bytes received so far.
    func offset(id: String) throws -> Int64
    /// Opens the upload's bytes for appending at the current end.
    func openWriter(id: String) throws -> any UploadWriter
    /// The complete bytes as a local file, for the import.
    func completedFile(id: String) throws -> URL
    /// Drops the bytes and the record.
    func remove(id: String)
    /// Drops the bytes only, once they became a post; the record stays to answer HEAD.
    func discardBytes(id: String)
    /// Uploads whose bytes are all there but which have not become a post yet (their import
    /// job may not have been recorded if the server died right after the last byte).
    func awaitingImport() throws -> [UploadRecord]
    /// Ids of uploads whose record says they expired before `now`, plus stray files.
    func expired(now: Date) throws -> [String]
}

/// Appends one PATCH body. Not shared between tasks: one request owns it while it holds the
/// upload's lock.
public protocol UploadWriter: AnyObject {
    /// Offset of the next byte.
    var offset: Int64 { get }
    func write(_ bytes: UnsafeRawBufferPointer) throws
    /// Drops everything after `offset` (a chunk whose checksum failed or that was cut short).
    func rewind(to offset: Int64) throws
    func close()
}
