import Foundation
import ReelJobs
import ReelMedia
import ReelPipeline
import ReelServer
import ReelStore

/// The media and job-queue settings as the pipeline's and the queue's own types. They are
/// declared in ReelServer's one table (config file, environment, `serve` flags), but ReelServer
/// does not link the pipeline, so the translation lives here, beside the wiring.
extension ServerConfiguration {
    /// A story's lifetime, for the commands that import stories.
    var storyLifetime: TimeInterval { self[StorySettings.self].storyLifetime }

    var mediaLimits: MediaLimits {
        var limits = MediaLimits.default
        if let maxDuration = node.maxDuration { limits.maxDuration = maxDuration }
        if let maxImagePixels = node.maxImagePixels { limits.maxImagePixels = maxImagePixels }
        return limits
    }

    var pipeline: PipelineConfiguration {
        var configuration = PipelineConfiguration(encryptSegments: node.encryption, keepOriginalUploads: self[UploadSettings.self].keepOriginalUploads)
        if let preset = node.preset { configuration.transcode.preset = preset }
        configuration.transcode.quickStart = node.quickStart
        return configuration
    }

    /// The transcode worker: `workerConcurrency` of them at once (default 1 on small machines).
    var transcodeWorker: JobWorkerConfiguration {
        var configuration = jobWorker
        if let workerConcurrency = node.workerConcurrency { configuration.concurrency = max(1, workerConcurrency) }
        return configuration
    }

    /// The light worker: a waiting upload request or a generation preview is a person waiting,
    /// so it looks at the queue often.
    var lightWorker: JobWorkerConfiguration {
        var configuration = jobWorker
        configuration.concurrency = node.lightWorkerConcurrency
        configuration.pollInterval = 0.1
        return configuration
    }

    /// What both workers share: the lease (its heartbeat a quarter of it) and the attempt timeout.
    private var jobWorker: JobWorkerConfiguration {
        var configuration = JobWorkerConfiguration()
        if let leaseSeconds = node.leaseSeconds {
            configuration.leaseDuration = leaseSeconds
            configuration.heartbeatInterval = max(0.2, leaseSeconds / 4)
        }
        if let jobTimeoutSeconds = node.jobTimeoutSeconds { configuration.attemptTimeout = jobTimeoutSeconds }
        return configuration
    }

    /// The defaults as `serve --help` shows them: the settings left nil here take the
    /// pipeline's and the queue's own defaults, named in one place each.
    static var documentedDefaults: ServerConfiguration {
        var defaults = ServerConfiguration()
        defaults.maxDuration = MediaLimits.default.maxDuration
        defaults.maxImagePixels = MediaLimits.default.maxImagePixels
        defaults.preset = TranscodeOptions().preset
        let queue = JobWorkerConfiguration()
        defaults.leaseSeconds = queue.leaseDuration
        defaults.jobTimeoutSeconds = queue.attemptTimeout
        return defaults
    }
}
