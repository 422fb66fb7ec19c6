package io.polyrag.store.opensearch;

import io.polyrag.core.StoreException;
import io.polyrag.core.UnavailableException;
import io.polyrag.core.config.Settings;
import io.polyrag.core.model.DocumentVersion;
import io.polyrag.core.model.SearchScope;
import io.polyrag.core.model.StoreHit;
import io.polyrag.core.model.StoreRecord;
import io.polyrag.core.model.Lexical;
import io.polyrag.core.model.WholeText;
import io.polyrag.core.model.WholeTextCoverage;
import io.polyrag.core.port.FullTextStore;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.opensearch.client.opensearch.OpenSearchClient;
import org.opensearch.client.opensearch._types.FieldValue;
import org.opensearch.client.opensearch._types.OpenSearchException;
import org.opensearch.client.opensearch._types.Refresh;
import org.opensearch.client.opensearch._types.SortOrder;
import org.opensearch.client.opensearch._types.aggregations.CompositeAggregationSource;
import org.opensearch.client.opensearch._types.aggregations.CompositeBucket;
import org.opensearch.client.opensearch._types.query_dsl.Query;
import org.opensearch.client.opensearch.core.BulkRequest;
import org.opensearch.client.opensearch.core.BulkResponse;
import org.opensearch.client.opensearch.core.SearchResponse;
import org.opensearch.client.opensearch.generic.Body;
import org.opensearch.client.opensearch.generic.Requests;
import org.opensearch.client.transport.httpclient5.ResponseException;

/**
 * Full text on OpenSearch: one index for every knowledge base (a {@code kb} keyword field filters a search to its
 * scope, so a tenant's search never sees another's chunks and no index multiplies per knowledge base), the
 * {@code english} analyzer (the same chain as the embedded store's Lucene EnglishAnalyzer: standard tokenizer,
 * possessives, lower case, English stop words, Porter stemming) and BM25 with the configured k1 and b — applied
 * to an existing index when they change, by closing and reopening it.
 *
 * <p>Writes are one bulk request with {@code refresh=true}: when {@link #upsert} returns, the records are durable
 * (the translog is fsynced per request) and searchable, so the pipeline's stage → publish → delete-old order holds:
 * the new version's records are searchable before the catalog publishes it, and the catalog's visibility join
 * hides the old version until its records are deleted — no gap, no double version. A bulk that fails for some
 * records is a {@link StoreException} naming the first failure; the pipeline then removes the version.
 */
final class OpenSearchFullTextStore implements FullTextStore {
    /** The most distinct words a query sends: a match query holds one clause per term, and clauses are limited. */
    private static final int MAX_QUERY_TERMS = 512;
    /**
     * Each document version's whole text ({@link WholeText}) is an entry beside its chunks: its text in a field of
     * its own (BM25 statistics counted over documents), marked by {@code entry}, never matched by a chunk search.
     */
    private static final String WHOLE_FIELDS = "\"whole\": {\"type\": \"text\", \"analyzer\": \"english\"}, "
            + "\"entry\": {\"type\": \"keyword\"}";
    private static final Query NOT_WHOLE = Query.of(q -> q.bool(b -> b.mustNot(m -> m.term(t -> t.field("entry")
            .value(FieldValue.of("whole"))))));

    private final OpenSearchClient client;
    private final String index;
    private final AutoCloseable transport;
    private final WholeTextCoverage coverage;

    OpenSearchFullTextStore(OpenSearchClient client, AutoCloseable transport, String url, String index, double k1,
            double b) {
        this.client = client;
        this.transport = transport;
        this.index = index;
        this.coverage = new WholeTextCoverage("the OpenSearch index '" + index + "'");
        try {
            ensureIndex(k1, b);
        } catch (IOException e) {
            // Not answering is "try again later" (a cluster still starting beside polyrag), as for every other store.
            throw new UnavailableException("cannot reach OpenSearch at " + url + " ("
                    + Settings.OPENSEARCH_URL.env() + "): " + e.getClass().getSimpleName()
                    + (e.getMessage() == null ? "" : ": " + e.getMessage()), e);
        } catch (OpenSearchException e) {
            throw new StoreException("OpenSearch at " + url + " refused to create or open index '" + index + "': "
                    + e.getMessage(), e);
        }
    }

