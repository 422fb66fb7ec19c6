package io.polyrag.cli;

import io.polyrag.app.HttpFrontDoor;
import io.polyrag.app.Polyrag;
import io.polyrag.app.api.TextIngest;
import io.polyrag.core.config.Config;
import io.polyrag.core.model.SearchRequest;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import picocli.CommandLine.Command;

/**
 * {@code polyrag warm-up} (hidden): runs what the commands run — open a fresh data directory, read a Markdown and an
 * HTML file, embed, search, answer, serve and answer one request — so that the launcher can record the classes it
 * loads in a class-data archive ({@code -XX:ArchiveClassesAtExit}) that later commands start from.
 */
@Command(name = "warm-up", hidden = true, description = "Exercise the common paths once (for the launcher's "
        + "class-data archive).")
final class WarmUpCommand implements Callable<Integer> {
    @Override
    public Integer call() throws Exception {
        Path dir = Files.createTempDirectory("polyrag-warm-up");
        try {
            Config config = Config.load(Map.of(), Map.of("data.dir", dir.resolve("data").toString()));
            try (Polyrag polyrag = PolyragCommand.closedOnSignal(Polyrag.open(config))) {
                polyrag.ingest().text(new TextIngest("# Kilns\n\nThe kiln is fired on Thursdays.\n\n| Day | Hours |\n"
                        + "|---|---|\n| Thu | 6 |\n", "Kilns", null, "md", null));
                polyrag.ingest().text(new TextIngest("<html><head><title>Glaze</title></head><body><p>Glazes are "
                        + "mixed on Mondays.</p></body></html>", "Glaze", null, "html", null));
                polyrag.search().run(SearchRequest.of("when is the kiln fired", 3));
                polyrag.search().answer(SearchRequest.of("when is the kiln fired?", 3), null);
                polyrag.admin().status();
                try (HttpFrontDoor server = HttpFrontDoor.start(polyrag, "127.0.0.1", 0,
                        1 << 20)) {
                    HttpClient http = HttpClient.newHttpClient();
                    for (String path : new String[] {"/health", "/v1/search?q=kiln", "/v1/knowledge-bases"}) {
                        http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + path))
                                .build(), HttpResponse.BodyHandlers.discarding());
                    }
                }
            }
            return Main.OK;
        } finally {
            try (Stream<Path> all = Files.walk(dir)) {
                all.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }
}
