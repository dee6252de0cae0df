import AsyncHTTPClient
import Foundation
import ReelGeneration
import ReelGenerationLocal
import ReelGenerationOpenAI
import ReelPipeline
import ReelServer
import ReelStorage

/// Builds the generation providers from the configuration: the local text-card renderer
/// always, OpenAI's video API only when the `openAIApiKey` secret is set (`OPENAI_API_KEY`,
/// the config file or `--openai-api-key-file`; handed to the provider, never logged).
enum GenerationSetup {
    static func dependencies(context: AppContext, configuration: ServerConfiguration) throws -> GenerationDependencies {
        let generation = configuration[GenerationSettings.self]
        let files = GenerationFiles(root: context.dataFolder.generationsRoot)
        try files.prepare()
        var providers: [any GenerationProvider] = [
            LocalCardProvider(runner: context.runner, workRoot: context.dataFolder.generationsRoot.appendingPathComponent("work", isDirectory: true)),
        ]
        if let key = configuration.openAIApiKey, !key.isEmpty {
            providers.append(OpenAIVideoProvider(
                client: HTTPClient.shared, apiKey: key, baseURL: generation.openAIBaseURL, model: generation.openAIVideoModel
            ))
        } else if generation.generationProvider == "openai" {
            throw CLIError("serve: generationProvider is openai but no openAIApiKey is set (OPENAI_API_KEY or --openai-api-key-file)")
        }
        let importer = Importer(dataFolder: context.dataFolder, store: context.store, runner: context.runner, limits: configuration.mediaLimits, sources: context.sources)
        return GenerationDependencies(
            store: context.store, providers: providers, defaultProvider: generation.generationProvider, files: files,
            publish: GenerationPublisher(importer: importer, files: files).publish, jobLimits: generation.jobLimits
        )
    }

    /// The `generation` job handler, for the light worker.
    static func jobHandler(_ dependencies: GenerationDependencies, context: AppContext) -> GenerationJobHandler {
        GenerationJobHandler(store: dependencies.store, providers: dependencies.providers, files: dependencies.files, logger: context.logger)
    }
}
