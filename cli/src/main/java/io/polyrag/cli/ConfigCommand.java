package io.polyrag.cli;

import io.polyrag.core.config.Config;
import io.polyrag.core.spi.CatalogProvider;
import io.polyrag.core.spi.EmbedderProvider;
import io.polyrag.core.spi.ExtractorProvider;
import io.polyrag.core.spi.FullTextStoreProvider;
import io.polyrag.core.spi.GraphStoreProvider;
import io.polyrag.core.spi.LlmProvider;
import io.polyrag.core.spi.NamedProvider;
import io.polyrag.core.spi.ParserProvider;
import io.polyrag.core.spi.Providers;
import io.polyrag.core.spi.RdfStoreProvider;
import io.polyrag.core.spi.RerankerProvider;
import io.polyrag.core.spi.VectorStoreProvider;
import java.io.PrintWriter;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;
import picocli.CommandLine;

/** {@code polyrag config}: the effective configuration (secrets masked) and the providers on the class path. */
@Command(name = "config", mixinStandardHelpOptions = true, description = "Print the effective configuration and the available providers.")
final class ConfigCommand implements Callable<Integer> {
    @ParentCommand
    PolyragCommand parent;

    @Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        Config config = parent.config(Map.of());
        out.print(config.describe());
        out.println();
        out.println("providers:");
        for (Class<? extends NamedProvider> type : List.of(VectorStoreProvider.class, FullTextStoreProvider.class,
                GraphStoreProvider.class, RdfStoreProvider.class,
                CatalogProvider.class, EmbedderProvider.class, ExtractorProvider.class,
                LlmProvider.class, RerankerProvider.class,
                ParserProvider.class)) {
            Providers.available(type).forEach((name, ps) -> out.printf("  %-14s %-10s %s%n",
                    type.getSimpleName().replace("Provider", ""), name, ps.getFirst().description()));
        }
        return Main.OK;
    }
}
