import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import ReelGeneration
import ReelLibrary
import ReelMedia
import ReelModels
import ReelPipeline
import ReelStorage
import ReelStorageLocal
import ReelStore
import ReelS3
import Testing
@testable import ReelServer

/// Every error reaches HTTP through `ErrorMapping`, and no answer carries a file path or a
/// Swift type name.
@Suite("Error mapping")
struct ErrorMappingTests {
    static let logger = Logger(label: "test")

    func map(_ error: any Error) -> APIError {
        ErrorMapping.apiError(for: error, path: "/api/v1/x", maxBodyBytes: 65_536, logger: Self.logger)
    }

    /// Errors of every module that can reach a handler, with paths in their text.
    static let cases: [(any Error, Int, String)] = [
        (PipelineError.storage("cannot create an upload file in /srv/reel/data/uploads"), 500, "storage_error"),
        (PipelineError.toolMissing("ffprobe"), 500, "internal_error"),
        (PipelineError.toolFailed("ffmpeg", "/srv/reel/data/tmp/job-3/in.mp4: Invalid data"), 500, "internal_error"),
        (PipelineError.inconsistent("post 3 has no media in /srv/reel/data/media/3"), 500, "internal_error"),
        (PipelineError.rejected("/srv/reel/data/tmp/publish/upload-1/clip.mp4: not a video"), 422, "invalid_media"),
        (StoreError.corrupt("row 4 of /srv/reel/data/reelhouse.sqlite"), 500, "internal_error"),
        (StoreError.failed("disk I/O error in /srv/reel/data/reelhouse.sqlite"), 500, "internal_error"),
        // An outage (PostgreSQL restarting) is the client's to retry, not a fault: 503 + Retry-After.
        (StoreError.unavailable("connection refused to 10.0.0.5:5432"), 503, "unavailable"),
        (StoreError.notFound("video 4"), 404, "not_found"),
        (StoreError.invalid("a rating of 9"), 400, "bad_request"),
        (GenerationError.invalidRequest("the prompt is empty"), 400, "bad_request"),
        (GenerationError.transient("connection refused to http://10.0.0.2/v1"), 503, "provider_unavailable"),
        (CocoaError(.fileWriteNoPermission, userInfo: [NSFilePathErrorKey: "/srv/reel/data/media/3/master.m3u8"]), 500, "storage_error"),
        (CocoaError(.fileWriteOutOfSpace, userInfo: [NSFilePathErrorKey: "/srv/reel/data/media/3"]), 507, "insufficient_storage"),
        (POSIXError(.EACCES), 500, "storage_error"),
        (NSError(domain: NSPOSIXErrorDomain, code: Int(EROFS), userInfo: [NSFilePathErrorKey: "/srv/reel"]), 500, "storage_error"),
        (CancellationError(), 500, "internal_error"),
        (S3Error.service(status: 403, code: "SignatureDoesNotMatch", message: "bucket reel-media at /srv/keys"), 500, "storage_error"),
        // A bucket that does not answer at all is an outage too (SeaweedFS restarting).
        (S3Error.transport("GET /reel-media/media/3/master.m3u8: connection refused"), 503, "unavailable"),
    ]

    @Test func everyModulesErrorsHaveAStatusACodeAndNoInternals() throws {
        for (error, status, code) in Self.cases {
            let mapped = map(error)
            #expect(mapped.status.code == status && mapped.code == code, "\(error) → \(mapped)")
            #expect(!mapped.message.contains("/srv") && !mapped.message.contains("/tmp"), "\(mapped.message)")
            for typeName in ["PipelineError", "StoreError", "CocoaError", "NSError", "POSIXError", "GenerationError", "Cancellation", "S3Error"] {
                #expect(!mapped.message.contains(typeName), "\(mapped.message)")
            }
        }
    }

    @Test func pathsAreRedactedButAPIAddressesKept() {
        #expect(PathRedaction.redact("/srv/a/b.mp4: Invalid data") == "a server file: Invalid data")
        #expect(PathRedaction.redact("see /api/v1/generations/providers") == "see /api/v1/generations/providers")
        #expect(PathRedaction.redact("cannot open \"/etc/x\" (denied)") == "cannot open \"a server file\" (denied)")
        #expect(PathRedaction.redact("4 / 5 and a/b") == "4 / 5 and a/b")
    }

    /// A storage fault inside a real route: the uploads folder cannot take a file.
    @Test func aStorageFailureIsAClearErrorWithoutPaths() async throws {
        let server = try await TestServer()
        defer { try? FileManager.default.removeItem(at: server.root) }
        let uploads = server.root.appendingPathComponent("uploads")
        try FileManager.default.createDirectory(at: server.root, withIntermediateDirectories: true)
        // A plain file where the folder should be: creating anything inside it fails, even as root.
        try Data("not a folder".utf8).write(to: uploads)
        let storage = LocalUploadStorage(root: uploads)
        var dependencies = server.dependencies
        dependencies.uploads = UploadDependencies(
            storage: storage, imports: UploadImports(jobs: server.store, storage: storage), policy: UploadPolicy()
        )
        let router = buildRouter(configuration: server.configuration, dependencies: dependencies).0
        try await Application(router: router).test(.router) { client in
            let headers: HTTPFields = [HTTPField.Name("Tus-Resumable")!: "1.0.0", HTTPField.Name("Upload-Length")!: "10"]
            let answer = try await client.send(.post, "/api/v1/uploads", key: server.ownerKey, headers: headers)
            #expect(answer.status == .internalServerError)
            let error = try decode(APIErrorEnvelope.self, answer.body)
            #expect(error.error.code == "storage_error")
            let text = String(decoding: answer.body, as: UTF8.self)
            #expect(!text.contains("/") && !text.contains("Error("), "\(text)")
        }
    }
}
