package io.polyrag.app;

import io.polyrag.app.api.JudgedQuery;
import io.polyrag.app.api.Limits;
import io.polyrag.core.InvalidInputException;
import io.polyrag.core.config.Config;
import io.polyrag.core.config.Settings;
import io.polyrag.core.model.DocumentInfo;
import io.polyrag.core.model.Ids;
import io.polyrag.core.model.KnowledgeBase;
import io.polyrag.core.port.Catalog;
import io.polyrag.core.port.JudgmentStore.Judgment;
import io.polyrag.core.port.JudgmentStore;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * A knowledge base's judged queries (a query, the documents relevant to it, graded): checked and kept, listed,
 * deleted. What the tuning job and the evaluation of {@link KbFusion} learn from.
 */
final class KbJudgments {
    /** Judged queries a knowledge base keeps at most. */
    static final int MAX_JUDGED = JudgedQuery.MAX_QUERIES;
    static final int MAX_RELEVANT = JudgedQuery.MAX_RELEVANT;
    /** Document references one request may carry, over all its judged queries. */
    static final int MAX_REFERENCES = 100_000;
    static final int MAX_QUERY = 1000;
    /**
     * Graded documents a knowledge base keeps at most, over all its judged queries: each is a row holding its query's
     * text, and every listing, tuning and evaluation reads them all (5,000 queries grading 1,000 documents each were
     * five million rows, gigabytes read per call).
     */
    static final int MAX_GRADES = 200_000;
    static final int MAX_GRADE = 10;
    private static final Pattern QUERY_ID = Pattern.compile("[A-Za-z0-9][A-Za-z0-9_.:-]{0,63}");

    private final Catalog catalog;
    private final JudgmentStore judgments;
    /** The longest judged query: {@link #MAX_QUERY}, or the server's longest search when that is shorter. */
    private final int maxQuery;

    /** @param config the server's settings: the longest query a search accepts ({@code search.max.query.chars}) */
    KbJudgments(Catalog catalog, JudgmentStore judgments, Config config) {
        this.catalog = catalog;
        this.judgments = judgments;
        this.maxQuery = Math.min(MAX_QUERY, config.get(Settings.SEARCH_MAX_QUERY_CHARS));
    }

    /** The knowledge base's judged queries. */
    List<JudgedQuery> judgments(KnowledgeBase kb) {
        return judgments.judgments(kb.storageName()).stream().map(j -> new JudgedQuery(
                j.queryId(), j.query(),
                new TreeMap<>(j.relevant()))).toList();
    }

