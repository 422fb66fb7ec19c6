package io.polyrag.eval;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * A multi-chunk evaluation set made from a BEIR dataset of short documents: each new document joins {@code join}
 * of them (in a shuffled order, each under its own title as a heading), and a judgement of any part judges the whole
 * with the part's grade (the best when several parts are judged). The queries are the source's. So fusion meets what
 * users' manuals and reports give it: documents of many chunks, a question answered by one of them.
 *
 * <p>Usage: {@code eval/long-documents SRC DEST [--join 4] [--seed 7]}; every {@code qrels-*.tsv} and
 * {@code qrels/*.tsv} of SRC is rewritten.
 */
public final class LongDocuments {
    private static final JsonMapper JSON = JsonMapper.builder().build();

    private LongDocuments() {
    }

    // style: a tool script: options, then each step in order
    public static void main(String[] args) throws IOException {
        if (args.length < 2) {
            System.err.println("usage: eval/long-documents SRC DEST [--join 4] [--seed 7]");
            System.exit(2);
        }
        Path src = Path.of(args[0]);
        Path dest = Path.of(args[1]);
        int join = 4;
        long seed = 7;
        for (int i = 2; i + 1 < args.length; i += 2) {
            switch (args[i]) {
                case "--join" -> join = Integer.parseInt(args[i + 1]);
                case "--seed" -> seed = Long.parseLong(args[i + 1]);
                default -> throw new IllegalArgumentException("unknown option " + args[i]);
            }
        }
        if (join < 1) {
            throw new IllegalArgumentException("--join must be at least 1");
        }
        if (Files.exists(dest) && Files.isSameFile(src, dest)) {
            throw new IllegalArgumentException("DEST is SRC: name another folder (its corpus.jsonl would be overwritten)");
        }
        Files.createDirectories(dest);
        List<JsonNode> docs = new ArrayList<>();
        for (String line : Files.readAllLines(src.resolve("corpus.jsonl"), StandardCharsets.UTF_8)) {
            if (!line.isBlank()) {
                docs.add(JSON.readTree(line.replace("\uFEFF", "")));
            }
        }
        Collections.shuffle(docs, new Random(seed));
        Map<String, String> joinedId = new HashMap<>();
        StringBuilder corpus = new StringBuilder();
        for (int from = 0, n = 0; from < docs.size(); from += join, n++) {
            String id = "long-" + n;
            StringBuilder text = new StringBuilder();
            for (JsonNode d : docs.subList(from, Math.min(docs.size(), from + join))) {
                joinedId.put(d.get("_id").asString(), id);
                String title = d.has("title") ? d.get("title").asString() : "";
                text.append(text.isEmpty() ? "" : "\n\n").append(title.isBlank() ? "" : "## " + title + "\n\n")
                        .append(d.path("text").asString(""));
            }
            Map<String, Object> out = new LinkedHashMap<>();
            out.put("_id", id);
            out.put("title", "Collection " + n);
            out.put("text", text.toString());
            corpus.append(JSON.writeValueAsString(out)).append('\n');
        }
        Files.writeString(dest.resolve("corpus.jsonl"), corpus, StandardCharsets.UTF_8);
        Files.copy(src.resolve("queries.jsonl"), dest.resolve("queries.jsonl"),
                StandardCopyOption.REPLACE_EXISTING);
        // qrels-*.tsv, and BEIR's own layout, qrels/*.tsv (written to DEST/qrels/): rewritten alike.
        List<Path> judged = new ArrayList<>();
        try (var files = Files.list(src)) {
            judged.addAll(files.filter(p -> p.getFileName().toString().matches("qrels-.*\\.tsv")).toList());
        }
        if (Files.isDirectory(src.resolve("qrels"))) {
            try (var files = Files.list(src.resolve("qrels"))) {
                judged.addAll(files.filter(p -> p.getFileName().toString().endsWith(".tsv")).toList());
            }
        }
        if (judged.isEmpty()) {
            throw new IllegalArgumentException("SRC has no judgements: neither qrels-*.tsv nor qrels/*.tsv");
        }
        for (Path q : judged) {
            Map<String, Map<String, Integer>> grades = new LinkedHashMap<>();
            List<String> lines = Files.readAllLines(q, StandardCharsets.UTF_8);
            // As the dataset's reader takes it: a header line only where it names query-id.
            boolean header = !lines.isEmpty() && lines.getFirst().replace("\uFEFF", "").startsWith("query-id");
            for (String line : lines.subList(header ? 1 : 0, lines.size())) {
                String[] f = line.replace("\uFEFF", "").strip().split("\t");
                if (f.length < 3 || !joinedId.containsKey(f[1])) {
                    continue;
                }
                int grade;
                try {
                    grade = Integer.parseInt(f[2].strip());
                } catch (NumberFormatException e) {
                    System.err.println(q.getFileName() + ": grade '" + f[2] + "' is not an integer, line skipped");
                    continue;
                }
                grades.computeIfAbsent(f[0], k -> new LinkedHashMap<>()).merge(joinedId.get(f[1]), grade,
                        Math::max);
            }
            StringBuilder out = new StringBuilder("query-id\tcorpus-id\tscore\n");
            grades.forEach((query, byDoc) -> byDoc.forEach((doc, grade) -> out.append(query).append('\t')
                    .append(doc).append('\t').append(grade).append('\n')));
            Path to = dest.resolve(src.relativize(q));
            Files.createDirectories(to.getParent());
            Files.writeString(to, out, StandardCharsets.UTF_8);
        }
        System.out.printf("%d documents of up to %d joined into %d in %s%n", docs.size(), join,
                (docs.size() + join - 1) / join, dest);
    }
}
