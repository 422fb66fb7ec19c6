package io.polyrag.eval;

import io.polyrag.core.InvalidInputException;
import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * A dataset in BEIR's layout: {@code corpus.jsonl} ({@code _id}, {@code title}, {@code text}), {@code queries.jsonl}
 * ({@code _id}, {@code text}) and a qrels file ({@code query-id, corpus-id, score}, tab-separated, header line;
 * {@code qrels-test.tsv}, or BEIR's own {@code qrels/test.tsv}).
 *
 * <p>A missing file fails with its path. A malformed line is skipped and reported as {@code file:line: reason};
 * qrels naming unknown queries are dropped (the query cannot be run) and qrels naming unknown documents are kept
 * (they count as relevant and unfindable, as trec_eval would) but reported.
 */
public record BeirDataset(String name, Map<String, Doc> corpus, Map<String, String> queries,
        Map<String, Map<String, Integer>> qrels, List<String> warnings) {

    /** One corpus document. */
    public record Doc(String id, String title, String text) {
    }

    private static final JsonMapper JSON = JsonMapper.builder().build();

    public static BeirDataset load(Path dir) {
        return load(dir, null);
    }

    /**
     * Loads a dataset judged by {@code qrels} (a file name inside {@code dir}, or a path); null means
     * {@code qrels-test.tsv}, else {@code qrels/test.tsv}. Judgements of another split (e.g. {@code qrels-train.tsv})
     * are for tuning settings without looking at the test split.
     */
    public static BeirDataset load(Path dir, String qrelsName) {
        if (!Files.isDirectory(dir)) {
            throw new InvalidInputException("dataset " + dir + " is not a directory: give the folder holding "
                    + "corpus.jsonl, queries.jsonl and qrels-test.tsv");
        }
        Capped warnings = new Capped();
        Map<String, Doc> corpus = new LinkedHashMap<>();
        readJsonl(require(dir, "corpus.jsonl"), warnings, (node, where) -> {
            String id = text(node, "_id");
            String body = text(node, "text");
            if (id.isEmpty()) {
                throw new IllegalArgumentException("no _id");
            }
            if (body.isBlank() && text(node, "title").isBlank()) {
                throw new IllegalArgumentException("document " + id + " has neither title nor text");
            }
            if (corpus.put(id, new Doc(id, text(node, "title"), body)) != null) {
                warnings.add(where + ": duplicate document id " + id + "; the later line wins");
            }
        });
        Map<String, String> queries = new LinkedHashMap<>();
        readJsonl(require(dir, "queries.jsonl"), warnings, (node, where) -> {
            String id = text(node, "_id");
            String q = text(node, "text");
            if (id.isEmpty()) {
                throw new IllegalArgumentException("no _id");
            }
            if (q.isBlank()) {
                throw new IllegalArgumentException("query " + id + " is empty");
            }
            queries.put(id, q);
        });
        Path qrelsFile = qrelsName != null ? require(dir, qrelsName)
                : Files.exists(dir.resolve("qrels-test.tsv")) ? dir.resolve("qrels-test.tsv")
                : require(dir, "qrels/test.tsv");
        Map<String, Map<String, Integer>> qrels = readQrels(qrelsFile, queries, corpus, warnings);
        if (corpus.isEmpty() || qrels.isEmpty()) {
            // With why: the warnings saying so were printed only for a dataset that loaded.
            List<String> why = warnings.withCounts();
            throw new InvalidInputException("dataset " + dir + " has " + corpus.size() + " usable documents and "
                    + qrels.size() + " judged queries: nothing to evaluate" + (why.isEmpty() ? "" : "; "
                    + String.join("; ", why.subList(0, Math.min(3, why.size())))));
        }
        return new BeirDataset(dir.toAbsolutePath().normalize().getFileName().toString(), corpus, queries, qrels,
                warnings.withCounts());
    }

    /** Warnings kept per file (a corpus written pretty-printed made one per line, millions, printed and reported). */
    static final int WARNINGS_PER_FILE = 20;

    /** A list of warnings keeping the first {@link #WARNINGS_PER_FILE} of each file and counting the others. */
    private static final class Capped extends ArrayList<String> {
        private final Map<String, Integer> perFile = new LinkedHashMap<>();

        @Override
        public boolean add(String warning) {
            int colon = warning.indexOf(':');
            String file = colon < 0 ? "" : warning.substring(0, colon);
            int n = perFile.merge(file, 1, Integer::sum);
            return n <= WARNINGS_PER_FILE && super.add(warning);
        }

        List<String> withCounts() {
            List<String> out = new ArrayList<>(this);
            perFile.forEach((file, n) -> {
                if (n > WARNINGS_PER_FILE) {
                    out.add(file + ": " + (n - WARNINGS_PER_FILE) + " more warnings like these, not listed");
                }
            });
            return out;
        }
    }

    private static Path require(Path dir, String file) {
        Path p = dir.resolve(file);
        if (!Files.isRegularFile(p)) {
            throw new InvalidInputException("dataset file " + p + " is missing: a BEIR dataset has corpus.jsonl, "
                    + "queries.jsonl and qrels-test.tsv (or qrels/test.tsv)");
        }
        return p;
    }

    private interface LineHandler {
        void accept(JsonNode node, String where);
    }

    private static void readJsonl(Path file, List<String> warnings, LineHandler handler) {
        try (BufferedReader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            String line;
            int n = 0;
            while ((line = r.readLine()) != null) {
                n++;
                if (n == 1) {
                    line = withoutBom(line);
                }
                if (line.isBlank()) {
                    continue;
                }
                String where = file.getFileName() + ":" + n;
                try {
                    JsonNode node = JSON.readTree(line);
                    if (!node.isObject()) {
                        throw new IllegalArgumentException("not a JSON object");
                    }
                    handler.accept(node, where);
                } catch (JacksonException e) {
                    warnings.add(where + ": malformed JSON, line skipped (" + e.getOriginalMessage() + ")");
                } catch (IllegalArgumentException e) {
                    warnings.add(where + ": " + e.getMessage() + ", line skipped");
                }
            }
        } catch (IOException e) {
            throw new InvalidInputException("cannot read " + file + ": " + e.getMessage(), e);
        }
    }

    private static Map<String, Map<String, Integer>> readQrels(Path file, Map<String, String> queries,
            Map<String, Doc> corpus, List<String> warnings) {
        Map<String, Map<String, Integer>> qrels = new LinkedHashMap<>();
        Map<String, Integer> unknownDocs = new HashMap<>();
        int unknownQueries = 0;
        List<String> lines;
        try {
            lines = new ArrayList<>(Files.readAllLines(file, StandardCharsets.UTF_8));
            if (!lines.isEmpty()) {
                lines.set(0, withoutBom(lines.getFirst()));
            }
        } catch (IOException e) {
            throw new InvalidInputException("cannot read " + file + ": " + e.getMessage(), e);
        }
        for (int i = 0; i < lines.size(); i++) {
            String[] f = lines.get(i).strip().split("\t");
            if (lines.get(i).isBlank() || (i == 0 && f[0].equals("query-id"))) {
                continue;
            }
            String where = file.getFileName() + ":" + (i + 1);
            if (f.length != 3) {
                warnings.add(where + ": expected query-id<TAB>corpus-id<TAB>score, line skipped");
                continue;
            }
            int score;
            try {
                score = Integer.parseInt(f[2].strip());
            } catch (NumberFormatException e) {
                warnings.add(where + ": score '" + f[2] + "' is not an integer, line skipped");
                continue;
            }
            if (!queries.containsKey(f[0])) {
                unknownQueries++;
                continue;
            }
            if (!corpus.containsKey(f[1])) {
                unknownDocs.merge(f[0], 1, Integer::sum);
            }
            qrels.computeIfAbsent(f[0], k -> new LinkedHashMap<>()).put(f[1], score);
        }
        if (unknownQueries > 0) {
            warnings.add(file.getFileName() + ": " + unknownQueries + " judgements name queries missing from "
                    + "queries.jsonl; those were dropped");
        }
        if (!unknownDocs.isEmpty()) {
            warnings.add(file.getFileName() + ": " + unknownDocs.values().stream().mapToInt(Integer::intValue).sum()
                    + " judgements name documents missing from corpus.jsonl; they count as relevant but cannot be "
                    + "found");
        }
        int unjudged = qrels.size();
        qrels.values().removeIf(m -> m.values().stream().noneMatch(s -> s > 0));
        unjudged -= qrels.size();
        if (unjudged > 0) {
            warnings.add(file.getFileName() + ": " + unjudged + (unjudged == 1 ? " query has" : " queries have")
                    + " no judgement above 0 (nothing relevant to find); left out of every figure");
        }
        return qrels;
    }

    /** A line without the byte-order mark a Windows editor writes at the start of a UTF-8 file. */
    private static String withoutBom(String line) {
        return line.startsWith("\uFEFF") ? line.substring(1) : line;
    }

    private static String text(JsonNode node, String field) {
        JsonNode v = node.get(field);
        return v == null || v.isNull() ? "" : v.asString();
    }
}
