import Foundation

/// Where a tus upload stands after a request.
public struct UploadStatus: Sendable, Equatable {
    /// The upload's path on the server (`/api/v1/uploads/<id>`): keep it to resume later.
    public var location: String
    public var offset: Int64
    public var length: Int64?
    /// Set once the last byte arrived: the post it became and the job making its media.
    public var postID: Int64?
    public var jobID: Int64?

    public var isComplete: Bool { postID != nil }
}

/// The server's tus 1.0 endpoint, request by request. `ReelUploader` drives these for a file.
extension ReelClient {
    static let tusHeaders = ["Tus-Resumable": "1.0.0"]

    /// Creates an upload of `length` bytes. Metadata keys the server reads: `filename`,
    /// `filetype`, `description`, `tags` (comma-separated) and `filter` (a look).
    public func createUpload(length: Int64, metadata: [String: String]) async throws(ReelAPIError) -> UploadStatus {
        var headers = Self.tusHeaders
        headers["Upload-Length"] = String(length)
        headers["Upload-Metadata"] = Self.encodeUploadMetadata(metadata)
        let response = try await send("POST", "/api/v1/uploads", extraHeaders: headers)
        guard let location = response.headers["location"], location.hasPrefix("/") else {
            throw .decoding("the server created an upload without a Location")
        }
        return Self.uploadStatus(location: location, response)
    }

    /// The largest upload the server takes (tus discovery's `Tus-Max-Size`), nil when it
    /// names none: a client refuses a bigger file before sending a byte.
    public func uploadLimit() async throws(ReelAPIError) -> Int64? {
        try await send("OPTIONS", "/api/v1/uploads", extraHeaders: Self.tusHeaders).headers["tus-max-size"].flatMap { Int64($0) }
    }

    /// Asks how many bytes the server has (to resume after a pause, a crash or a relaunch).
    public func uploadStatus(at location: String) async throws(ReelAPIError) -> UploadStatus {
        Self.uploadStatus(location: location, try await send("HEAD", location, extraHeaders: Self.tusHeaders))
    }

    /// Sends `chunk` at `offset`. A wrong offset is `.rejected(status: 409, …)`; ask
    /// `uploadStatus(at:)` for the right one.
    public func appendUpload(at location: String, offset: Int64, chunk: Data) async throws(ReelAPIError) -> UploadStatus {
        var headers = Self.tusHeaders
        headers["Upload-Offset"] = String(offset)
        headers["Content-Type"] = "application/offset+octet-stream"
        return Self.uploadStatus(location: location, try await send("PATCH", location, body: chunk, extraHeaders: headers))
    }

    /// Discards an unfinished upload.
    public func deleteUpload(at location: String) async throws(ReelAPIError) {
        _ = try await send("DELETE", location, extraHeaders: Self.tusHeaders)
    }

    static func uploadStatus(location: String, _ response: HTTPResponseValue) -> UploadStatus {
        UploadStatus(
            location: location, offset: response.headers["upload-offset"].flatMap { Int64($0) } ?? 0,
            length: response.headers["upload-length"].flatMap { Int64($0) },
            postID: response.headers["upload-post-id"].flatMap { Int64($0) },
            jobID: response.headers["upload-job-id"].flatMap { Int64($0) }
        )
    }

    /// `key base64(value)` pairs, sorted so a request is reproducible.
    static func encodeUploadMetadata(_ metadata: [String: String]) -> String {
        metadata.sorted { $0.key < $1.key }.map { "\($0.key) \(Data($0.value.utf8).base64EncodedString())" }.joined(separator: ",")
    }
}
