// swift-tools-version:6.1
import PackageDescription

// Upcoming features the Hummingbird packages themselves enable: explicit `any`,
// and imports that are only visible where they are written.
let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
]

let package = Package(
    name: "reelhouse",
    platforms: [.macOS(.v14), .iOS(.v17)],
    products: [
        .executable(name: "reelhouse", targets: ["reelhouse"]),
        .library(name: "ReelModels", targets: ["ReelModels"]),
        .library(name: "ReelMedia", targets: ["ReelMedia"]),
        .library(name: "ReelKit", targets: ["ReelKit"]),
        .library(name: "ReelFeatures", targets: ["ReelFeatures"]),
        .executable(name: "reelkit-demo", targets: ["reelkit-demo"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-crypto.git", "3.12.3"..<"5.0.0"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.6.0"),
        .package(url: "https://github.com/apple/swift-metrics.git", from: "2.4.1"),
        .package(url: "https://github.com/swift-server/swift-prometheus.git", from: "2.0.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.6.0"),
        .package(url: "https://github.com/groue/GRDB.swift.git", from: "7.0.0"),
        // Without the swift-configuration trait: our configuration is layered by our own code.
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.20.0", traits: ["FullFoundation"]),
        .package(url: "https://github.com/hummingbird-project/hummingbird-auth.git", from: "2.0.0"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.80.0"),
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.0.0"),
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.20.0"),
        .package(url: "https://github.com/vapor/postgres-nio.git", from: "1.33.0"),
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.37.0"),
    ],
    targets: [
        // Wire and domain value types shared by the server, the CLI and clients. Foundation only.
        .target(name: "ReelModels", swiftSettings: swiftSettings),

        // The one bounded in-memory cache (capacity, lifetime, revision check). Foundation only.
        .target(name: "ReelCache", swiftSettings: swiftSettings),

        // HLS playlists (master and media: parse, render, measure bandwidth). Foundation only,
        // so a client reads playlists without linking ffmpeg argument builders or crypto.
        .target(name: "ReelHLS", swiftSettings: swiftSettings),

        // Pure media logic: probe decoding, validation rules, ladder plans, ffmpeg argument
        // arrays, HLS playlists, segment encryption, EXIF orientation. Runs no processes.
        .target(
            name: "ReelMedia",
            dependencies: [
                "ReelModels", "ReelHLS",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
            ],
            swiftSettings: swiftSettings
        ),

        // Pure import logic: which files under a folder form which posts, and what their
        // yt-dlp / instaloader / gallery-dl sidecars say.
        .target(name: "ReelImport", dependencies: ["ReelModels"], swiftSettings: swiftSettings),

        // Repository protocols for the library and the job queue: what the server and the
        // services above the store talk to. No ranking: For You hands its rules in.
        .target(name: "ReelStore", dependencies: ["ReelModels"], swiftSettings: swiftSettings),

        // For You's ranking as pure code (labels, profile updates, co-visitation neighbours,
        // candidate scoring, blending with exploration) and its offline evaluation (metrics,
        // splits, baselines). The server and `reelhouse eval` run the same functions.
        .target(name: "ReelRank", dependencies: ["ReelModels"], swiftSettings: swiftSettings),

        // The store core: what every database shares above its SQL — the feed's walk over epochs,
        // catalog listings and shelves, keyset pages, person lists, the post and media caches —
        // as protocol extensions over narrow backend protocols each database answers in SQL.
        .target(name: "ReelStoreCore", dependencies: ["ReelStore", "ReelModels", "ReelCache"], swiftSettings: swiftSettings),

        // For You above the store: the ranked feed over the store's walks (`ForYouFeed`), the rules
        // events leave behind (`ForYouRules`), the upkeep jobs, synthetic watching for benches, and
        // whether For You is a person's default feed (`ForYouReadiness`).
        .target(
            name: "ReelForYou",
            dependencies: [
                "ReelStore", "ReelRank", "ReelModels", "ReelJobs", "ReelCache",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),

        // The embedded SQLite implementation of ReelStore (GRDB, WAL, versioned migrations).
        .target(
            name: "ReelStoreSQLite",
            dependencies: ["ReelStore", "ReelStoreCore", "ReelModels", .product(name: "GRDB", package: "GRDB.swift"),
                           .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOPosix", package: "swift-nio")],
            swiftSettings: swiftSettings
        ),

        // The PostgreSQL implementation of ReelStore for several nodes sharing one database
        // (postgres-nio's pooled client, versioned migrations under an advisory lock).
        .target(
            name: "ReelStorePostgres",
            dependencies: [
                "ReelStore", "ReelStoreCore", "ReelModels",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: swiftSettings
        ),

        // The durable job worker: leases, heartbeats, retries with backoff, as a Service.
        .target(
            name: "ReelJobs",
            dependencies: [
                "ReelStore", "ReelModels",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: swiftSettings
        ),

        // The generation seam: a provider protocol, requests, progress and errors. No I/O.
        .target(name: "ReelGeneration", swiftSettings: swiftSettings),

        // The local text-card renderer (ffmpeg) as a GenerationProvider, beside OpenAI's.
        .target(name: "ReelGenerationLocal", dependencies: ["ReelGeneration", "ReelMedia", "ReelProcess"], swiftSettings: swiftSettings),

        // OpenAI's video API (sora-2) as a GenerationProvider, over async-http-client.
        .target(
            name: "ReelGenerationOpenAI",
            dependencies: [
                "ReelGeneration",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOFoundationCompat", package: "swift-nio"),
            ],
            swiftSettings: swiftSettings
        ),

        // The content-source seam: outside catalogues (Pexels) listed page by page and their
        // files downloaded with attribution, over async-http-client. No store, no pipeline.
        .target(
            name: "ReelSources",
            dependencies: [
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOFoundationCompat", package: "swift-nio"),
            ],
            swiftSettings: swiftSettings
        ),

        // The storage seam: the protocols for published media, kept sources and resumable
        // uploads, the values they carry, the data folder's layout and the pipeline's error.
        // Models only: the implementations (local disk, S3) and everything using them sit above.
        .target(
            name: "ReelStorage",
            dependencies: [
                "ReelModels", .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOPosix", package: "swift-nio"),
            ],
            swiftSettings: swiftSettings
        ),

        // The storages on the local disk (the data folder's media/, sources/ and uploads/),
        // beside ReelS3's bucket.
        .target(
            name: "ReelStorageLocal",
            dependencies: [
                "ReelStorage", "ReelModels",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "NIOCore", package: "swift-nio"),
            ],
            swiftSettings: swiftSettings
        ),

        // What spans the metadata store and the storages: a post removed for good (row, media,
        // unshared sources) and a complete upload's import job, recorded once.
        .target(name: "ReelLibrary", dependencies: ["ReelModels", "ReelStore", "ReelStorage"], swiftSettings: swiftSettings),

        // Child processes (ffmpeg, ffprobe, xz) run with an argument array, dying with their parent.
        .target(name: "ReelProcess", dependencies: ["ReelStorage"], swiftSettings: swiftSettings),

        // S3-compatible object storage: AWS Signature V4 (ours, on swift-crypto), a path-style
        // S3 client over async-http-client, the `s3://` setting, and `MediaStorage` on a bucket.
        .target(
            name: "ReelS3",
            dependencies: [
                "ReelStorage", "ReelCache",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOFoundationCompat", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),

        // The media pipeline: import orchestration, the transcode, upload-import and generation
        // job handlers, atomic publish and the upkeep jobs, on whichever storage it is given.
        .target(
            name: "ReelPipeline",
            dependencies: [
                "ReelModels", "ReelMedia", "ReelHLS", "ReelImport", "ReelStorage", "ReelStore", "ReelJobs", "ReelGeneration",
                "ReelLibrary", "ReelProcess",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "NIOCore", package: "swift-nio"),
            ],
            swiftSettings: swiftSettings
        ),

        // The HTTP server: API v1, seed-000 compatibility routes, signed media delivery.
        .target(
            name: "ReelServer",
            dependencies: [
                "ReelModels", "ReelHLS", "ReelStorage", "ReelStore", "ReelJobs", "ReelGeneration", "ReelRank", "ReelForYou", "ReelLibrary", "ReelCache",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "HummingbirdBcrypt", package: "hummingbird-auth"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
            ],
            swiftSettings: swiftSettings
        ),

        // The thin command-line front end.
        .executableTarget(
            name: "reelhouse",
            dependencies: [
                "ReelModels", "ReelMedia", "ReelStorage", "ReelStore", "ReelStoreSQLite", "ReelStorePostgres", "ReelJobs", "ReelPipeline", "ReelServer",
                "ReelGeneration", "ReelGenerationOpenAI", "ReelGenerationLocal", "ReelSources", "ReelRank", "ReelForYou", "ReelS3", "ReelStorageLocal",
                "ReelLibrary", "ReelProcess",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
                .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: swiftSettings
        ),

        // The client core of a native app (API client, feed window, media cache, optimistic
        // mutations, stories, bitrate, resume). Foundation (+ FoundationNetworking on Linux),
        // the shared models, the playlist reader and SHA-256 (disk cache names) only, so it
        // builds for iOS and Linux alike.
        .target(
            name: "ReelKit",
            dependencies: ["ReelModels", "ReelHLS", .product(name: "Crypto", package: "swift-crypto")],
            swiftSettings: swiftSettings
        ),

        // The iPhone app's screen models: every screen's state and behaviour over ReelKit, as
        // `@Observable` classes on the main actor. No SwiftUI, so Linux builds and tests them;
        // the app in Apps/iOS only binds views to them.
        .target(
            name: "ReelFeatures",
            dependencies: ["ReelKit", "ReelModels"],
            swiftSettings: swiftSettings
        ),

        // Walks a server's feed headlessly through ReelKit and prints what a user would have seen.
        .executableTarget(
            name: "reelkit-demo",
            dependencies: [
                "ReelKit", "ReelModels", "ReelHLS",
            ],
            swiftSettings: swiftSettings
        ),

        // The one temporary-folder helper, Foundation only: every test target may use it without
        // linking the server.
        .target(name: "ReelTestFiles", path: "Tests/ReelTestFiles", swiftSettings: swiftSettings),

        // What tests share: temporary databases, media makers (published posts without
        // ffmpeg), and a live server on 127.0.0.1 that can stop, restart and rotate its secret.
        .target(
            name: "ReelTestSupport",
            dependencies: [
                "ReelTestFiles", "ReelServer", "ReelStoreSQLite", "ReelStorePostgres", "ReelStorage", "ReelStore", "ReelPipeline", "ReelJobs", "ReelModels", "ReelMedia",
                "ReelStorageLocal", "ReelProcess", "ReelLibrary", "ReelRank",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            path: "Tests/ReelTestSupport",
            swiftSettings: swiftSettings
        ),

        // ReelKit's doubles (a recording player slot): no server, so ReelKit's unit tests build without one.
        .target(name: "ReelKitTestDoubles", dependencies: ["ReelKit", "ReelModels"], path: "Tests/ReelKitTestDoubles",
                swiftSettings: swiftSettings),
        // ReelKit alone: its planners, caches, state machines and client against scripted transports.
        .testTarget(name: "ReelKitTests",
                    dependencies: ["ReelTestFiles", "ReelKit", "ReelKitTestDoubles", "ReelModels", "ReelHLS"],
                    swiftSettings: swiftSettings),
        // ReelKit against the in-process server over real HTTP on 127.0.0.1.
        .testTarget(name: "ReelKitLiveTests",
                    dependencies: ["ReelTestFiles", "ReelKit", "ReelKitTestDoubles", "ReelModels", "ReelHLS", "ReelServer", "ReelStore", "ReelStoreSQLite", "ReelTestSupport"],
                    swiftSettings: swiftSettings),
        // The screen models against the in-process server over real HTTP, with a manual clock.
        .testTarget(name: "ReelFeaturesTests",
                    dependencies: ["ReelFeatures", "ReelTestFiles", "ReelKit", "ReelKitTestDoubles", "ReelModels", "ReelServer", "ReelStore", "ReelStoreSQLite", "ReelTestSupport"],
                    swiftSettings: swiftSettings),
        .testTarget(name: "ReelMediaTests", dependencies: ["ReelMedia", "ReelHLS", "ReelModels"],
                    resources: [.copy("Fixtures")], swiftSettings: swiftSettings),
        .testTarget(name: "ReelCacheTests", dependencies: ["ReelCache"], swiftSettings: swiftSettings),
        .testTarget(name: "ReelRankTests", dependencies: ["ReelTestFiles", "ReelRank", "ReelModels"], swiftSettings: swiftSettings),
        .testTarget(name: "ReelImportTests", dependencies: ["ReelTestFiles", "ReelImport", "ReelModels"],
                    resources: [.copy("Fixtures")], swiftSettings: swiftSettings),
        // The store contract: every case runs against both backends (SQLite and PostgreSQL).
        .testTarget(name: "ReelStoreContractTests", dependencies: ["ReelStoreSQLite", "ReelStorePostgres", "ReelStore", "ReelStoreCore", "ReelModels", "ReelRank", "ReelForYou", "ReelTestFiles", "ReelTestSupport"],
                    swiftSettings: swiftSettings),
        // Each backend's own: SQLite's migrations, query plans, file sharing and benchmarks; PostgreSQL's.
        .testTarget(name: "ReelStoreSQLiteTests", dependencies: ["ReelStoreSQLite", "ReelStorePostgres", "ReelStore", "ReelStoreCore", "ReelModels", "ReelForYou", "ReelTestFiles", "ReelTestSupport"],
                    swiftSettings: swiftSettings),
        .testTarget(name: "ReelStorePostgresTests",
                    dependencies: [
                        "ReelStorePostgres", "ReelStore", "ReelStoreCore", "ReelModels", "ReelRank", "ReelForYou", "ReelTestFiles", "ReelTestSupport",
                        .product(name: "PostgresNIO", package: "postgres-nio"),
                        .product(name: "Logging", package: "swift-log"),
                    ],
                    swiftSettings: swiftSettings),
        .testTarget(name: "ReelJobsTests", dependencies: [
                        "ReelJobs", "ReelStoreSQLite", "ReelStorePostgres", "ReelStore", "ReelModels", "ReelTestFiles", "ReelTestSupport",
                        .product(name: "Logging", package: "swift-log"),
                        .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                    ],
                    swiftSettings: swiftSettings),
        .testTarget(name: "ReelPipelineTests",
                    dependencies: [
                        "ReelTestFiles", "ReelPipeline", "ReelImport", "ReelStorage", "ReelJobs", "ReelStoreSQLite", "ReelStore", "ReelModels",
                        "ReelStorageLocal", "ReelProcess", "ReelLibrary",
                        .product(name: "Logging", package: "swift-log"),
                        .product(name: "NIOCore", package: "swift-nio"),
                    ],
                    swiftSettings: swiftSettings),
        .testTarget(name: "ReelGenerationTests",
                    dependencies: [
                        "ReelTestFiles", "ReelGeneration", "ReelGenerationOpenAI", "ReelGenerationLocal", "ReelProcess", "ReelPipeline", "ReelStorage", "ReelMedia", "ReelModels",
                        "ReelStore", "ReelStoreSQLite", "ReelJobs",
                        .product(name: "AsyncHTTPClient", package: "async-http-client"),
                        .product(name: "Hummingbird", package: "hummingbird"),
                        .product(name: "HummingbirdTesting", package: "hummingbird"),
                        .product(name: "NIOCore", package: "swift-nio"),
                        .product(name: "Logging", package: "swift-log"),
                    ],
                    swiftSettings: swiftSettings),
        .testTarget(name: "ReelSourcesTests",
                    dependencies: [
                        "ReelTestFiles", "ReelSources", "ReelPipeline", "ReelImport", "ReelMedia", "ReelStoreSQLite", "ReelStore", "ReelModels", "ReelTestSupport",
                        "ReelStorage", "ReelStorageLocal", "ReelProcess",
                        .product(name: "AsyncHTTPClient", package: "async-http-client"),
                        .product(name: "GRDB", package: "GRDB.swift"),
                        .product(name: "HTTPTypes", package: "swift-http-types"),
                        .product(name: "Hummingbird", package: "hummingbird"),
                        .product(name: "HummingbirdTesting", package: "hummingbird"),
                        .product(name: "NIOCore", package: "swift-nio"),
                    ],
                    swiftSettings: swiftSettings),
        .testTarget(name: "ReelS3Tests",
                    dependencies: [
                        "ReelTestFiles", "ReelS3", "ReelStorage", "ReelTestSupport",
                        .product(name: "AsyncHTTPClient", package: "async-http-client"),
                        .product(name: "NIOCore", package: "swift-nio"),
                        .product(name: "NIOHTTP1", package: "swift-nio"),
                    ],
                    resources: [.copy("Fixtures")], swiftSettings: swiftSettings),
        .testTarget(name: "ReelServerTests",
                    dependencies: [
                        "ReelTestFiles", "ReelServer", "ReelStoreSQLite", "ReelStorePostgres", "ReelStorage", "ReelStore", "ReelPipeline", "ReelModels", "ReelMedia", "ReelGeneration",
                        "ReelRank", "ReelForYou", "ReelStoreCore", "ReelTestSupport", "ReelS3", "ReelStorageLocal", "ReelProcess", "ReelLibrary", "ReelGenerationLocal",
                        "ReelKit", "ReelJobs",
                        .product(name: "Logging", package: "swift-log"),
                        .product(name: "HTTPTypes", package: "swift-http-types"),
                        .product(name: "NIOCore", package: "swift-nio"),
                        .product(name: "Hummingbird", package: "hummingbird"),
                        .product(name: "HummingbirdTesting", package: "hummingbird"),
                        .product(name: "Crypto", package: "swift-crypto"),
                    ],
                    swiftSettings: swiftSettings),
    ]
)

// AVFoundation adapters for ReelKit's protocols: only where AVFoundation exists, so Linux
// never compiles them.
#if os(macOS) || os(iOS)
package.products.append(.library(name: "ReelKitAVFoundation", targets: ["ReelKitAVFoundation"]))
package.targets.append(.target(name: "ReelKitAVFoundation", dependencies: ["ReelKit", "ReelModels"], swiftSettings: swiftSettings))
#endif
