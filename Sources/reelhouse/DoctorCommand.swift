import ArgumentParser
import Foundation
import Logging
import ReelPipeline
import ReelProcess
import ReelServer
import ReelStorage
import ReelStorePostgres
import ReelStoreSQLite

struct DoctorCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "doctor", abstract: "Check that this machine can run Reelhouse: tools, encoders, data folder, database."
    )

    @OptionGroup var dataOptions: DataOptions

    /// Encoders the pipeline uses: H.264 video, AAC audio, JPEG posters and image variants.
    static let requiredEncoders = ["libx264", "aac", "mjpeg"]

    func run() async throws {
        var problems = 0
        func report(_ ok: Bool, _ what: String, _ detail: String) {
            print("\(ok ? "ok  " : "FAIL") \(what): \(detail)")
            if !ok { problems += 1 }
        }
        let runner = FoundationProcessRunner()
        for tool in ["ffmpeg", "ffprobe"] {
            if ExecutableLocator.find(tool) != nil, let output = try? await runner.run(tool, ["-hide_banner", "-version"]), output.succeeded {
                let firstLine = String(decoding: output.stdout, as: UTF8.self).split(separator: "\n").first.map(String.init) ?? "?"
                report(true, tool, firstLine)
            } else {
                report(false, tool, "not found; install with: apt-get install -y ffmpeg")
            }
        }
        if let output = try? await runner.run("ffmpeg", ["-hide_banner", "-encoders"]), output.succeeded {
            let text = String(decoding: output.stdout, as: UTF8.self)
            for encoder in Self.requiredEncoders {
                let found = text.split(separator: "\n").contains { $0.split(separator: " ").dropFirst().first.map(String.init) == encoder }
                report(found, "encoder \(encoder)", found ? "available" : "missing from this ffmpeg build")
            }
        }
        report(ExecutableLocator.find("xz") != nil, "xz", ExecutableLocator.find("xz") != nil ? "found (instaloader .json.xz sidecars)" : "not found; apt-get install -y xz-utils")

        let dataPath = dataOptions.resolvedPath
        let probe = URL(fileURLWithPath: dataPath).appendingPathComponent(".doctor-\(UUID().uuidString)")
        do {
            // A mistyped --data is named, never created: doctor checks a library, it does not make one.
            guard FileManager.default.fileExists(atPath: dataPath) else {
                throw CLIError("\(URL(fileURLWithPath: dataPath).standardizedFileURL.path) does not exist (serve, import and user add create a library)")
            }
            try Data("ok".utf8).write(to: probe)
            try FileManager.default.removeItem(at: probe)
            report(true, "data folder", "\(URL(fileURLWithPath: dataPath).standardizedFileURL.path) is writable")
        } catch {
            report(false, "data folder", (error as? CLIError)?.description ?? "\(dataPath) is not writable: \(error.localizedDescription)")
        }
        do {
            let (ok, detail) = try await Self.checkDatabase(dataPath: dataPath)
            report(ok, "database", detail)
        } catch {
            report(false, "database", "\(error)")
        }
        // Optional outside sources: named so a user knows what a key would turn on (never the key).
        // The pexelsKey secret as `source pexels` reads it (environment or config.json); a broken
        // config file is already reported by the database check.
        let settings = try? AppContext.loadSettings(dataFolder: DataFolder(root: URL(fileURLWithPath: dataPath)), command: "doctor", explicitFile: nil, flags: [:])
        let pexels = !(settings?.pexelsKey ?? "").isEmpty
        print("info pexels: \(pexels ? "REELHOUSE_PEXELS_KEY is set; `reelhouse source pexels` can fill a library" : "no REELHOUSE_PEXELS_KEY (optional: set one, or pexelsKey in config.json, to use `reelhouse source pexels`)")")
        if problems > 0 {
            throw CLIError("doctor: \(problems) problem\(problems == 1 ? "" : "s") found")
        }
    }

    /// SQLite: the file's integrity check. PostgreSQL (`databaseUrl`): the server answers and
    /// its schema version — without migrating it (doctor looks, it does not change).
    static func checkDatabase(dataPath: String) async throws -> (ok: Bool, detail: String) {
        let folder = DataFolder(root: URL(fileURLWithPath: dataPath))
        let settings = try AppContext.loadSettings(dataFolder: folder, command: "doctor", explicitFile: nil, flags: [:])
        if let text = settings.databaseUrl {
            let url = try PostgresDatabaseURL(text)
            var logger = Logger(label: "reelhouse.doctor")
            logger.logLevel = .error
            let version = try await PostgresStore.withStore(url: url, poolSize: 1, migrating: false, logger: logger) { store in
                try await store.schemaVersion()
            }
            return (version != nil, "\(url) answers; schema version \(version ?? "none (run `reelhouse migrate`)")")
        }
        return try await AppContext.withLibrary(dataPath: dataPath, command: "doctor") { context in
            guard let sqlite = context.sqlite else { return (false, "no SQLite store") }
            let check = try sqlite.check()
            return (check == "ok", check == "ok" ? "\(context.dataFolder.databasePath) passes integrity check" : check)
        }
    }
}
