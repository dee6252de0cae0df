import Foundation
import NIOCore
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

/// Where upload bytes wait until they are complete: a folder on the local disk
/// (`LocalUploadStorage`), or a bucket shared by every node (`S3UploadStorage`), where any node
/// can take over an upload another one started. Async, so a storage on the network never holds
/// a thread while it waits; the local one does its small file operations inline as before.
extension UploadRecord {
    /// The record as stored beside the bytes (a file in the data folder, an object in a
    /// bucket): JSON with sorted keys and instants in unix seconds, the same in both.
    public func encoded() throws -> Data { try Self.encoder.encode(self) }

    public init(encoded data: Data) throws { self = try Self.decoder.decode(UploadRecord.self, from: data) }

    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .secondsSince1970
        encoder.outputFormatting = [.sortedKeys]
        return encoder
    }()

    private static let decoder: JSONDecoder = {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .secondsSince1970
        return decoder
    }()
}

public protocol UploadStorage: Sendable {
    func create(_ record: UploadRecord) async throws
    func record(id: String) async throws -> UploadRecord?
    func save(_ record: UploadRecord) async throws
    /// Bytes received so far (stored for good: a part still in flight does not count).
    func offset(id: String) async throws -> Int64
    /// Opens the upload's bytes for appending at `offset`: the offset the caller checked against
    /// the client's `Upload-Offset` under its lock. Never read again here: on a shared bucket
    /// another node's part may land in between, and a writer that re-read the offset would
    /// append this request's bytes after that part instead of racing it for the offset the
    /// client named (both PATCHes answered 204, the second one's bytes in the wrong place).
    func openWriter(id: String, at offset: Int64) async throws -> any UploadWriter
    /// Runs `body` with the complete bytes as a local file, for the import. A storage that
    /// assembled the file for this call deletes it afterwards (hard links made meanwhile stay).
    func withCompletedFile<T>(id: String, _ body: (URL) async throws -> T) async throws -> T
    /// Drops the bytes and the record.
    func remove(id: String) async
    /// Drops the bytes only, once they became a post; the record stays to answer HEAD.
    func discardBytes(id: String) async
    /// Uploads whose bytes are all there but which have not become a post yet (their import
    /// job may not have been recorded if the server died right after the last byte).
    func awaitingImport() async throws -> [UploadRecord]
    /// Ids of uploads whose record says they expired before `now`, plus stray files.
    func expired(now: Date) async throws -> [String]
}

/// Appends one PATCH body. Not shared between tasks: one request owns it while it holds the
/// upload's lock, and awaits each call before the next.
public protocol UploadWriter: AnyObject {
    /// Offset of the next byte (bytes taken, stored or still held by the writer).
    var offset: Int64 { get }
    /// Takes the next bytes. A writer may hold some back (up to a part's worth) until `flush`.
    func write(_ bytes: ByteBuffer) async throws
    /// Stores whatever is held back: afterwards `offset` bytes are in the storage.
    func flush() async throws
    /// Drops everything this writer wrote after `offset` (a chunk whose checksum failed or
    /// that overshot). Never touches bytes another writer stored.
    func rewind(to offset: Int64) async throws
    func close() async
}
