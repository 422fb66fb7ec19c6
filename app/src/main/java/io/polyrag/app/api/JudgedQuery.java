package io.polyrag.app.api;

import io.polyrag.app.Json;
import io.polyrag.core.InvalidInputException;
import io.polyrag.core.model.Ids;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.Reader;
import java.io.StringReader;
import java.io.UncheckedIOException;
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
    /** Judged queries in one upload. */
    public static final int MAX_QUERIES = 5000;
    /** Documents judged for one query. */
    public static final int MAX_RELEVANT = 1000;

    /** Longest line of a BEIR queries file: a query, not a document. */
    private static final int MAX_QUERY_LINE = 1 << 20;

    /**
     * Judged queries from BEIR files: {@code qrels} (tab-separated query-id, corpus-id, score; a header line
     * {@code query-id corpus-id score} is skipped) and {@code queries} (JSON lines with {@code _id} and {@code text});
     * each query the qrels judge must be in {@code queries}.
     */
    public static List<JudgedQuery> fromBeir(String qrels, String queries) {
        try {
            return fromBeir(qrels, new StringReader(queries));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** {@code s} without a leading byte-order mark. */
    public static String withoutBom(String s) {
        return s.startsWith("\uFEFF") ? s.substring(1) : s;
    }

    /** The qrels' judgments by query, and the line each query is first judged on. */
    private static void readQrels(String qrels, Map<String, Map<String, Integer>> judged,
            Map<String, Integer> firstLine) {
        String[] lines = split(qrels, "qrels");
        for (int i = 0; i < lines.length; i++) {
            // A file saved "UTF-8 with BOM" (Windows) keeps the mark before its header, which strip() leaves.
            String line = (i == 0 ? withoutBom(lines[i]) : lines[i]).strip();
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
            // Refused as the bound is passed, not after a million lines built a million maps.
            if (judged.size() >= MAX_QUERIES && !judged.containsKey(f[0].strip())) {
                throw new InvalidInputException("qrels line " + (i + 1) + ": more than " + MAX_QUERIES + " judged "
                        + "queries in one upload; send them in parts");
            }
            firstLine.putIfAbsent(f[0].strip(), i + 1);
            Map<String, Integer> relevant = judged.computeIfAbsent(f[0].strip(), k -> new LinkedHashMap<>());
            relevant.merge(f[1].strip(), grade, Math::max);
            if (relevant.size() > MAX_RELEVANT) {
                throw new InvalidInputException("qrels line " + (i + 1) + ": query " + Ids.abbreviate(f[0].strip(), 64)
                        + " judges more than " + MAX_RELEVANT + " documents");
            }
        }
    }

    /**
     * Like {@link #fromBeir(String, String)}, reading {@code queries} as a stream and keeping only the texts the
     * qrels judge: a collection's queries file holds every split's queries (MS MARCO's is hundreds of MiB), the
     * qrels one split's.
     */
    public static List<JudgedQuery> fromBeir(String qrels, Reader queries) throws IOException {
        Map<String, Map<String, Integer>> judged = new LinkedHashMap<>();
        Map<String, Integer> firstLine = new HashMap<>();
        readQrels(qrels, judged, firstLine);
        Map<String, String> text = new HashMap<>();
        BufferedReader in = new BufferedReader(queries);
        StringBuilder line = new StringBuilder();
        for (int n = 1; readLine(in, line, n); n++) {
            String l = (n == 1 ? withoutBom(line.toString()) : line.toString()).strip();
            if (l.isEmpty()) {
                continue;
            }
            JsonNode q;
            try {
                q = Json.MAPPER.readTree(l);
            } catch (JacksonException e) {
                throw new InvalidInputException("queries line " + n + " is not JSON: each line "
                        + "is {\"_id\": ..., \"text\": ...}");
            }
            if (q == null || !q.isObject() || !q.path("_id").isString() || !q.path("text").isString()) {
                throw new InvalidInputException("queries line " + n + " needs the strings _id and text");
            }
            if (judged.containsKey(q.get("_id").asString())) {
                text.put(q.get("_id").asString(), q.get("text").asString());
            }
        }
        for (String q : judged.keySet()) {
            if (!text.containsKey(q)) {
                throw new InvalidInputException("qrels line " + firstLine.get(q) + " judges query '"
                        + Ids.abbreviate(q, 64) + "', which queries does not hold");
            }
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

    /** The next line into {@code line} (without its break); false at the end. A line past 1 MiB is refused. */
    private static boolean readLine(BufferedReader in, StringBuilder line, int n) throws IOException {
        line.setLength(0);
        int c = in.read();
        if (c < 0) {
            return false;
        }
        for (; c >= 0 && c != '\n'; c = in.read()) {
            if (line.length() >= MAX_QUERY_LINE) {
                throw new InvalidInputException("queries line " + n + " is longer than " + (MAX_QUERY_LINE >> 20)
                        + " MiB: each line is one query, {\"_id\": ..., \"text\": ...}");
            }
            line.append((char) c);
        }
        return true;
    }

    /** A file's lines, counted before it is split: a million empty lines are refused, not made a million strings. */
    private static String[] split(String file, String field) {
        long count = file.chars().filter(c -> c == '\n').count();
        if (count > MAX_QRELS_LINES) {
            throw new InvalidInputException(field + " has " + count + " lines, at most " + MAX_QRELS_LINES);
        }
        return file.split("\\r?\\n");
    }
}
