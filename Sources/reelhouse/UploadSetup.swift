import Foundation
import Logging
import ReelLibrary
import ReelPipeline
import ReelS3
import ReelServer
import ReelStorage
import ReelStorageLocal

/// The tus upload endpoint's parts: files under `<data>/uploads` (or, with media in a bucket,
/// `uploads/` in the bucket, so every node sees every upload), the size policy from the
/// configuration, and the import path every clip takes.
enum UploadSetup {
    /// Where uploads wait: the bucket when `storage` is one, else the data folder.
    static func storage(context: AppContext) throws -> any UploadStorage {
        if let bucket = context.storage as? S3MediaStorage {
            return S3UploadStorage(
                client: bucket.client, location: bucket.location,
                scratch: context.dataFolder.tempRoot.appendingPathComponent("uploads", isDirectory: true), logger: context.logger
            )
        }
        let storage = LocalUploadStorage(root: context.dataFolder.uploadsRoot)
        do {
            try storage.prepare()
        } catch {
            throw CLIError("serve: cannot create \(context.dataFolder.uploadsRoot.path): \(error.localizedDescription)")
        }
        return storage
    }

    static func dependencies(context: AppContext, configuration: ServerConfiguration) throws -> UploadDependencies {
        let storage = try storage(context: context)
        let uploads = configuration[UploadSettings.self]
        let policy = UploadPolicy(
            maxBytes: Int64(uploads.uploadMaxBytes), compressAboveBytes: Int64(uploads.uploadCompressAboveBytes),
            expirySeconds: TimeInterval(uploads.uploadExpirySeconds)
        )
        return UploadDependencies(storage: storage, imports: UploadImports(jobs: context.store, storage: storage), policy: policy,
            importWait: .milliseconds(Int(uploads.uploadImportWaitSeconds * 1000))
        )
    }

    /// At start-up: records the import of complete uploads whose import was never recorded (the
    /// server died on their last byte). A bucket that cannot be listed (down, or refusing the
    /// keys) does not stop the node: it says so, every upload request then answers
    /// `storage_error` itself, and a HEAD of such an upload records its import too.
    static func recoverPending(_ uploads: UploadDependencies, logger: Logger) async throws {
        do {
            try await uploads.imports.recoverPending(now: Date())
        } catch let error as any StorageFault {
            logger.error("could not look for complete uploads awaiting their import", metadata: ["error": "\(error)"])
        }
    }

    /// The `upload_import` job handler, for whichever process runs the light worker.
    static func importHandler(context: AppContext, configuration: ServerConfiguration) throws -> UploadImportJobHandler {
        let uploads = configuration[UploadSettings.self]
        let policy = UploadPolicy(
            maxBytes: Int64(uploads.uploadMaxBytes), compressAboveBytes: Int64(uploads.uploadCompressAboveBytes),
            expirySeconds: TimeInterval(uploads.uploadExpirySeconds), storyLifetime: configuration.storyLifetime
        )
        let importer = Importer(dataFolder: context.dataFolder, store: context.store, runner: context.runner, limits: configuration.mediaLimits, sources: context.sources)
        return UploadImportJobHandler(
            storage: try storage(context: context),
            publisher: UploadPublisher(importer: importer, store: context.store, policy: policy), logger: context.logger
        )
    }
}
