import Foundation
import ReelModels
import ReelPipeline

/// Progress on stderr (stdout stays clean for `--json`): a redrawn bar on a terminal, plain
/// log lines otherwise (CI logs, pipes).
final class ProgressReporter: @unchecked Sendable {
    private let lock = NSLock()
    private let isTTY = isatty(STDERR_FILENO) == 1
    private let quiet: Bool
    private var total = 0
    private var lastLogged: [Int64: Int] = [:]
    private var barVisible = false
    private var lastStepTenth = -1
    /// Post id → the file it came from, so the bar names what is being transcoded.
    private var names: [Int64: String] = [:]

    init(quiet: Bool) {
        self.quiet = quiet
    }

    func handle(_ event: ImportEvent) {
        lock.withLock {
            switch event {
            case .scanned(let candidates):
                total = candidates
            case .inspecting(let path, let index, let total):
                draw("checking \(index + 1)/\(total)", fraction: Double(index) / Double(max(total, 1)), detail: path)
            case .imported(let path, let folderName):
                log("queued   \(path) → \(folderName)")

            case .skipped, .rejected, .warning:
                // Said once, with its reason, in the report that ends the import.
                break
            }
        }
    }

    /// Names posts after the import report, once their ids are known.
    func name(_ imported: [ImportReport.Imported]) {
        lock.withLock { for item in imported { names[item.id] = item.path } }
    }

    func transcoding(_ jobs: [Job]) {
        lock.withLock {
            let done = jobs.filter(\.state.isTerminal).count
            let running = jobs.filter { $0.state == .running }
            let overall = jobs.isEmpty ? 1 : jobs.map { $0.state.isTerminal ? 1 : $0.progress }.reduce(0, +) / Double(jobs.count)
            let current = running.map { job in
                let name = job.postID.flatMap { names[$0] } ?? "job \(job.id)"
                return "\(name) \(Int(job.progress * 100))%"
            }.joined(separator: ", ")
            if isTTY {
                draw("transcoding \(done)/\(jobs.count)", fraction: overall, detail: current)
            } else {
                for job in jobs {
                    let step = job.state.isTerminal ? 100 : Int(job.progress * 4) * 25
                    if lastLogged[job.id] != step {
                        lastLogged[job.id] = step
                        let state = job.state.isTerminal ? job.state.rawValue : "\(step)%"
                        let name = job.postID.flatMap { names[$0] } ?? "job \(job.id)"
                        writeLine("transcode \(name): \(state)")
                    }
                }
            }
        }
    }

    /// Any other long job's progress: the bar on a terminal, else a line per tenth done.
    func step(_ label: String, done: Int, total: Int, detail: String) {
        lock.withLock {
            let fraction = Double(done) / Double(max(total, 1))
            if isTTY {
                draw("\(label) \(done)/\(total)", fraction: fraction, detail: detail)
            } else {
                let tenth = Int(fraction * 10)
                if lastStepTenth != tenth {
                    lastStepTenth = tenth
                    if !quiet { writeLine("\(label) \(done)/\(total) \(detail)") }
                }
            }
        }
    }

    func finishTranscoding() { lock.withLock { clearBar() } }
    func finish() { lock.withLock { clearBar() } }

    private func draw(_ label: String, fraction: Double, detail: String) {
        guard isTTY, !quiet else { return }
        let width = 28
        let filled = max(0, min(width, Int(fraction * Double(width))))
        let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled)
        let line = "\(bar) \(label)  \(detail)"
        FileHandle.standardError.write(Data(("\r\u{1B}[K" + String(line.prefix(120))).utf8))
        barVisible = true
    }

    private func log(_ line: String) {
        guard !quiet else { return }
        clearBar()
        writeLine(line)
    }

    private func clearBar() {
        if barVisible {
            FileHandle.standardError.write(Data("\r\u{1B}[K".utf8))
            barVisible = false
        }
    }

    private func writeLine(_ line: String) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }
}

enum ReportPrinter {
    /// The report as one line of JSON; `error` is set when the import could not run at all.
    static func json(_ report: ImportReport, error: String? = nil) throws -> String {
        struct Output: Encodable {
            let report: ImportReport
            let error: String?
            func encode(to encoder: any Encoder) throws {
                try report.encode(to: encoder)
                var container = encoder.container(keyedBy: Key.self)
                try container.encodeIfPresent(error, forKey: .error)
            }
            enum Key: String, CodingKey { case error }
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(Output(report: report, error: error)), as: UTF8.self)
    }

    static func human(_ report: ImportReport, waited: Bool) -> String {
        var lines: [String] = []
        let verb = waited ? "imported" : "queued"
        lines.append("\(report.imported.count) \(verb), \(report.skipped.count) skipped, \(report.rejected.count) rejected")
        for item in report.imported { lines.append("  + \(item.path) → \(item.folderName) (id \(item.id))") }
        for item in report.skipped { lines.append("  = \(item.path): \(item.reason)") }
        for item in report.rejected { lines.append("  ✗ \(item.path): \(item.reason)") }
        for item in report.warnings { lines.append("  ! \(item.path): \(item.reason)") }
        return lines.joined(separator: "\n")
    }
}
