package io.polyrag.eval;

import io.polyrag.app.Json;
import io.polyrag.core.InvalidInputException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BiFunction;
import tools.jackson.core.JacksonException;
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
                    JsonNode node;
                    try {
                        node = Json.MAPPER.readTree(line);
                    } catch (JacksonException e) {
                        throw new InvalidInputException(file + " line " + n + " is not JSON: " + e.getOriginalMessage());
                    }
                    out.add(each.apply(node, n));
                }
            }
        } catch (CharacterCodingException e) {
            throw new InvalidInputException(file + " is not UTF-8 text: save it as UTF-8");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file, e);
        }
        return out;
    }
}
