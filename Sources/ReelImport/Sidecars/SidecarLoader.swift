import Foundation
import ReelModels

/// Reads a candidate's sidecar and caption from disk. Never throws: metadata is a nicety, and
/// a broken sidecar must not stop a video from being imported, so every problem becomes a
/// warning for the import report.
public enum SidecarLoader {
    /// Larger than any real sidecar (yt-dlp's, with every format listed, stays in the low MBs);
    /// reading more would only be a way to run out of memory.
    static let maximumSidecarBytes = 64 << 20

    /// Reads `sidecar` (decompressing `.xz` with `decompressXZ`, which the pipeline implements
    /// by running `xz -dc`, keeping this module free of processes) and `caption`, and merges
    /// them: the caption fills in an empty or missing description, and its hashtags become
    /// tags. An unusable sidecar yields no sidecar metadata plus a warning; the caption, if
    /// any, is still used.
    public static func load(
        sidecar: URL?, caption: URL?, decompressXZ: (URL) throws -> Data
    ) -> (metadata: PostMetadata?, warnings: [String]) {
        let (result, warnings) = loadResult(sidecar: sidecar, caption: caption, decompressXZ: decompressXZ)
        return (result?.metadata, warnings)
    }

    /// `load`, keeping which format the metadata came from and, for an instaloader story item,
    /// whose story it is and when it was posted (completed from the file's folder and name
    /// where the node leaves them out).
    public static func loadResult(
        sidecar: URL?, caption: URL?, decompressXZ: (URL) throws -> Data
    ) -> (result: SidecarResult?, warnings: [String]) {
        var warnings: [String] = []
        let captionText = caption.flatMap { readCaption($0, warnings: &warnings) }
        let fallback = captionText == nil ? "imported without metadata" : "imported with its caption only"

        var result: SidecarResult?
        if let sidecar {
            let name = sidecar.lastPathComponent
            switch read(sidecar, decompressXZ: decompressXZ) {
            case .failure(let problem):
                warnings.append("sidecar \(name) \(problem); \(fallback)")
            case .success(let data):
                switch SidecarParser.parse(json: data) {
                case .success(var parsed):
                    parsed.story = parsed.story?.completed(fromSidecarAt: sidecar)
                    result = parsed
                    warnings += parsed.warnings.map { "sidecar \(name): \($0)" }
                case .failure(let error):
                    warnings.append("sidecar \(name) \(phrase(for: error)); \(fallback)")
                }
            }
        }

        guard let captionText else { return (result, warnings) }
        var merged = result ?? SidecarResult(metadata: PostMetadata(), format: .captionText)
        if merged.metadata.description?.isEmpty ?? true {
            merged.metadata.description = captionText
            merged.metadata.tags = TagList.normalize(merged.metadata.tags + Hashtags.find(in: captionText))
        }
        return (merged, warnings)
    }

    private static func read(_ sidecar: URL, decompressXZ: (URL) throws -> Data) -> Result<Data, SidecarReadProblem> {
        if sidecar.pathExtension.lowercased() == "xz" {
            do {
                let data = try decompressXZ(sidecar)
                return data.count > maximumSidecarBytes ? .failure(.tooLarge) : .success(data)
            } catch {
                return .failure(.notDecompressed("\(error)"))
            }
        }
        let size = (try? FileManager.default.attributesOfItem(atPath: sidecar.path))?[.size] as? NSNumber
        if let size, size.intValue > maximumSidecarBytes { return .failure(.tooLarge) }
        do {
            return .success(try Data(contentsOf: sidecar))
        } catch {
            return .failure(.unreadable((error as NSError).localizedDescription))
        }
    }

    private static func readCaption(_ caption: URL, warnings: inout [String]) -> String? {
        let size = (try? FileManager.default.attributesOfItem(atPath: caption.path))?[.size] as? NSNumber
        if let size, size.intValue > maximumSidecarBytes {
            warnings.append("caption \(caption.lastPathComponent) is too large to be a caption; ignored")
            return nil
        }
        do {
            return SidecarParser.parseCaption(text: try Data(contentsOf: caption))
        } catch {
            warnings.append("caption \(caption.lastPathComponent) cannot be read (\((error as NSError).localizedDescription)); ignored")
            return nil
        }
    }

    /// Completes "sidecar x.json …; imported without metadata".
    private static func phrase(for error: ImportError) -> String {
        switch error {
        case .emptySidecar: "is empty"
        case .invalidJSON: "is not valid JSON"
        case .unrecognizedSidecar: "is not a yt-dlp, instaloader or gallery-dl file"
        case .rootNotFound, .unreadable: "cannot be read (\(error))"
        }
    }
}

/// Why a sidecar's bytes could not be had, phrased to follow "sidecar x.json".
private enum SidecarReadProblem: Error, CustomStringConvertible {
    case tooLarge
    case notDecompressed(String)
    case unreadable(String)

    var description: String {
        switch self {
        case .tooLarge: "is too large to be a sidecar"
        case .notDecompressed(let reason): "could not be decompressed (\(reason))"
        case .unreadable(let reason): "cannot be read (\(reason))"
        }
    }
}
