import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import ReelJobs
import ReelModels
import ReelStorage
import ReelStore

/// Jobs of every kind (transcode, generation, upload_import) a person can follow: list, one
/// job with its ETA, a server-sent events stream of its state and percent until it ends,
/// cancel and retry. A member sees the jobs of their own work and of posts in libraries they are
/// granted (any other job is a 404, as one that does not exist); only the owner role or the
/// person whose work it is (who uploaded the post or the upload, who asked for the generation)
/// may cancel or retry it. The server's own upkeep (`sweep`, `upload_expiry`, `stories.expire`, `events.expire`, `recs.neighbors`, `storage.sweep`) is the owner's alone and is
/// listed only when asked for by kind, so it never clutters a person's view of their work.
struct JobController {
    let jobs: any JobStore
    let library: any LibraryStore
    let grants: any LibraryGrantStore
    /// Whose a generation job is; nil when generations are off.
    var generations: (any GenerationStore)?
    /// Whose an upload import job is; nil when uploads are off.
    var uploads: (any UploadStorage)?
    /// Wakes the stream when a worker in this process changes a job.
    let activity: JobActivity
    let now: @Sendable () -> Date
    /// Per-user cap and lifetime of event streams.
    let streams: EventStreamSlots
    /// The longest a stream goes without reading its job: what a worker on another node
    /// writes (progress about once a second) sends no wake-up here.
    var fallbackPoll: Duration = .seconds(1)
    /// A comment line this often keeps proxies from closing a quiet stream.
    var keepAliveInterval: Duration = .seconds(15)

    func register(_ routes: APIRoutes) {
        routes.on(.get, "/api/v1/jobs", access: .user, "Jobs of every kind: state, progress, failures (state, kind, limit)") { request, context in
            let query = request.uri.queryParameters
            var states: [JobState]?
            if let text = query["state"], !text.isEmpty {
                guard let state = JobState(rawValue: String(text)) else { throw APIError.badRequest("state must be queued, running, succeeded or failed") }
                states = [state]
            }
            var kinds = JobKind.work
            if let text = query["kind"], !text.isEmpty {
                guard let kind = JobKind(rawValue: String(text)) else {
                    throw APIError.badRequest("kind must be one of \(JobKind.allCases.map(\.rawValue).joined(separator: ", "))")
                }
                if kind.isMaintenance { _ = try context.requireOwner() }
                kinds = [kind]
            }
            let limit = try FeedController.limit(from: query)
            let at = now()
            let user = try context.requireUser()
            let scope = try await grants.scope(userID: user.id, requested: nil)
            var list: [APIJob] = []
            for job in try await jobs.jobs(states: states, kinds: kinds, limit: limit) where try await isVisible(job, to: user, scope: scope) {
                list.append(APIJob(job: job, now: at))
            }
            return try Response.json(APIList(items: list), context: context)
        }
        routes.on(.get, "/api/v1/jobs/{id}", access: .user, "One job: state, progress, ETA, failure reason") { _, context in
            try Response.json(APIJob(job: try await job(context), now: now()), context: context)
        }
        routes.on(.get, "/api/v1/jobs/{id}/events", access: .user, "Server-sent events: the job's state and progress until it ends") { _, context in
            let user = try context.requireUser()
            let first = try await job(context)
            guard let slot = await streams.take(userID: user.id) else {
                throw APIError.quotaExceeded("at most \(streams.perUser) event streams may be open at once; close one first", retryAfter: 5)
            }
            return Response(
                status: .ok,
                headers: [.contentType: "text/event-stream; charset=utf-8", .cacheControl: "no-store", HTTPField.Name("X-Accel-Buffering")!: "no"],
                body: ResponseBody { [self] writer in
                    do {
                        try await stream(first, to: &writer)
                    } catch {
                        await streams.give(slot)
                        throw error
                    }
                    await streams.give(slot)
                }
            )
        }
        routes.on(.post, "/api/v1/jobs/{id}/cancel", access: .user, "Cancel a queued or running job (it fails with the reason)") { _, context in
            let user = try context.requireUser()
            let target = try await job(context)
            try await requireControl(of: target, by: user)
            guard let cancelled = try await jobs.cancel(jobID: target.id, reason: "cancelled by \(user.name)", now: now()) else {
                throw APIError.notFound("job \(target.id)")
            }
            activity.changed()
            return try Response.json(APIJob(job: cancelled, now: now()), context: context)
        }
        routes.on(.post, "/api/v1/jobs/{id}/retry", access: .user, "Run a failed job again with fresh attempts") { _, context in
            let user = try context.requireUser()
            let target = try await job(context)
            try await requireControl(of: target, by: user)
            guard target.state == .failed else { throw APIError.conflict("only a failed job can be retried; this one is \(target.state.rawValue)") }
            guard let retried = try await jobs.retry(jobID: target.id, now: now()) else { throw APIError.notFound("job \(target.id)") }
            activity.changed()
            return try Response.json(APIJob(job: retried, now: now()), context: context)
        }
    }

