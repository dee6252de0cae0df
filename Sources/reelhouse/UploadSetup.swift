import Foundation
import ReelMedia
import ReelPipeline
import ReelServer

/// The tus upload endpoint's parts: files under `<data>/uploads`, the size policy from the
/// configuration, and the import path every clip takes.
enum UploadSetup {
    static func dependencies(context: AppContext, configuration: ServerConfiguration, limits: MediaLimits) throws -> UploadDependencies {
        let storage = LocalUploadStorage(root: context.dataFolder.uploadsRoot)
        do {
            try storage.prepare()
        } catch {
            throw CLIError("serve: cannot create \(context.dataFolder.uploadsRoot.path): \(error.localizedDescription)")
        }
        let policy = UploadPolicy(
            maxBytes: Int64(configuration.uploadMaxBytes), compressAboveBytes: Int64(configuration.uploadCompressAboveBytes),
            expirySeconds: TimeInterval(configuration.uploadExpirySeconds)
        )
        let importer = Importer(dataFolder: context.dataFolder, store: context.store, runner: context.runner, limits: limits)
        return UploadDependencies(
            storage: storage, publisher: UploadPublisher(importer: importer, store: context.store, policy: policy), policy: policy
        )
    }
}