    /**
     * Checks and keeps judged queries; a query id judged before is replaced whole. Documents are named by id or by
     * URI in the knowledge base (a BEIR corpus id indexed by {@code polyrag eval}, whose URIs are {@code beir:ID}, by
     * that id); every one must be in the knowledge base.
     *
     * @return how many queries were kept
     */
    // style: the checks of a judged-query upload, one after another, each naming its field
    int add(KnowledgeBase kb, List<JudgedQuery> in) {
        if (in == null || in.isEmpty()) {
            throw new InvalidInputException("judgments: give at least one judged query ({\"judgments\": [{\"query\": "
                    + "\"...\", \"relevant\": {\"DOCUMENT\": 1}}]})");
        }
        if (in.size() > MAX_JUDGED) {
            throw new InvalidInputException("judgments: " + in.size() + " judged queries in one request, at most "
                    + MAX_JUDGED);
        }
        String stored = kb.storageName();
        Set<String> refs = new LinkedHashSet<>();
        Set<String> ids = new HashSet<>();
        for (int i = 0; i < in.size(); i++) {
            JudgedQuery j = in.get(i);
            String at = "judgments[" + i + "]";
            if (j == null) {
                throw new InvalidInputException(at + " is null: give {\"query\": ..., \"relevant\": {...}}");
            }
            if (j.query() == null || j.query().isBlank()) {
                throw new InvalidInputException(at + ".query is required: the text a user would search");
            }
            if (j.query().chars().anyMatch(ch -> Character.isISOControl(ch) && ch != '\n' && ch != '\t')) {
                throw new InvalidInputException(at + ".query holds a control character: send plain text");
            }
            if (j.query().length() > maxQuery) {
                // Named by its id too: a BEIR upload's index is neither a line of its qrels nor a query id.
                throw new InvalidInputException(at + ".query" + (j.queryId() == null ? "" : " (query_id '"
                        + Ids.abbreviate(j.queryId(), 70) + "')") + " is " + j.query().length() + " characters, at "
                        + "most " + maxQuery + (maxQuery < MAX_QUERY ? " (this server's search.max.query.chars: a "
                        + "longer one could never be searched)" : ""));
            }
            String id = queryId(j);
            if (!QUERY_ID.matcher(id).matches()) {
                throw new InvalidInputException(at + ".query_id '" + Ids.abbreviate(id, 70) + "' is invalid: use 1-64 "
                        + "letters, digits, '_', '.', ':' or '-', starting with a letter or digit");
            }
            if (!ids.add(id)) {
                throw new InvalidInputException(at + ".query_id '" + id + "' appears twice in this request: judge "
                        + "each query once (its relevant documents together)");
            }
            if (j.relevant() == null || j.relevant().isEmpty()) {
                throw new InvalidInputException(at + ".relevant is required: the documents relevant to the query, "
                        + "{\"DOCUMENT\": GRADE}");
            }
            if (j.relevant().size() > MAX_RELEVANT) {
                throw new InvalidInputException(at + ".relevant names " + j.relevant().size() + " documents, at most "
                        + MAX_RELEVANT);
            }
            boolean any = false;
            for (Map.Entry<String, Integer> e : j.relevant().entrySet()) {
                Integer g = e.getValue();
                if (e.getKey() != null && (e.getKey().length() > Limits.MAX_URI
                        || e.getKey().chars().anyMatch(Character::isISOControl))) {
                    throw new InvalidInputException(at + ".relevant names a document by a key longer than "
                            + Limits.MAX_URI + " characters or holding a control character");
                }
                if (e.getKey() == null || e.getKey().isBlank() || g == null || g < 0 || g > MAX_GRADE) {
                    throw new InvalidInputException(at + ".relevant['" + Ids.abbreviate(String.valueOf(e.getKey()), 80)
                            + "'] must be a grade from 0 (not relevant) to " + MAX_GRADE + ", was " + g);
                }
                any |= g > 0;
                refs.add(e.getKey());
            }
            if (refs.size() > MAX_REFERENCES) {
                throw new InvalidInputException("judgments: more than " + MAX_REFERENCES + " document references in "
                        + "one request: send the judged queries in several");
            }
            if (!any) {
                throw new InvalidInputException(at + ".relevant grades every document 0: a judged query needs at "
                        + "least one relevant document (grade 1 or more)");
            }
        }
        Map<String, String> resolved = resolve(stored, refs);
        List<Judgment> out = new ArrayList<>();
        // Every unknown document a grade above 0 names, said at once (one at a time, a BEIR split naming documents
        // a corpus lacks took as many uploads as it has); one graded 0 counts for nothing and is left out.
        Set<String> unknown = new LinkedHashSet<>();
        String firstAt = null;
        for (int i = 0; i < in.size(); i++) {
            JudgedQuery j = in.get(i);
            Map<String, Integer> grades = new LinkedHashMap<>();
            for (Map.Entry<String, Integer> e : j.relevant().entrySet()) {
                String doc = resolved.get(e.getKey());
                if (doc == null) {
                    if (e.getValue() > 0 && unknown.add(e.getKey()) && firstAt == null) {
                        firstAt = "judgments[" + i + "].relevant";
                    }
                    continue;
                }
                grades.merge(doc, e.getValue(), Math::max);
            }
            out.add(new Judgment(queryId(j), j.query().strip(), grades));
        }
        if (!unknown.isEmpty()) {
            throw new InvalidInputException((unknown.size() == 1 ? firstAt + " names '" + Ids.abbreviate(
                    unknown.iterator().next(), 80) + "', which is no document of knowledge base '" + kb.name() + "'"
                    : firstAt + " and others name " + unknown.size() + " documents knowledge base '" + kb.name()
                    + "' does not hold (" + unknown.stream().limit(10).map(u -> "'" + Ids.abbreviate(u, 40) + "'")
                    .collect(Collectors.joining(", ")) + (unknown.size() > 10 ? ", …" : "") + ")")
                    + ": name a document by its id or its URI (GET /v1/documents?kb=" + kb.name() + " lists them); "
                    + "one graded 0 may be unknown");
        }
        List<Judgment> before = judgments.judgments(stored);
        // One question, one judgment: the same text under two ids fell into two folds of a tuning (trained on its
        // own test query) and counted twice in the paired test. In one upload the first judgment of a text counts
        // (a BEIR split may repeat a question); one judged before under another id is replaced by the new one.
        Map<String, String> byText = new HashMap<>();
        before.stream().filter(j -> !ids.contains(j.queryId())).forEach(j -> byText.put(normal(j.query()),
                j.queryId()));
        Set<String> texts = new HashSet<>();
        List<Judgment> kept = new ArrayList<>();
        List<String> replaced = new ArrayList<>();
        for (Judgment j : out) {
            if (texts.add(normal(j.query()))) {
                kept.add(j);
                String other = byText.get(normal(j.query()));
                if (other != null && !other.equals(j.queryId())) {
                    replaced.add(other);
                }
            }
        }
        Set<String> existing = new HashSet<>();
        before.forEach(j -> existing.add(j.queryId()));
        kept.forEach(j -> existing.add(j.queryId()));
        existing.removeAll(replaced);
        if (existing.size() > MAX_JUDGED) {
            throw new InvalidInputException("judgments: the knowledge base would hold " + existing.size() + " judged "
                    + "queries, at most " + MAX_JUDGED + " (DELETE some first)");
        }
        Set<String> keptIds = new HashSet<>();
        kept.forEach(j -> keptIds.add(j.queryId()));
        long grades = kept.stream().mapToLong(j -> j.relevant().size()).sum() + before.stream()
                .filter(j -> !keptIds.contains(j.queryId()) && !replaced.contains(j.queryId()))
                .mapToLong(j -> j.relevant().size()).sum();
        if (grades > MAX_GRADES) {
            throw new InvalidInputException("judgments: the knowledge base would hold " + grades + " graded documents "
                    + "over its judged queries, at most " + MAX_GRADES + " (judge fewer documents per query, or DELETE "
                    + "some queries first)");
        }
        judgments.putJudgments(stored, kept);
        replaced.forEach(id -> judgments.deleteJudgments(stored, id));
        return kept.size();
    }

