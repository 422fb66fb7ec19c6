package io.polyrag.eval;

import io.polyrag.app.Json;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BiFunction;
import tools.jackson.databind.JsonNode;

/** A file of one JSON object per line (blank lines skipped), each read into a record with its line number. */
final class JsonLines {
    private JsonLines() {
    }

    static <T> List<T> read(Path file, BiFunction<JsonNode, Integer, T> each) {
        List<T> out = new ArrayList<>();
        try {
            int n = 0;
            for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
                n++;
                if (!line.isBlank()) {
                    out.add(each.apply(Json.MAPPER.readTree(line), n));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file, e);
        }
        return out;
    }
}
