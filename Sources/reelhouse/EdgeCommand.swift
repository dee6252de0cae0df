import ArgumentParser
import Foundation
import ReelServer
import ReelStorage

/// `reelhouse edge …`: configuration for what stands in front of the API nodes.
struct EdgeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "edge",
        abstract: "Print configuration for an edge in front of the API nodes.",
        subcommands: [EdgeNginxCommand.self]
    )
}

/// `reelhouse edge nginx [--listen PORT] [--upstream HOST:PORT …] [--media-root PATH] [--cache-dir PATH] [--data DIR]`:
/// prints an nginx 1.22 config (see `NginxConfig` and docs/scale-out.md, "Edge").
struct EdgeNginxCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "nginx",
        abstract: "Print an nginx 1.22 config that serves signed media itself and proxies the rest to the API nodes.",
        discussion: """
        Run it with `nginx -c FILE -p PREFIX` (its pid, logs and temporary files live under PREFIX). \
        Media URLs are checked once per token and file by the API's /internal/media-auth; the bytes \
        then come from --media-root (the data folder's media/ on this machine or a shared mount) or, \
        without it (S3 storage), from the API nodes through nginx's cache. Keys always go to the API.
        """
    )

    @Option(help: "Where nginx listens: PORT, HOST:PORT or [IPv6]:PORT.")
    var listen: String = NginxConfig.defaultListen

    @Option(help: "An API node as HOST:PORT; repeat for several (failover). Default \(NginxConfig.defaultUpstream).")
    var upstream: [String] = []

    @Option(help: "The data folder's media/ folder, if nginx can read it; without it media is proxied and cached.")
    var mediaRoot: String?

    @Option(help: "Where nginx keeps the checks' answers (and proxied media); relative to nginx's prefix unless absolute.")
    var cacheDir: String = NginxConfig.defaultCacheDir

    @Option(help: "The data folder whose secret.key the API nodes use (REELHOUSE_SECRET wins when set): kept answers are tagged with it, so a rotation strands them.")
    var data: String?

    func config(secret: Data?) -> NginxConfig {
        NginxConfig(
            listen: listen, upstreams: upstream.isEmpty ? [NginxConfig.defaultUpstream] : upstream,
            mediaRoot: mediaRoot.map { $0.count > 1 && $0.hasSuffix("/") ? String($0.dropLast()) : $0 }, cacheDir: cacheDir,
            secretTag: secret.map(NginxConfig.secretTag(of:))
        )
    }

    func validate() throws {
        if let problem = config(secret: nil).problems.first { throw ValidationError(problem) }
    }

    func run() throws {
        // The secret setting as `serve` reads it: the data folder's config.json, then the environment.
        let settings: ServerConfiguration
        if let data {
            settings = try AppContext.loadSettings(dataFolder: DataFolder(root: URL(fileURLWithPath: data)), command: "edge nginx", explicitFile: nil, flags: [:])
        } else {
            do {
                settings = try ConfigurationLoader.load(file: nil, environment: ProcessInfo.processInfo.environment, overrides: [:])
            } catch {
                throw CLIError("edge nginx: \(error)")
            }
        }
        print(config(secret: try ServerSecret.existing(dataPath: data, configured: settings.secret)).render(), terminator: "")
    }
}
