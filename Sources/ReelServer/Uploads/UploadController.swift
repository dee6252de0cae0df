import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import ReelModels
import ReelPipeline

/// What the upload routes need; absent, they answer 404 like any unknown path.
public struct UploadDependencies: Sendable {
    public var storage: any UploadStorage
    public var publisher: UploadPublisher
    public var policy: UploadPolicy

    public init(storage: any UploadStorage, publisher: UploadPublisher, policy: UploadPolicy) {
        self.storage = storage
        self.publisher = publisher
        self.policy = policy
    }
}

/// tus 1.0 resumable uploads (core, creation, creation-with-upload, termination, expiration,
/// checksum) on `/api/v1/uploads`. Bytes stream from the socket to disk chunk by chunk; one
/// upload's writes are serialised; an upload belongs to its creator (anyone else: 404). When
/// the last byte arrives the file goes through import (ffprobe validation, transcode job) and
/// the completing response names the job and the post (`Upload-Job-Id`, `Upload-Post-Id`).
struct UploadController {
    let dependencies: UploadDependencies
    let now: @Sendable () -> Date
    let locks = UploadLocks()
    /// How long a PATCH waits for another one on the same upload before 423.
    var lockWait: Duration = .seconds(10)

    private var storage: any UploadStorage { dependencies.storage }
    private var policy: UploadPolicy { dependencies.policy }

    func register(_ routes: APIRoutes) {
        routes.on(.options, "/api/v1/uploads", access: .user, "tus discovery: version, extensions, size limit, checksums") { _, _ in
            var headers = HTTPFields()
            headers[TusHeaders.tusVersion] = TusHeaders.version
            headers[TusHeaders.tusExtension] = TusHeaders.extensions
            headers[TusHeaders.tusMaxSize] = String(policy.maxBytes)
            headers[TusHeaders.tusChecksumAlgorithm] = TusHeaders.checksumAlgorithms
            return Response(status: .noContent, headers: headers)
        }
        routes.on(.post, "/api/v1/uploads", access: .user, "tus creation (and creation-with-upload)") { request, context in
            try await create(request, context: context)
        }
        routes.on(.head, "/api/v1/uploads/{id}", access: .user, "tus: the upload's offset and length") { request, context in
            try TusHeaders.requireVersion(request.headers)
            let record = try await owned(context)
            var headers = progressHeaders(record, offset: record.outcome == nil ? try storage.offset(id: record.id) : record.length)
            headers[.cacheControl] = "no-store"
            return Response(status: .ok, headers: headers)
        }
        routes.on(.patch, "/api/v1/uploads/{id}", access: .user, "tus: append bytes at Upload-Offset (checksum optional)") { request, context in
            try TusHeaders.requireVersion(request.headers)
            guard request.headers[.contentType]?.lowercased().hasPrefix(TusHeaders.offsetContentType) == true else {
                throw APIError.badRequest("Content-Type must be \(TusHeaders.offsetContentType)")
            }
            guard let offset = try TusHeaders.integer(request.headers, TusHeaders.uploadOffset) else {
                throw APIError.badRequest("Upload-Offset is required")
            }
            let checksum = try TusHeaders.checksum(request.headers[TusHeaders.uploadChecksum])
            let record = try await owned(context)
            return try await append(request.body, to: record, at: offset, checksum: checksum, username: try context.requireUser().name)
        }
        routes.on(.delete, "/api/v1/uploads/{id}", access: .user, "tus termination: discard an upload") { request, context in
            try TusHeaders.requireVersion(request.headers)
            let record = try await owned(context)
            try await locks.withLock(record.id, wait: lockWait) { storage.remove(id: record.id) }
            return Response(status: .noContent)
        }
    }

    private func create(_ request: Request, context: AppRequestContext) async throws -> Response {
        try TusHeaders.requireVersion(request.headers)
        let user = try context.requireUser()
        let length = try TusHeaders.uploadLength(request.headers, maxBytes: policy.maxBytes)
        let metadata = try TusHeaders.metadata(request.headers[TusHeaders.uploadMetadata])
        try Self.validate(metadata)
        let carriesData = request.headers[.contentType]?.lowercased().hasPrefix(TusHeaders.offsetContentType) == true
        if !carriesData, let declared = request.headers[.contentLength], declared != "0" {
            throw APIError.badRequest("a creation request with a body needs Content-Type \(TusHeaders.offsetContentType)")
        }
        let created = now()
        let record = UploadRecord(
            id: UploadRecord.makeID(), length: length, metadata: metadata, userID: user.id, createdAt: created,
            expiresAt: created.addingTimeInterval(policy.expirySeconds)
        )
        try storage.create(record)
        var response = Response(status: .created)
        if carriesData || length == 0 {
            do {
                let checksum = try TusHeaders.checksum(request.headers[TusHeaders.uploadChecksum])
                let appended = try await append(request.body, to: record, at: 0, checksum: checksum, username: user.name)
                response.headers = appended.headers
            } catch {
                // The client never learned this upload's URL, so nothing could resume it.
                storage.remove(id: record.id)
                throw error
            }
        } else {
            response.headers = progressHeaders(record, offset: 0)
        }
        response.headers[.location] = "/api/v1/uploads/\(record.id)"
        return response
    }