    private void ensureIndex(double k1, double b) throws IOException {
        String similarity = "{\"default\": {\"type\": \"BM25\", \"k1\": " + k1 + ", \"b\": " + b + "}}";
        String body = """
                {"settings": {"number_of_shards": 1, "index": {"similarity": %s}},
                 "mappings": {"dynamic": "strict", "properties": {
                   "chunk_id": {"type": "keyword"}, "document_id": {"type": "keyword"},
                   "version": {"type": "long"}, "kb": {"type": "keyword"},
                   "text": {"type": "text", "analyzer": "english"}, %s}}}
                """.formatted(similarity, WHOLE_FIELDS);
        // The same settings as a template for this index's name: deleted while polyrag runs, the index a write
        // creates again has this mapping, not the dynamic one (kb and chunk_id as text: every search failed on
        // the sort, or its knowledge-base filter matched nothing, for good).
        String[] template = raw("PUT", "/_index_template/" + index, "{\"index_patterns\": [\"" + index + "\"], "
                + "\"priority\": 500, \"template\": " + body + "}");
        if (template[0].equals("401") || template[0].equals("403")) {
            // A user allowed the index alone (templates are a cluster permission): the start's mapping check below
            // still guards searches.
            System.getLogger(OpenSearchFullTextStore.class.getName()).log(System.Logger.Level.WARNING, "OpenSearch "
                    + "refused the template of index '" + index + "' (HTTP " + template[0] + "): an index deleted while "
                    + "polyrag runs would come back without its mapping; grant cluster_manage_index_templates to keep it");
        } else if (!template[0].startsWith("2")) {
            throw new StoreException("OpenSearch refused the template of index '" + index + "': HTTP " + template[0]
                    + " " + template[1]);
        }
        if (!client.indices().exists(e -> e.index(index)).value()) {
            String[] r = raw("PUT", "/" + index, body);
            if (!r[0].startsWith("2") && !r[1].contains("resource_already_exists")) {
                throw new StoreException("OpenSearch refused to create index '" + index + "': HTTP " + r[0] + " "
                        + r[1]);
            }
            awaitShards();
            return;
        }
        // Another replica may have created it a moment ago: its shard may not be allocated yet (a count or a
        // search would answer 503 "all shards failed" until it is).
        awaitShards();
        // One made by a write before the template existed has dynamic fields: its searches cannot work.
        String[] mapping = raw("GET", "/" + index + "/_mapping", null);
        String compact = mapping[1].replaceAll("\\s", "");
        if (!compact.contains("\"kb\":{\"type\":\"keyword\"}")
                || !compact.contains("\"chunk_id\":{\"type\":\"keyword\"}")) {
            throw new StoreException("OpenSearch index '" + index + "' was not created by polyrag (its kb and "
                    + "chunk_id fields are not keywords: a write made it after the index was deleted?): delete the "
                    + "index, start polyrag, and run 'polyrag check --repair' to index the full text again");
        }
        // An index created before whole texts were kept gets their fields (adding fields is allowed on an open index).
        String[] mapped = raw("PUT", "/" + index + "/_mapping", "{\"properties\": {" + WHOLE_FIELDS + "}}");
        if (!mapped[0].startsWith("2")) {
            throw new StoreException("OpenSearch refused the whole-text fields of index '" + index + "': HTTP "
                    + mapped[0] + " " + mapped[1]);
        }
        String[] settings = raw("GET", "/" + index + "/_settings?flat_settings=true", null);
        if (!settings[1].contains("\"index.similarity.default.k1\":\"" + k1 + "\"")
                || !settings[1].contains("\"index.similarity.default.b\":\"" + b + "\"")) {
            // Similarity is a static setting: it changes on a closed index.
            client.indices().close(c -> c.index(index));
            try {
                String[] r = raw("PUT", "/" + index + "/_settings", "{\"index\": {\"similarity\": " + similarity
                        + "}}");
                if (!r[0].startsWith("2")) {
                    throw new StoreException("OpenSearch refused BM25 k1=" + k1 + ", b=" + b + " for index '" + index
                            + "': HTTP " + r[0] + " " + r[1]);
                }
            } finally {
                client.indices().open(o -> o.index(index));
                awaitShards();
            }
        }
    }

