package io.polyrag.app.api;

import io.polyrag.app.Json;
import io.polyrag.core.InvalidInputException;
import io.polyrag.core.model.Ids;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.PropertyNamingStrategies;
import tools.jackson.databind.annotation.JsonNaming;

/**
 * A judged query of a knowledge base: its text and the documents relevant to it.
 *
 * @param queryId the client's id for it (1-64 letters, digits, '_', '.', '-'); made from the text when left out
 * @param query the text, as a user would search it
 * @param relevant relevance grade (1-10; 0 = judged not relevant) by document, named by its id or by its URI in the
 *     knowledge base
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
public record JudgedQuery(String queryId, String query, Map<String, Integer> relevant) {
    /** Most lines a BEIR qrels file may have. */
    private static final int MAX_QRELS_LINES = 1_000_000;

    /**
     * Judged queries from BEIR files: {@code qrels} (tab-separated query-id, corpus-id, score; a header line
     * {@code query-id corpus-id score} is skipped) and {@code queries} (JSON lines with {@code _id} and {@code text});
     * each query the qrels judge must be in {@code queries}.
     */
    /** A file's lines, counted before it is split: a million empty lines are refused, not made a million strings. */
    private static String[] split(String file, String field) {
        long count = file.chars().filter(c -> c == '\n').count();
        if (count > MAX_QRELS_LINES) {
            throw new InvalidInputException(field + " has " + count + " lines, at most " + MAX_QRELS_LINES);
        }
        return file.split("\\r?\\n");
    }

    public static List<JudgedQuery> fromBeir(String qrels, String queries) {
        Map<String, String> text = new HashMap<>();
        String[] qlines = split(queries, "queries");
        for (int i = 0; i < qlines.length; i++) {
            String line = qlines[i].strip();
            if (line.isEmpty()) {
                continue;
            }
            JsonNode n;
            try {
                n = Json.MAPPER.readTree(line);
            } catch (JacksonException e) {
                throw new InvalidInputException("queries line " + (i + 1) + " is not JSON: each line "
                        + "is {\"_id\": ..., \"text\": ...}");
            }
            if (n == null || !n.isObject() || !n.path("_id").isString() || !n.path("text").isString()) {
                throw new InvalidInputException("queries line " + (i + 1) + " needs the strings _id "
                        + "and text");
            }
            text.put(n.get("_id").asString(), n.get("text").asString());
        }
        Map<String, Map<String, Integer>> judged = new LinkedHashMap<>();
        String[] lines = split(qrels, "qrels");
        for (int i = 0; i < lines.length; i++) {
            String line = lines[i].strip();
            if (line.isEmpty() || i == 0 && line.toLowerCase(Locale.ROOT).startsWith("query-id")) {
                continue;
            }
            String[] f = line.split("\t");
            int grade;
            try {
                grade = f.length == 3 ? Integer.parseInt(f[2].strip()) : -1;
            } catch (NumberFormatException e) {
                grade = -1;
            }
            if (grade < 0) {
                throw new InvalidInputException("qrels line " + (i + 1) + " must be query-id, "
                        + "corpus-id and an integer score (0 or more), tab-separated");
            }
            if (!text.containsKey(f[0].strip())) {
                throw new InvalidInputException("qrels line " + (i + 1) + " judges query '"
                        + Ids.abbreviate(f[0].strip(), 64) + "', which queries does not hold");
            }
            judged.computeIfAbsent(f[0].strip(), k -> new LinkedHashMap<>()).merge(f[1].strip(), grade,
                    Math::max);
        }
        List<JudgedQuery> out = new ArrayList<>();
        // A query whose every judgment is 0 has nothing to find: BEIR's own evaluation skips it too.
        judged.forEach((q, docs) -> {
            if (docs.values().stream().anyMatch(g -> g > 0)) {
                out.add(new JudgedQuery(q, text.get(q), docs));
            }
        });
        return out;
    }
}
