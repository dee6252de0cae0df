import Foundation
import ReelImport
import ReelMedia

/// Reads a video's subtitle sidecars and turns each usable one into normalised WebVTT (SubRip
/// converted, byte-order mark and CRLF gone, cue numbers dropped). Never throws: a file that
/// cannot be read or parsed is a warning for the import report, and the video imports anyway.
enum SubtitleSidecars {
    struct Track: Sendable, Equatable {
        let tag: String
        let vtt: Data
    }

    static func load(_ sidecars: [SubtitleSidecar]) -> (tracks: [Track], warnings: [String]) {
        var tracks: [Track] = []
        var warnings: [String] = []
        for sidecar in sidecars {
            let name = sidecar.url.lastPathComponent
            let size = (try? FileManager.default.attributesOfItem(atPath: sidecar.url.path))?[.size] as? NSNumber
            if let size, size.intValue > SubtitleParser.maximumBytes {
                warnings.append("subtitles \(name) \(SubtitleProblem.tooLarge); ignored")
                continue
            }
            let data: Data
            do {
                data = try Data(contentsOf: sidecar.url)
            } catch {
                warnings.append("subtitles \(name) cannot be read (\((error as NSError).localizedDescription)); ignored")
                continue
            }
            let format: SubtitleParser.Format = sidecar.format == "srt" ? .subRip : .webVTT
            switch SubtitleParser.parse(data, format: format) {
            case .success(let cues):
                tracks.append(Track(tag: sidecar.tag, vtt: Data(WebVTTWriter.render(cues).utf8)))
            case .failure(.invalidSubtitles(let problem)):
                warnings.append("subtitles \(name) \(problem); ignored")
            case .failure(let error):
                warnings.append("subtitles \(name) cannot be used (\(error)); ignored")
            }
        }
        return (tracks, warnings)
    }
}