    /**
     * Waits (up to 30 s) until the index's primary shard is allocated and answers a count. Cluster health alone was
     * not enough: once, with two replicas starting beside each other, a count right after health reported the index
     * yellow still answered 503 "all shards failed", so the wait ends only when a count succeeds.
     */
    private void awaitShards() throws IOException {
        client.cluster().health(h -> h.index(index).waitForStatus(
                org.opensearch.client.opensearch._types.HealthStatus.Yellow).timeout(t -> t.time("30s")));
        long deadline = System.nanoTime() + 30_000_000_000L;
        while (true) {
            String[] r = raw("POST", "/" + index + "/_count", "{}");
            if (r[0].startsWith("2")) {
                return;
            }
            if (!r[0].equals("503") || System.nanoTime() > deadline) {
                throw new StoreException("OpenSearch index '" + index + "' cannot be counted: HTTP " + r[0] + " "
                        + r[1]);
            }
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted while waiting for index '" + index + "' to open", e);
            }
        }
    }

    /** A request the typed client has no builder for: {status, body}, whatever the status. */
    private String[] raw(String method, String endpoint, String json) throws IOException {
        var request = Requests.builder().method(method).endpoint(endpoint);
        if (json != null) {
            request.json(json);
        }
        try (var response = client.generic().execute(request.build())) {
            return new String[] {Integer.toString(response.getStatus()), response.getBody().map(
                    Body::bodyAsString).orElse("")};
        } catch (ResponseException e) {
            // The transport throws for some error statuses (a 503 among them) rather than return them.
            return new String[] {Integer.toString(e.status()), String.valueOf(e.getMessage())};
        }
    }

    @Override
    public void upsert(List<StoreRecord> records) {
        if (records.isEmpty()) {
            return;
        }
        // refresh=true, not wait_for: wait_for holds every write until the next scheduled refresh (up to a second),
        // which made a SciFact ingest 13x slower; an explicit refresh makes the records searchable at once.
        BulkRequest.Builder bulk = new BulkRequest.Builder().refresh(Refresh.True);
        for (StoreRecord r : records) {
            Map<String, Object> doc = new LinkedHashMap<>();
            doc.put("chunk_id", r.chunkId());
            doc.put("document_id", r.documentId());
            doc.put("version", r.version());
            doc.put("kb", r.knowledgeBase());
            doc.put("text", Lexical.fold(r.text()));
            bulk.operations(op -> op.index(i -> i.index(index).id(r.chunkId()).document(doc)));
        }
        for (WholeText w : WholeText.of(records)) {
            Map<String, Object> doc = new LinkedHashMap<>();
            doc.put("chunk_id", w.key());
            doc.put("document_id", w.version().documentId());
            doc.put("version", w.version().version());
            doc.put("kb", w.knowledgeBase());
            doc.put("whole", Lexical.fold(w.text()));
            doc.put("entry", "whole");
            bulk.operations(op -> op.index(i -> i.index(index).id(w.key()).document(doc)));
        }
        BulkResponse response = call("write " + records.size() + " records", () -> client.bulk(bulk.build()));
        if (response.errors()) {
            var failed = response.items().stream().filter(i -> i.error() != null).toList();
            String why = "OpenSearch refused " + failed.size() + " of " + records.size() + " records, e.g. "
                    + failed.getFirst().id() + ": " + failed.getFirst().error().reason();
            // Every refusal a 503 (its shards unavailable): the batch is written once the cluster has them again.
            boolean load = failed.stream().allMatch(i -> i.status() == 503);
            throw load ? new StoreException(why, new UnavailableException(why)) : new StoreException(why);
        }
    }

    @Override
    public void delete(Collection<DocumentVersion> versions) {
        if (versions.isEmpty()) {
            return;
        }
        List<Query> any = versions.stream().map(v -> Query.of(q -> q.bool(b -> b
                .filter(f -> f.term(t -> t.field("document_id").value(FieldValue.of(v.documentId()))))
                .filter(f -> f.term(t -> t.field("version").value(FieldValue.of(v.version()))))))).toList();
        // 200 versions a request: two clauses each stay well under the clause limit, which counts nested ones.
        for (int i = 0; i < any.size(); i += 200) {
            List<Query> part = any.subList(i, Math.min(any.size(), i + 200));
            deleteWhere(Query.of(q -> q.bool(b -> b.should(part).minimumShouldMatch("1"))));
        }
    }

    @Override
    public void deleteDocuments(Collection<String> documentIds) {
        if (documentIds.isEmpty()) {
            return;
        }
        List<String> ids = List.copyOf(documentIds);
        for (int i = 0; i < ids.size(); i += 1000) {
            deleteWhere(terms("document_id", ids.subList(i, Math.min(ids.size(), i + 1000))));
        }
    }

    private void deleteWhere(Query query) {
        var r = call("delete records", () -> client.deleteByQuery(d -> d.index(index).query(query).refresh(Refresh.True)
                .conflicts(org.opensearch.client.opensearch._types.Conflicts.Proceed)));
        // Proceeding past version conflicts must not hide a delete that did not happen: stale records would stay.
        // A conflicted record (written again while the delete ran) is counted apart from the failures.
        long conflicts = r.versionConflicts() == null ? 0 : r.versionConflicts();
        if (Boolean.TRUE.equals(r.timedOut()) || !r.failures().isEmpty() || conflicts > 0) {
            throw new StoreException("OpenSearch did not delete every record in index '" + index + "': "
                    + (Boolean.TRUE.equals(r.timedOut()) ? "timed out" : !r.failures().isEmpty() ? r.failures().size()
                    + " failures, e.g. " + r.failures().getFirst().cause().reason() : conflicts + " records changed "
                    + "while they were deleted"));
        }
    }

    @Override
    public long size() {
        return call("count records", () -> client.count(c -> c.index(index).query(NOT_WHOLE))).count();
    }

    /** A readiness probe's read: a count that stops at the first record, not a walk of millions every few seconds. */
    @Override
    public void ping() {
        call("read", () -> client.count(c -> c.index(index).terminateAfter(1)));
    }

    @Override
    public Map<DocumentVersion, Long> versions() {
        Map<DocumentVersion, Long> out = new HashMap<>();
        Map<String, FieldValue> after = null;
        while (true) {
            Map<String, FieldValue> from = after;
            SearchResponse<Void> r = call("list versions", () -> client.search(s -> s.index(index).size(0)
                    .query(NOT_WHOLE)
                    .aggregations("v", a -> a.composite(c -> {
                        c.size(1000).sources(List.of(
                                Map.of("d", CompositeAggregationSource.of(cs -> cs.terms(t -> t.field("document_id")))),
                                Map.of("n", CompositeAggregationSource.of(cs -> cs.terms(t -> t.field("version"))))));
                        if (from != null) {
                            c.after(from);
                        }
                        return c;
                    })), Void.class));
            var composite = r.aggregations().get("v").composite();
            List<CompositeBucket> buckets = composite.buckets().array();
            for (CompositeBucket bucket : buckets) {
                out.put(new DocumentVersion(bucket.key().get("d").stringValue(), bucket.key().get("n").longValue()),
                        bucket.docCount());
            }
            if (buckets.size() < 1000 || composite.afterKey() == null || composite.afterKey().isEmpty()) {
                return out;
            }
            after = new HashMap<>(composite.afterKey());
        }
    }

    @Override
    public long records(DocumentVersion version) {
        return call("count a version's records", () -> client.count(c -> c.index(index).query(q -> q.bool(b -> b
                .mustNot(m -> m.term(t -> t.field("entry").value(FieldValue.of("whole"))))
                .filter(f -> f.term(t -> t.field("document_id").value(FieldValue.of(version.documentId()))))
                .filter(f -> f.term(t -> t.field("version").value(FieldValue.of(version.version())))))))).count();
    }

    @Override
    public List<StoreHit> search(String query, SearchScope scope, int limit) {
        String text = plain(query);
        if (text.isBlank() || limit <= 0) {
            return List.of();
        }
        return hits(ranked("search", "text", text, filters(scope), limit));
    }

    @Override
    public Map<DocumentVersion, Double> searchDocuments(String query, SearchScope scope, int limit) {
        String text = plain(query);
        if (text.isBlank() || limit <= 0 || !wholeComplete()) {
            return Map.of();
        }
        Map<DocumentVersion, Double> out = new LinkedHashMap<>();
        for (StoreHit h : hits(ranked("search documents", "whole", text, filters(scope), limit))) {
            out.put(new DocumentVersion(h.documentId(), h.version()), h.score());
        }
        return out;
    }

    @Override
    public List<StoreHit> bestPassages(String query, SearchScope scope, Collection<DocumentVersion> versions) {
        String text = plain(query);
        if (text.isBlank() || versions.isEmpty()) {
            return List.of();
        }
        Set<DocumentVersion> wanted = new HashSet<>(versions);
        List<Query> filters = filters(scope);
        // The versions asked for, before the collapse: filtered after it, an older version's better passage (not
        // yet purged) won the document's one place and was then dropped, leaving the document without a passage.
        List<Query> asked = wanted.stream().map(v -> Query.of(q -> q.bool(b -> b
                .filter(f -> f.term(t -> t.field("document_id").value(FieldValue.of(v.documentId()))))
                .filter(f -> f.term(t -> t.field("version").value(FieldValue.of(v.version()))))))).toList();
        filters.add(Query.of(q -> q.bool(b -> b.should(asked).minimumShouldMatch("1"))));
        // One hit per document: its best passage (a document asked for in two versions is rare: a version swap).
        @SuppressWarnings({"rawtypes", "unchecked"})
        SearchResponse<Map> r = call("search best passages", () -> client.search(s -> s.index(index)
                .size(wanted.size()).trackScores(true).trackTotalHits(t -> t.enabled(false))
                .source(src -> src.filter(f -> f.includes("document_id", "version")))
                .query(q -> q.bool(b -> b.must(m -> m.match(mt -> mt.field("text").query(FieldValue.of(text))))
                        .filter(filters)))
                .collapse(c -> c.field("document_id")), Map.class));
        return hits(r).stream().filter(h -> wanted.contains(new DocumentVersion(h.documentId(), h.version())))
                .toList();
    }

    /** Whether every document version has its whole entry, counted again at most once a minute while not. */
    private boolean wholeComplete() {
        return coverage.complete(WholeTextCoverage.minute(), () -> call("count whole texts", () -> client.count(c -> c
                .index(index).query(q -> q.term(t -> t.field("entry").value(FieldValue.of("whole")))))).count()
                >= versions().size());
    }

    private static List<Query> filters(SearchScope scope) {
        List<Query> filters = new ArrayList<>();
        if (!scope.knowledgeBases().isEmpty()) {
            filters.add(terms("kb", List.copyOf(scope.knowledgeBases())));
        }
        if (!scope.documentIds().isEmpty()) {
            filters.add(terms("document_id", List.copyOf(scope.documentIds())));
        }
        return filters;
    }

    /** The {@code limit} best entries by BM25 of {@code text} over {@code field}, ties by id. */
    @SuppressWarnings({"rawtypes", "unchecked"})
    private SearchResponse<Map> ranked(String what, String field, String text, List<Query> filters, int limit) {
        return call(what, () -> client.search(s -> s.index(index).size(limit).trackScores(true)
                .trackTotalHits(t -> t.enabled(false))
                .source(src -> src.filter(f -> f.includes("document_id", "version")))
                .query(q -> q.bool(b -> b.must(m -> m.match(mt -> mt.field(field).query(FieldValue.of(text))))
                        .filter(filters)))
                .sort(so -> so.score(sc -> sc.order(SortOrder.Desc)))
                .sort(so -> so.field(f -> f.field("chunk_id").order(SortOrder.Asc))), Map.class));
    }

    @SuppressWarnings("rawtypes")
    private static List<StoreHit> hits(SearchResponse<Map> r) {
        List<StoreHit> hits = new ArrayList<>();
        for (var h : r.hits().hits()) {
            Map<?, ?> src = h.source();
            if (src == null || h.score() == null) {
                continue;
            }
            hits.add(new StoreHit(h.id(), String.valueOf(src.get("document_id")), ((Number) src.get("version"))
                    .longValue(), h.score()));
        }
        return hits;
    }

    /**
     * The query as the analyzer will see it: as given (a match query treats operators as text) unless it holds more
     * than {@link #MAX_QUERY_TERMS} words — then its first that many distinct ones, so a pasted essay cannot exceed
     * the clause limit. Empty when it holds no letter or digit.
     */
    static String plain(String given) {
        if (given == null) {
            return "";
        }
        // Folded as the indexed text is (Lexical): the analyzer then sees the same words on both sides.
        String query = Lexical.fold(given);
        String[] words = query.split("[^\\p{L}\\p{N}]+");
        if (Arrays.stream(words).noneMatch(w -> !w.isEmpty())) {
            return "";
        }
        // Scripts written without spaces (Chinese, Japanese) make a token of each character: cap characters too.
        int ideographs = (int) query.codePoints().filter(c -> Character.isIdeographic(c)
                || Character.UnicodeScript.of(c) == Character.UnicodeScript.HIRAGANA
                || Character.UnicodeScript.of(c) == Character.UnicodeScript.KATAKANA).count();
        if (ideographs > MAX_QUERY_TERMS) {
            StringBuilder kept = new StringBuilder();
            int seen = 0;
            for (int i = 0; i < query.length() && seen < MAX_QUERY_TERMS; ) {
                int c = query.codePointAt(i);
                kept.appendCodePoint(c);
                seen += Character.isLetterOrDigit(c) ? 1 : 0;
                i += Character.charCount(c);
            }
            query = kept.toString();
            words = query.split("[^\\p{L}\\p{N}]+");
        }
        if (words.length <= MAX_QUERY_TERMS) {
            return query.replace('\u0000', ' ');
        }
        LinkedHashSet<String> distinct = new LinkedHashSet<>();
        for (String w : words) {
            if (!w.isEmpty() && distinct.add(w.toLowerCase(Locale.ROOT)) && distinct.size() >= MAX_QUERY_TERMS) {
                break;
            }
        }
        return String.join(" ", distinct);
    }

    private static Query terms(String field, List<String> values) {
        return Query.of(q -> q.terms(t -> t.field(field).terms(v -> v.value(values.stream().map(FieldValue::of)
                .toList()))));
    }

    private interface Call<T> {
        T run() throws IOException;
    }

    private <T> T call(String what, Call<T> call) {
        try {
            return call.run();
        } catch (OpenSearchException e) {
            // Not available (502-504: a cluster starting, no master, shards not yet started): the same work
            // succeeds once it is, so a job waits and resumes instead of failing its files. Not a 429 or a timeout:
            // a circuit breaker refusing one huge batch refuses it every time, and the job would wait for good.
            int status = e.status();
            throw new StoreException("OpenSearch could not " + what + " in index '" + index + "': " + e.getMessage(),
                    status >= 502 && status <= 504 ? new UnavailableException("OpenSearch answered " + status, e) : e);
        } catch (IOException e) {
            throw new StoreException("OpenSearch could not " + what + " in index '" + index + "': " + e.getMessage(),
                    e);
        }
    }

    @Override
    public void close() {
        try {
            transport.close();
        } catch (Exception e) {
            // closing: nothing left to do
        }
    }
}