    /// Checks the metadata that becomes the post when the upload is created, so a bad value is
    /// refused before any byte is sent.
    static func validate(_ metadata: [String: String]) throws {
        do {
            _ = try UploadMetadata.filter(metadata["filter"])
        } catch let error as PipelineError {
            throw APIError.badRequest(error.description)
        }
        if let description = metadata["description"], description.count > 2000 {
            throw APIError.badRequest("the description is longer than 2000 characters")
        }
        let tags = UploadMetadata.tags(metadata["tags"])
        if !tags.isEmpty { _ = try VideoController.validNames(tags, what: "tag") }
        if let name = metadata["filename"], name.utf8.count > 255 { throw APIError.badRequest("the filename is longer than 255 bytes") }
    }

    /// The caller's upload named in the path; 404 for a malformed id, someone else's upload or
    /// none at all, 410 for one that expired but is not swept yet.
    private func owned(_ context: AppRequestContext) async throws -> UploadRecord {
        let user = try context.requireUser()
        guard let id = context.parameters.get("id"), UploadRecord.isValidID(id),
              let record = try storage.record(id: id), record.userID == user.id
        else { throw APIError.notFound("the upload") }
        if record.outcome == nil, record.expiresAt <= now() {
            storage.remove(id: id)
            throw APIError.gone("the upload expired; start it again")
        }
        return record
    }

    private func progressHeaders(_ record: UploadRecord, offset: Int64) -> HTTPFields {
        var headers = HTTPFields()
        headers[TusHeaders.uploadOffset] = String(offset)
        headers[TusHeaders.uploadLength] = String(record.length)
        if let outcome = record.outcome {
            headers[TusHeaders.uploadPostID] = String(outcome.postID)
            if let job = outcome.jobIDs.last { headers[TusHeaders.uploadJobID] = String(job) }
        } else {
            headers[TusHeaders.uploadExpires] = TusHeaders.httpDate(record.expiresAt)
        }
        return headers
    }

    /// Appends `body` at `offset` under the upload's lock; publishes when the upload is complete.
    private func append(
        _ body: RequestBody, to record: UploadRecord, at offset: Int64, checksum: TusHeaders.Checksum?, username: String
    ) async throws -> Response {
        try await locks.withLock(record.id, wait: lockWait) {
            // Re-read under the lock: a PATCH that held it may have completed the upload.
            guard var current = try storage.record(id: record.id) else { throw APIError.notFound("the upload") }
            if current.outcome != nil {
                guard offset == current.length else { throw APIError.conflict("the upload is complete; its offset is \(current.length)") }
                return Response(status: .noContent, headers: progressHeaders(current, offset: current.length))
            }
            let stored = try storage.offset(id: current.id)
            guard offset == stored else {
                throw APIError.conflict("Upload-Offset is \(offset) but the server has \(stored) bytes; send from \(stored)")
            }
            let writer = try storage.openWriter(id: current.id)
            defer { writer.close() }
            try await ChunkAppender(writer: writer, limit: current.length, checksum: checksum).append(body)
            if writer.offset == current.length {
                current.outcome = try await publish(current, username: username)
                try storage.save(current)
            }
            return Response(status: .noContent, headers: progressHeaders(current, offset: writer.offset))
        }
    }

    /// The complete file becomes a post; a refused file is deleted (nothing is stored) and its
    /// reason is the response.
    private func publish(_ record: UploadRecord, username: String) async throws -> ImportedPost {
        do {
            return try await dependencies.publisher.publish(record, file: try storage.completedFile(id: record.id), username: username)
        } catch PipelineError.rejected(let reason) {
            storage.remove(id: record.id)
            throw APIError.invalidMedia("the upload is not a video or image we can publish: \(reason)")
        }
    }
}

/// tus wants `Tus-Resumable` on every response of its endpoint, errors included; this sits
/// outside `ErrorMiddleware` so it sees those too.
struct TusResumableMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard request.uri.path.hasPrefix("/api/v1/uploads") else { return try await next(request, context) }
        var response: Response
        do {
            response = try await next(request, context)
        } catch let error as APIError {
            // `ErrorMiddleware` (inside this one) has already turned every failure into an APIError.
            response = try error.response(from: request, context: context)
        }
        response.headers[TusHeaders.tusResumable] = TusHeaders.version
        return response
    }
}