    /** A query's text as two uploads of one question compare: case and runs of white space aside. */
    private static String normal(String query) {
        return query.strip().replaceAll("\\s+", " ").toLowerCase(Locale.ROOT);
    }

    private static String queryId(JudgedQuery j) {
        if (j.queryId() != null && !j.queryId().isBlank()) {
            return j.queryId();
        }
        return "q-" + Ids.sha256Hex(j.query().strip().getBytes(StandardCharsets.UTF_8)).substring(0, 12);
    }

    /** Document ids by the references naming them: an id, a URI, or a BEIR id ({@code beir:ID}) in the knowledge base. */
    private Map<String, String> resolve(String kb, Set<String> refs) {
        Map<String, List<String>> tries = new LinkedHashMap<>();
        Set<String> all = new LinkedHashSet<>();
        for (String r : refs) {
            List<String> t = List.of(r, Ids.documentId(kb, r), Ids.documentId(kb, "beir:" + r));
            tries.put(r, t);
            all.addAll(t);
        }
        Map<String, DocumentInfo> found = catalog.documentsById(all);
        Map<String, String> out = new HashMap<>();
        tries.forEach((r, t) -> t.stream().map(found::get).filter(d -> d != null && kb.equals(d.knowledgeBase()))
                .findFirst().ifPresent(d -> out.put(r, d.id())));
        return out;
    }

    int delete(KnowledgeBase kb, String queryId) {
        if (queryId != null && !QUERY_ID.matcher(queryId).matches()) {
            throw new InvalidInputException("query_id '" + Ids.abbreviate(queryId.replace('\u0000', ' '), 70)
                    + "' is invalid (no judged query has such an id): use 1-64 letters, digits, '_', '.', ':' or '-', "
                    + "starting with a letter or digit");
        }
        return judgments.deleteJudgments(kb.storageName(), queryId);
    }
}
