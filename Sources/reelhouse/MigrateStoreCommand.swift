import ArgumentParser
import Foundation
import ReelModels
import ReelPipeline
import ReelS3
import ReelServer
import ReelStorage
import ReelStore

/// `reelhouse migrate-store --to postgres://… --media-to s3://…` (docs/scale-out.md, "Commands"):
/// `--to` copies the SQLite library into PostgreSQL (see MigrateStoreCommand+Database.swift);
/// `--media-to` copies the data folder's published posts (their playlists, segments, downloads,
/// posters and images) and kept sources into a bucket. Each post goes through the same staging → copy → `.published` steps
/// as a publish; a post or source already there with the same size and ETag is skipped, so an
/// interrupted run resumes. Keys: AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY or the config file's
/// s3AccessKeyId / s3SecretAccessKey. Then serve with `--storage` set to the same location.
struct MigrateStoreCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "migrate-store",
        abstract: "Copy a library into PostgreSQL (--to) and its media into an S3 bucket (--media-to); both resumable."
    )

    @OptionGroup var dataOptions: DataOptions

    @Option(name: .customLong("to"), help: "The database: postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE (empty, or partly copied by an earlier run).")
    var databaseTo: String?

    @Option(name: .customLong("media-to"), help: "The bucket: s3://BUCKET[/PREFIX]?endpoint=…&region=…")
    var mediaTo: String?

    @Option(name: .customLong("batch-size"), help: "Rows per transaction when copying into PostgreSQL.")
    var batchSize: Int = 1000

    func validate() throws {
        guard databaseTo != nil || mediaTo != nil else {
            throw ValidationError("say where to copy: --to postgres://… and/or --media-to s3://…")
        }
        guard batchSize > 0 else { throw ValidationError("--batch-size must be at least 1") }
    }

    @Option(name: .long, help: "Config file (default: <data>/config.json when it exists), for the S3 keys.")
    var config: String?

    func run() async throws {
        if let databaseTo { try await copyDatabase(to: databaseTo) }
        guard let mediaTo else { return }
        try await AppContext.withLibrary(dataPath: dataOptions.resolvedPath, command: "migrate-store", configFile: config) { context in
            try await copyMedia(context, to: mediaTo)
        }
    }

    /// `--media-to`: the published posts of the library (in whichever store the settings name)
    /// and the kept sources, from the data folder into the bucket.
    private func copyMedia(_ context: AppContext, to mediaTo: String) async throws {
        let settings = context.settings
        let location: S3Location
        do {
            location = try S3Location(parsing: mediaTo)
        } catch {
            throw CLIError("migrate-store: \(error)")
        }
        guard let key = settings.s3AccessKeyId, !key.isEmpty, let secret = settings.s3SecretAccessKey, !secret.isEmpty else {
            throw CLIError("migrate-store: needs AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY (or s3AccessKeyId / s3SecretAccessKey in the config file)")
        }
        let bucket = S3MediaStorage(
            client: S3Client(
                endpoint: location.endpoint, region: location.region,
                credentials: S3Credentials(accessKeyID: key, secretAccessKey: secret, sessionToken: settings.s3SessionToken)
            ),
            location: location, logger: context.logger
        )
        // Published posts only: a folder of a post that never became ready is a leftover.
        let published = try await context.store.postIDs(status: .ready).union(context.store.postIDs(status: .story))
        var counts = (copied: 0, skipped: 0, sources: 0, sourcesSkipped: 0)
        for id in published.sorted() {
            let folder = context.dataFolder.mediaRoot.appendingPathComponent(String(id), isDirectory: true)
            guard FileManager.default.fileExists(atPath: folder.path) else {
                print("post \(id): no folder under media/, not copied")
                continue
            }
            do {
                switch try await bucket.copyIn(postFolder: folder, postKey: String(id)) {
                case .copied: counts.copied += 1; print("post \(id): copied")
                case .skipped: counts.skipped += 1
                }
            } catch {
                throw CLIError("migrate-store: post \(id): \(error) (run again to resume)")
            }
        }
        let sources = (try? FileManager.default.contentsOfDirectory(at: context.dataFolder.sourcesRoot, includingPropertiesForKeys: nil)) ?? []
        for file in sources.sorted(by: { $0.lastPathComponent < $1.lastPathComponent }) where !file.hasDirectoryPath {
            do {
                switch try await bucket.copyIn(source: file) {
                case .copied: counts.sources += 1
                case .skipped: counts.sourcesSkipped += 1
                }
            } catch {
                throw CLIError("migrate-store: source \(file.lastPathComponent): \(error) (run again to resume)")
            }
        }
        print("posts: \(counts.copied) copied, \(counts.skipped) already there; sources: \(counts.sources) copied, \(counts.sourcesSkipped) already there")
        print("to serve from the bucket: --storage '\(mediaTo)' (or REELHOUSE_STORAGE)")
    }
}
