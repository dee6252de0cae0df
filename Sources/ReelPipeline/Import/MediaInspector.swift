import Foundation
import ReelMedia

/// A file that passed validation, with what ffprobe said about it.
public struct InspectedMedia: Sendable {
    public var url: URL
    public var probe: MediaProbe
    public var mediaClass: MediaClass
    public var fileSize: Int64
}

/// Runs ffprobe and the validation rules on one file, before anything is stored.
public struct MediaInspector: Sendable {
    public let runner: any ProcessRunner
    public let limits: MediaLimits

    public init(runner: any ProcessRunner, limits: MediaLimits) {
        self.runner = runner
        self.limits = limits
    }

    public func inspect(_ url: URL) async throws -> Result<InspectedMedia, Rejection> {
        let attributes = try? FileManager.default.attributesOfItem(atPath: url.path)
        let fileSize = (attributes?[.size] as? NSNumber)?.int64Value ?? 0
        if fileSize == 0 {
            return .failure(Rejection(code: "empty_file", message: "the file is empty (0 bytes)"))
        }
        let output = try await runner.run("ffprobe", FFprobe.arguments(path: url.path))
        guard output.succeeded else {
            return .failure(MediaValidator.rejectionForProbeFailure(stderr: output.stderrTail))
        }
        let probe: MediaProbe
        do {
            probe = try FFprobe.decode(output.stdout)
        } catch {
            return .failure(Rejection(code: "not_media", message: "ffprobe could not describe the file: \(error)"))
        }
        let mediaClass: MediaClass
        switch MediaValidator.validate(probe, fileSize: fileSize, fileExtension: url.pathExtension, limits: limits) {
        case .success(let validated): mediaClass = validated
        case .failure(let rejection): return .failure(rejection)
        }
        if mediaClass != .image, let duration = probe.duration {
            // ffprobe reads only the index; a file cut short still "probes" fine. Reading the
            // last packets proves the end of the file is really there.
            let tail = try await runner.run("ffprobe", FFprobe.tailCheckArguments(path: url.path, duration: duration))
            let complaint = tail.stderrTail.trimmingCharacters(in: .whitespacesAndNewlines)
            if !tail.succeeded || !complaint.isEmpty {
                let reason = complaint.split(separator: "\n").last.map(String.init) ?? "exit code \(tail.exitCode)"
                return .failure(Rejection(code: "truncated", message: "the file is truncated or undecodable near its end (\(reason))"))
            }
        }
        return .success(InspectedMedia(url: url, probe: probe, mediaClass: mediaClass, fileSize: fileSize))
    }
}
