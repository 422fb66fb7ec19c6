package io.polyrag.core.model;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A document version's whole text, as a full-text store that keeps whole texts indexes it beside the version's
 * records ({@link io.polyrag.core.port.FullTextStore#searchDocuments}).
 *
 * @param version the document version
 * @param knowledgeBase its knowledge base
 * @param text its records' texts joined in the order given, each record's leading lines dropped while they repeat a
 *     leading line of an earlier record (the title and headings every record's index text begins with), so a title
 *     counts once, not once per chunk
 */
public record WholeText(DocumentVersion version, String knowledgeBase, String text) {
    /** How many of a record's first lines may be title and headings. */
    private static final int LEADING = 3;

    /** The whole text of each document version of {@code records}; the records of a version are written together. */
    public static List<WholeText> of(List<StoreRecord> records) {
        Map<DocumentVersion, List<StoreRecord>> byVersion = new LinkedHashMap<>();
        records.forEach(r -> byVersion.computeIfAbsent(r.documentVersion(), v -> new ArrayList<>()).add(r));
        List<WholeText> out = new ArrayList<>(byVersion.size());
        byVersion.forEach((v, rs) -> out.add(new WholeText(v, rs.getFirst().knowledgeBase(),
                join(rs.stream().map(StoreRecord::text).toList()))));
        return out;
    }

    /**
     * Records' texts joined in the order given, each one's leading lines dropped while they repeat a leading line of an
     * earlier one (the title and headings every record's index text begins with).
     */
    public static String join(List<String> texts) {
        StringBuilder text = new StringBuilder();
        Set<String> leading = new HashSet<>();
        for (String t : texts) {
            String[] lines = t.split("\n", -1);
            // A chunk's context (contextual retrieval: one line, then a blank one) comes before its title and
            // headings: kept, and the lines after it judged. Judged from it, nothing repeated and the title and
            // headings were in the whole text once per chunk, weighing their words in its BM25.
            int start = lines.length > 2 && lines[1].isEmpty() && !lines[0].isEmpty() ? 2 : 0;
            int from = start;
            while (from < lines.length - 1 && leading.contains(lines[from])) {
                from++;
            }
            for (int i = 0; i < lines.length; i++) {
                if (i >= start && i < start + LEADING) {
                    leading.add(lines[i]);
                }
                if (i < start || i >= from) {
                    text.append(lines[i]).append('\n');
                }
            }
        }
        return text.toString();
    }

    /** The key a store gives this text's entry: the version's, with a suffix no chunk id has. */
    public String key() {
        return version.documentId() + "@" + version.version() + "#whole";
    }
}
