import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import ReelJobs
import ReelLibrary
import ReelModels
import ReelStorage
import ReelStore

/// What the upload routes need; absent, they answer 404 like any unknown path.
public struct UploadDependencies: Sendable {
    public var storage: any UploadStorage
    /// Records a complete upload's import job and finds it again; a job worker with an
    /// `UploadImportJobHandler` (in this process or another) runs it.
    public var imports: UploadImports
    public var policy: UploadPolicy
    /// How long the request that brings the last byte waits for the import job before it
    /// answers with the job's id alone (ffprobe takes well under a second; a busy or absent
    /// worker must not hold the request open for long).
    public var importWait: Duration

    public init(storage: any UploadStorage, imports: UploadImports, policy: UploadPolicy, importWait: Duration = .seconds(20)) {
        self.importWait = importWait
        self.storage = storage
        self.imports = imports
        self.policy = policy
    }
}

/// tus 1.0 resumable uploads (core, creation, creation-with-upload, termination, expiration,
/// checksum) on `/api/v1/uploads`. Bytes stream from the socket to the upload storage (the data
/// folder or the bucket) chunk by chunk; one upload's writes are serialised on a node by
/// `UploadLocks` and across nodes by the storage (see `S3UploadStorage`); an upload belongs to
/// its creator (anyone else: 404).
///
/// When the last byte arrives the completion is recorded durably first (an `upload_import`
/// job), so a server that dies then still imports it when a worker starts again. The completing
/// request then waits (at most `importWait`) for that job, so its response can name the post
/// and its transcode job (`Upload-Post-Id`, `Upload-Job-Id`) or refuse the file (422), as
/// clients expect. An import that takes longer is answered with the import job's id alone;
/// HEAD names the post once the job has run.
struct UploadController {
    let dependencies: UploadDependencies
    /// Which library an upload may go to (its `library` metadata, or the uploader's first).
    let libraries: any LibraryGrantStore
    /// Wakes the completing request when a worker in this process changes a job.
    let activity: JobActivity
    let now: @Sendable () -> Date
    let locks = UploadLocks()
    /// How long a PATCH waits for another one on the same upload before 423.
    var lockWait: Duration = .seconds(10)
    /// The longest the waiting request goes without reading the import job: a worker on
    /// another node sends no wake-up here.
    var fallbackPoll: Duration = .milliseconds(500)

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
            let offset = record.outcome == nil ? try await storage.offset(id: record.id) : record.length
            var importJob: Job?
            if record.outcome == nil, offset == record.length {
                // Complete but not a post yet: its import is queued or running. Recording it is
                // a no-op unless the server died between the last byte and the record.
                importJob = try await dependencies.imports.record(record, now: now())
            }
            var headers = progressHeaders(record, offset: offset, importJob: importJob)
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
            try await locks.withLock(record.id, wait: lockWait) { await storage.remove(id: record.id) }
            return Response(status: .noContent)
        }
    }

    private func create(_ request: Request, context: AppRequestContext) async throws -> Response {
        try TusHeaders.requireVersion(request.headers)
        let user = try context.requireUser()
        let length = try TusHeaders.uploadLength(request.headers, maxBytes: policy.maxBytes)
        var metadata = try TusHeaders.metadata(request.headers[TusHeaders.uploadMetadata])
        try Self.validate(metadata)
        // Decided now, before any byte is sent, and recorded: the import later reads it as is.
        metadata[UploadMetadata.libraryKey] = String(try await library(for: metadata, user: user))
        let carriesData = request.headers[.contentType]?.lowercased().hasPrefix(TusHeaders.offsetContentType) == true
        if !carriesData, let declared = request.headers[.contentLength], declared != "0" {
            throw APIError.badRequest("a creation request with a body needs Content-Type \(TusHeaders.offsetContentType)")
        }
        let created = now()
        let record = UploadRecord(
            id: UploadRecord.makeID(), length: length, metadata: metadata, userID: user.id, createdAt: created,
            expiresAt: created.addingTimeInterval(policy.expirySeconds)
        )
        try await storage.create(record)
        var response = Response(status: .created)
        if carriesData || length == 0 {
            do {
                let checksum = try TusHeaders.checksum(request.headers[TusHeaders.uploadChecksum])
                let appended = try await append(request.body, to: record, at: 0, checksum: checksum, username: user.name)
                response.headers = appended.headers
            } catch {
                // The client never learned this upload's URL, so nothing could resume it.
                await storage.remove(id: record.id)
                throw error
            }
        } else {
            response.headers = progressHeaders(record, offset: 0)
        }
        response.headers[.location] = "/api/v1/uploads/\(record.id)"
        return response
    }

    /// The library named by the `library` metadata, which must be granted to the uploader
    /// (else 404, as for any library not granted); without it the first library they may see.
    private func library(for metadata: [String: String], user: User) async throws -> Int64 {
        let requested: Int64?
        do {
            requested = try UploadMetadata.library(metadata[UploadMetadata.libraryKey])
        } catch let error as PipelineError {
            throw APIError.badRequest(error.description)
        }
        switch try await libraries.scope(userID: user.id, requested: requested) {
        case .all: return requested ?? Post.defaultLibraryID
        case .only(let ids):
            guard let first = requested ?? ids.min() else { throw APIError.forbidden("no library is granted to you to upload into") }
            return first
        }
    }

    /// Checks the metadata that becomes the post when the upload is created, so a bad value is
    /// refused before any byte is sent.
    static func validate(_ metadata: [String: String]) throws {
        do {
            _ = try UploadMetadata.filter(metadata["filter"])
            _ = try UploadMetadata.story(metadata[UploadMetadata.storyKey])
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
    /// none at all, 410 for one that expired but is not swept yet (unless it is complete and
    /// its import is still to come: expiry waits for that, see `UploadImports.mayExpire`).
    private func owned(_ context: AppRequestContext) async throws -> UploadRecord {
        let user = try context.requireUser()
        guard let id = context.parameters.get("id"), UploadRecord.isValidID(id),
              let record = try await storage.record(id: id), record.userID == user.id
        else { throw APIError.notFound("the upload") }
        if record.outcome == nil, try await dependencies.imports.mayExpire(record, now: now()) {
            await storage.remove(id: id)
            throw APIError.gone("the upload expired; start it again")
        }
        return record
    }

    /// tus offsets plus ours: a finished upload names its post and the job making its media; a
    /// complete one still importing names its import job.
    private func progressHeaders(_ record: UploadRecord, offset: Int64, importJob: Job? = nil) -> HTTPFields {
        var headers = HTTPFields()
        headers[TusHeaders.uploadOffset] = String(offset)
        headers[TusHeaders.uploadLength] = String(record.length)
        if let outcome = record.outcome {
            headers[TusHeaders.uploadPostID] = String(outcome.postID)
            if let job = outcome.jobIDs.last { headers[TusHeaders.uploadJobID] = String(job) }
        } else if let importJob {
            headers[TusHeaders.uploadJobID] = String(importJob.id)
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
            guard var current = try await storage.record(id: record.id) else { throw APIError.notFound("the upload") }
            if current.outcome != nil {
                guard offset == current.length else { throw APIError.conflict("the upload is complete; its offset is \(current.length)") }
                return Response(status: .noContent, headers: progressHeaders(current, offset: current.length))
            }
            let stored = try await storage.offset(id: current.id)
            guard offset == stored else {
                throw APIError.conflict("Upload-Offset is \(offset) but the server has \(stored) bytes; send from \(stored)")
            }
            let writer = try await storage.openWriter(id: current.id, at: stored)
            let written: Int64
            do {
                try await ChunkAppender(writer: writer, limit: current.length, checksum: checksum).append(body)
                written = writer.offset
                await writer.close()
            } catch {
                await writer.close()
                throw error
            }
            guard written == current.length else {
                return Response(status: .noContent, headers: progressHeaders(current, offset: written))
            }
            current.uploaderName = username
            try await storage.save(current)
            let job = try await dependencies.imports.record(current, now: now())
            return try await awaitImport(of: current, job: job)
        }
    }

    /// Waits (at most `importWait`) for the import job of a complete upload, then answers with
    /// what it became: the post and its transcode job; 422 with the reason for a file that
    /// cannot be published (nothing of it is kept); or, while the job has not run yet, the
    /// import job's id, for the client to follow.
    private func awaitImport(of upload: UploadRecord, job: Job) async throws -> Response {
        let clock = ContinuousClock()
        let deadline = clock.now + dependencies.importWait
        var current = job
        var seen = activity.current
        while !current.state.isTerminal, clock.now < deadline {
            await activity.wait(after: seen, atMost: min(fallbackPoll, deadline - clock.now))
            try Task.checkCancellation()
            seen = activity.current
            guard let next = try await dependencies.imports.jobs.job(id: job.id) else { break }
            current = next
        }
        if current.state == .succeeded, let imported = try await storage.record(id: upload.id), imported.outcome != nil {
            return Response(status: .noContent, headers: progressHeaders(imported, offset: imported.length))
        }
        if current.state == .failed {
            let reason = current.lastError ?? "the upload could not be imported"
            // The job removed a file it refused; one whose import failed otherwise can be retried.
            guard try await storage.record(id: upload.id) != nil else { throw APIError.invalidMedia(reason) }
        }
        return Response(status: .noContent, headers: progressHeaders(upload, offset: upload.length, importJob: current))
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
