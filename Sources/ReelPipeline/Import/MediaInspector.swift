import Foundation
import ReelMedia
import ReelProcess

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
        // ffprobe trusts the extension; the first bytes tell a renamed text file from a broken video.
        guard ContainerSignature.looksLikeMedia(Self.header(of: url)) else {
            return .failure(Rejection(code: "not_media", message: "not a media file (no video or image container signature)"))
        }
        let output = try await runner.run("ffprobe", FFprobe.arguments(path: url.path))
        guard output.succeeded else {
            return .failure(MediaValidator.rejectionForProbeFailure(stderr: output.stderrTail))
        }
        var probe: MediaProbe
        do {
            probe = try FFprobe.decode(output.stdout)
        } catch {
            return .failure(Rejection(code: "not_media", message: "ffprobe could not describe the file: \(error)"))
        }
        // A browser recording states no duration or frame rate; its packets do.
        probe = try await runner.completingTiming(of: probe, path: url.path)
        let mediaClass: MediaClass
        switch MediaValidator.validate(probe, fileSize: fileSize, fileExtension: url.pathExtension, limits: limits) {
        case .success(let validated): mediaClass = validated
        case .failure(let rejection): return .failure(rejection)
        }
        if mediaClass == .image {
            let decoded = try await runner.run("ffmpeg", DecodeCheckCommand.arguments(path: url.path))
            let complaint = decoded.stderrTail.trimmingCharacters(in: .whitespacesAndNewlines)
            if !decoded.succeeded || !complaint.isEmpty {
                let reason = complaint.split(separator: "\n").last.map(String.init) ?? "exit code \(decoded.exitCode)"
                return .failure(Rejection(code: "undecodable", message: "the picture is truncated or not decodable (\(reason))"))
            }
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

    static func header(of url: URL) -> Data {
        guard let handle = try? FileHandle(forReadingFrom: url) else { return Data() }
        defer { try? handle.close() }
        return (try? handle.read(upToCount: 16)) ?? Data()
    }
}