    private func job(_ context: AppRequestContext) async throws -> Job {
        guard let text = context.parameters.get("id"), let id = Int64(text) else { throw APIError.badRequest("the job id must be an integer") }
        let user = try context.requireUser()
        guard let job = try await jobs.job(id: id),
              try await isVisible(job, to: user, scope: grants.scope(userID: user.id, requested: nil))
        else { throw APIError.notFound("job \(id)") }
        return job
    }

    /// Owners see every job. Upkeep jobs are the owner's business; to anyone else they do not
    /// exist. A member sees their own work's jobs and those of posts in their libraries.
    private func isVisible(_ job: Job, to user: User, scope: LibraryScope) async throws -> Bool {
        if user.role == .owner { return true }
        if job.kind.isMaintenance { return false }
        let post = try await post(of: job)
        if let post, scope.contains(post.libraryID) { return true }
        return try await isOwnWork(job, of: user, post: post)
    }

    private func requireControl(of job: Job, by user: User) async throws {
        if user.role == .owner { return }
        guard try await isOwnWork(job, of: user, post: post(of: job)) else {
            throw APIError.forbidden("only the owner or the uploader can change this job")
        }
    }

    private func post(of job: Job) async throws -> Post? {
        try await job.postID.asyncMap { try await library.post(id: $0) } ?? nil
    }

    /// Whether the job is `user`'s own work: the post they uploaded (`post`, read once by the
    /// caller), the generation they asked for, the upload they sent.
    private func isOwnWork(_ job: Job, of user: User, post: Post?) async throws -> Bool {
        if post?.createdBy == user.id { return true }
        switch job.kind {
        case .generation:
            guard let id = job.subject.flatMap({ Int64($0) }), let generation = try await generations?.generation(id: id) else { return false }
            return generation.userID == user.id
        case .uploadImport:
            guard let id = job.subject, UploadRecord.isValidID(id), let upload = try await uploads?.record(id: id) else { return false }
            return upload.userID == user.id
        case .transcode, .sweep, .uploadExpiry, .storiesExpire, .eventsExpire, .recsNeighbors, .storageSweep:
            return false
        }
    }

    /// `event: job` with the job as JSON whenever its state, progress or error changes, then
    /// the stream ends after the terminal state. A vanished job (its post deleted) ends it too.
    private func stream(_ first: Job, to writer: inout any ResponseBodyWriter) async throws {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        try await writer.write(ByteBuffer(string: "retry: 2000\n\n"))
        var current: Job? = first
        var sent: Job?
        var seen = activity.current
        let clock = ContinuousClock()
        var lastWrite = clock.now
        let ends = clock.now + streams.lifetime
        // Past its lifetime the stream ends without a terminal state; EventSource reconnects.
        while let job = current, clock.now < ends {
            if sent.map({ Self.differs($0, job) }) ?? true {
                let data = try encoder.encode(APIJob(job: job, now: now()))
                try await writer.write(ByteBuffer(string: "event: job\ndata: \(String(decoding: data, as: UTF8.self))\n\n"))
                sent = job
                lastWrite = clock.now
            } else if clock.now - lastWrite >= keepAliveInterval {
                try await writer.write(ByteBuffer(string: ": keep-alive\n\n"))
                lastWrite = clock.now
            }
            if job.state.isTerminal { break }
            await activity.wait(after: seen, atMost: min(fallbackPoll, keepAliveInterval))
            try Task.checkCancellation()
            seen = activity.current
            current = try await jobs.job(id: job.id)
        }
        try await writer.finish(nil)
    }

    static func differs(_ old: Job, _ new: Job) -> Bool {
        old.state != new.state || abs(old.progress - new.progress) >= 0.001 || old.lastError != new.lastError || old.attempts != new.attempts
    }
}
