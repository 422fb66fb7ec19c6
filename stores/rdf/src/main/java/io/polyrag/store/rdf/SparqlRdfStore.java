package io.polyrag.store.rdf;

import static io.polyrag.store.rdf.RdfEncoding.PREFIXES;
import static io.polyrag.store.rdf.RdfEncoding.entity;
import static io.polyrag.store.rdf.RdfEncoding.integer;
import static io.polyrag.store.rdf.RdfEncoding.literal;

import io.polyrag.core.model.DocumentVersion;
import io.polyrag.core.model.Entity;
import io.polyrag.core.model.EntityHit;
import io.polyrag.core.model.GraphEdge;
import io.polyrag.core.model.Mention;
import io.polyrag.core.model.Relation;
import io.polyrag.core.model.SearchScope;
import io.polyrag.core.model.StoreRecord;
import io.polyrag.core.port.RdfStore;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import java.util.stream.Collectors;
import org.apache.jena.graph.Node;

/**
 * The RDF store over any {@link SparqlTransport}: every read and write is SPARQL in the {@link RdfEncoding}, so the
 * embedded and the networked backend differ only in where the SPARQL runs. Writes from this process are serialised;
 * a batch is one update request, which SPARQL servers and TDB2 apply atomically.
 */
final class SparqlRdfStore implements RdfStore {
    private static final Node CHUNK_ID = Triples.vocab("chunkId");
    private static final Node DOCUMENT = Triples.vocab("document");
    private static final Node VERSION = Triples.vocab("version");
    private static final Node KB = Triples.vocab("kb");
    private static final Node MENTIONS = Triples.vocab("mentions");
    private static final Node ALIAS = Triples.vocab("alias");
    private static final Node WORD = Triples.vocab("word");
    private static final Node CHUNK = Triples.vocab("chunk");
    private static final Node PREDICATE_NAME = Triples.vocab("predicateName");
    private static final Node SUBJECT_NAME = Triples.vocab("subjectName");
    private static final Node SUBJECT_TYPE = Triples.vocab("subjectType");
    private static final Node OBJECT_NAME = Triples.vocab("objectName");
    private static final Node OBJECT_TYPE = Triples.vocab("objectType");

    private final SparqlTransport transport;
    private final String graphIri;
    private final String graph;
    /** Where this store records facts about its own layout (not in {@link #graph}, whose triples are the data). */
    private final String meta;
    private final ReentrantLock writeLock = new ReentrantLock();
    private volatile boolean wordsIndexed;
    /** When the words' indexing may be tried again after it failed (System.nanoTime()); 0: not failed. */
    private volatile long wordsRetryAt;

    SparqlRdfStore(SparqlTransport transport, String graphIri) {
        this.transport = transport;
        this.graphIri = graphIri;
        this.graph = RdfEncoding.graph(graphIri);
        this.meta = RdfEncoding.graph("urn:polyrag:meta:" + RdfEncoding.encode(graphIri));
    }

    /**
     * Every entity carries one {@code pr:word} per word of its key and aliases, so a label lookup starts from the
     * entities sharing a word with the query (an index lookup) instead of testing every label. A graph written before
     * the words existed gets them once, on first use, and a marker in the store's meta graph says so.
     */
    private void indexWords() {
        if (wordsIndexed || wordsRetryAt != 0 && System.nanoTime() - wordsRetryAt < 0) {
            return;
        }
        writeLock.lock();
        try {
            if (!wordsIndexed) {
                indexWordsOnce();
            }
        } catch (RuntimeException e) {
            // Failed (its select cut at the endpoint's time limit on a large graph): tried again in ten minutes, not
            // by every search and ingest meanwhile, each holding the write lock for the whole time limit. Until then
            // entities written before the words existed are not found by a label lookup.
            wordsRetryAt = System.nanoTime() + TimeUnit.MINUTES.toNanos(10);
            System.getLogger(SparqlRdfStore.class.getName()).log(System.Logger.Level.WARNING, "cannot index the "
                    + "words of the entities in " + graphIri + " (" + e.getMessage() + "): tried again in 10 minutes");
        } finally {
            writeLock.unlock();
        }
    }

    private void indexWordsOnce() {
        boolean marked = !transport.select(PREFIXES + "SELECT ?v WHERE { GRAPH " + meta + " { " + meta
                + " pr:wordIndex ?v } } LIMIT 1").isEmpty();
        if (!marked) {
            StringBuilder data = new StringBuilder();
            int entities = 0;
            for (Map<String, String> r : transport.select(PREFIXES + "SELECT ?k ?l WHERE { GRAPH " + graph
                    + " { ?e pr:key ?k . { ?e pr:key ?l } UNION { ?e pr:alias ?l } } }")) {
                words(entity(r.get("k")), r.get("l"), data);
                if (++entities % 5_000 == 0) {
                    transport.update(PREFIXES + "INSERT DATA { GRAPH " + graph + " {\n" + data + "} }");
                    data.setLength(0);
                }
            }
            transport.update(PREFIXES + "INSERT DATA { GRAPH " + graph + " {\n" + data + "} } ;\nINSERT DATA { "
                    + "GRAPH " + meta + " { " + meta + " pr:wordIndex 1 } }");
        }
        wordsIndexed = true;
    }

    /** The words of a normalised key or alias ({@code tenant/t/marie curie}: tenant, t, marie, curie). */
    private static List<String> words(String label) {
        // Not the tenant's namespace (before a stored key's first '/'): every entity of the tenant held that word, a
        // term naming the tenant made them all candidates, and indexing each checked the whole list.
        return Arrays.stream(label.substring(label.indexOf('/') + 1).split(" +")).filter(w -> !w.isEmpty()).distinct()
                .toList();
    }

    private static void words(String entityIri, String label, StringBuilder data) {
        for (String w : words(label)) {
            data.append(entityIri).append(" pr:word ").append(literal(w)).append(" .\n");
        }
    }

    @Override
    public void upsert(List<StoreRecord> records) {
        List<StoreRecord> withGraph = records.stream().filter(r -> !r.graph().isEmpty()).toList();
        if (withGraph.isEmpty()) {
            return;
        }
        indexWords();
        Triples data = new Triples();
        Map<String, Entity> entities = new LinkedHashMap<>();
        for (StoreRecord r : withGraph) {
            Node c = Triples.iri(RdfEncoding.chunkIri(r.chunkId()));
            data.add(c, CHUNK_ID, Triples.text(r.chunkId()));
            data.add(c, DOCUMENT, Triples.text(r.documentId()));
            data.add(c, VERSION, Triples.integer(r.version()));
            data.add(c, KB, Triples.text(r.knowledgeBase()));
            for (Entity e : r.graph().entities()) {
                entities.putIfAbsent(e.id(), e);
                Node entity = Triples.iri(RdfEncoding.entityIri(e.id()));
                data.add(c, MENTIONS, entity);
                for (String alias : e.aliases()) {
                    data.add(entity, ALIAS, Triples.text(alias));
                    words(entity, alias, data);
                }
            }
            for (Relation rel : r.graph().relations()) {
                String s = Entity.storedKey(rel.subject());
                String o = Entity.storedKey(rel.object());
                entities.putIfAbsent(s, new Entity(s, rel.subject(), rel.subjectType(), List.of()));
                entities.putIfAbsent(o, new Entity(o, rel.object(), rel.objectType(), List.of()));
                Node st = Triples.iri(RdfEncoding.statementIri(rel));
                data.add(st, Triples.TYPE, Triples.STATEMENT);
                data.add(st, Triples.SUBJECT, Triples.iri(RdfEncoding.entityIri(s)));
                data.add(st, Triples.PREDICATE, Triples.iri(RdfEncoding.relationIri(rel.predicate())));
                data.add(st, Triples.OBJECT, Triples.iri(RdfEncoding.entityIri(o)));
                data.add(st, PREDICATE_NAME, Triples.text(rel.predicate()));
                data.add(st, SUBJECT_NAME, Triples.text(rel.subject()));
                data.add(st, SUBJECT_TYPE, Triples.text(rel.subjectType()));
                data.add(st, OBJECT_NAME, Triples.text(rel.object()));
                data.add(st, OBJECT_TYPE, Triples.text(rel.objectType()));
                data.add(st, CHUNK, c);
                data.add(st, CHUNK_ID, Triples.text(rel.chunkId()));
                data.add(st, DOCUMENT, Triples.text(rel.documentId()));
                data.add(st, VERSION, Triples.integer(rel.version()));
                rel.properties().forEach((k, v) -> data.add(st, Triples.iri(RdfEncoding.propertyIri(k)),
                        Triples.text(v)));
            }
        }
        entities.keySet().forEach(key -> words(Triples.iri(RdfEncoding.entityIri(key)), key, data));
        List<SparqlTransport.NewEntity> added = entities.values().stream()
                .map(e -> new SparqlTransport.NewEntity(e.id(), e.name(), e.type())).toList();
        writeLock.lock();
        try {
            transport.insert(graphIri, data, added);
        } finally {
            writeLock.unlock();
        }
    }

    private static void words(Node entity, String label, Triples data) {
        for (String w : words(label)) {
            data.add(entity, WORD, Triples.text(w));
        }
    }

    /**
     * Versions or documents removed per request: one request each cost a select, an update and, on TDB2, a write
     * transaction copying the index blocks it touched (about 1.3 MB) with a journal sync — a 10,000-document
     * knowledge base's delete, or a repair's orphan purge, was 20,000 statements, held the write lock throughout and
     * grew the dataset by gigabytes. Fifty, not more: the request also names every entity they mention, and a SPARQL
     * endpoint answers each within POLYRAG_RDF_SPARQL_TIMEOUT_SECONDS.
     */
    private static final int DELETE_BATCH = 50;

    @Override
    public void delete(Collection<DocumentVersion> versions) {
        List<DocumentVersion> all = List.copyOf(versions);
        for (int i = 0; i < all.size(); i += DELETE_BATCH) {
            removeWhere("VALUES (?d ?v) { " + all.subList(i, Math.min(all.size(), i + DELETE_BATCH)).stream()
                    .map(v -> "(" + literal(v.documentId()) + " " + integer(v.version()) + ")")
                    .collect(Collectors.joining(" ")) + " } ?x pr:document ?d ; pr:version ?v .");
        }
    }

    @Override
    public void deleteDocuments(Collection<String> documentIds) {
        List<String> all = List.copyOf(documentIds);
        for (int i = 0; i < all.size(); i += DELETE_BATCH) {
            removeWhere("VALUES ?d { " + all.subList(i, Math.min(all.size(), i + DELETE_BATCH)).stream()
                    .map(RdfEncoding::literal).collect(Collectors.joining(" ")) + " } ?x pr:document ?d .");
        }
    }

    /** Removes chunks and statements matching {@code pattern} (over {@code ?x}), then entities no chunk mentions. */
    private void removeWhere(String pattern) {
        writeLock.lock();
        try {
            List<String> touched = transport.select(PREFIXES + "SELECT DISTINCT ?e WHERE { GRAPH " + graph + " { "
                    + pattern + " ?x pr:mentions ?e } }").stream().map(r -> r.get("e")).toList();
            StringBuilder request = new StringBuilder(PREFIXES).append("DELETE { GRAPH ").append(graph)
                    .append(" { ?x ?p ?o } } WHERE { GRAPH ").append(graph).append(" { ").append(pattern)
                    .append(" ?x ?p ?o } }");
            if (!touched.isEmpty()) {
                request.append(" ;\nDELETE { GRAPH ").append(graph).append(" { ?e ?p ?o } } WHERE { GRAPH ")
                        .append(graph).append(" { VALUES ?e { ")
                        .append(touched.stream().map(i -> "<" + i + ">").collect(Collectors.joining(" ")))
                        .append(" } ?e ?p ?o FILTER NOT EXISTS { ?c pr:mentions ?e } } }");
            }
            transport.update(request.toString());
        } finally {
            writeLock.unlock();
        }
    }


    @Override
    public List<String> entityIdsByLabel(Collection<String> terms, String namespace, int limit) {
        List<String> needles = terms.stream().map(Entity::key).filter(t -> !t.isEmpty()).distinct().toList();
        if (needles.isEmpty() || limit <= 0) {
            return List.of();
        }
        indexWords();
        String candidates = needles.stream().flatMap(t -> words(t).stream()).distinct().map(RdfEncoding::literal)
                .collect(Collectors.joining(" "));
        // The candidates are the entities sharing a word with the terms (pr:word, an index lookup); only their
        // labels are tested.
        // pr:key and pr:alias hold the labels already normalised (lower case, no punctuation, single spaces), so
        // CONTAINS runs on them directly: one plain string test per entity instead of LCASE(STR()) over every label.
        // Padded with spaces, it matches whole words only: "300" finds "bedruk 300", not "bedruk 3000" (a tenant's
        // keys start "tenant/", so a word may also follow the slash).
        // Ranked by how many of the terms a label holds, so the labels the query names best come first.
        String count = needles.stream().map(t -> "IF(CONTAINS(?p, " + literal(" " + t + " ") + ") || CONTAINS(?p, "
                + literal("/" + t + " ") + "), 1, 0)")
                .collect(Collectors.joining(" + "));
        return transport.select(PREFIXES + "SELECT ?k (MAX(?n) AS ?m) WHERE { GRAPH " + graph + " { "
                + "{ SELECT DISTINCT ?e WHERE { VALUES ?w { " + candidates + " } ?e pr:word ?w } } "
                + "{ ?e pr:key ?l } UNION { ?e pr:alias ?l } BIND(CONCAT(\" \", ?l, \" \") AS ?p) BIND((" + count
                + ") AS ?n) FILTER(?n > 0) ?e pr:key ?k " + inNamespace(namespace) + "} } GROUP BY ?k ORDER BY "
                + "DESC(?m) ?k LIMIT " + limit)
                .stream().map(r -> r.get("k")).toList();
    }

    /** A filter keeping the keys of one namespace ({@code ""}: keys without a slash); empty for null. */
    private static String inNamespace(String namespace) {
        return namespace == null ? "" : namespace.isEmpty() ? "FILTER(!CONTAINS(?k, \"/\")) "
                : "FILTER(STRSTARTS(?k, " + literal(namespace) + ")) ";
    }

    /**
     * The whole graph, for the graph leg's copy in memory, when the store is embedded (TDB2: this process is its
     * only writer); a SPARQL endpoint other replicas write to is not copied.
     */
    @Override
    public boolean export(Export sink) {
        if (!(transport instanceof Tdb2Transport)) {
            return false;
        }
        String in = PREFIXES + "SELECT * WHERE { GRAPH " + graph + " { ";
        for (Map<String, String> r : transport.select(in + "?c pr:kb ?kb ; pr:chunkId ?id ; pr:document ?d ; "
                + "pr:version ?v } }")) {
            sink.chunk(r.get("id"), r.get("d"), Long.parseLong(r.get("v")), r.get("kb"));
        }
        for (Map<String, String> r : transport.select(PREFIXES + "SELECT ?k ?name ?type (GROUP_CONCAT(?a; "
                + "separator=\"\\n\") AS ?aliases) WHERE { GRAPH " + graph + " { ?e pr:key ?k ; rdfs:label ?name ; "
                + "pr:type ?type OPTIONAL { ?e pr:alias ?a } } } GROUP BY ?k ?name ?type")) {
            String aliases = r.getOrDefault("aliases", "");
            sink.entity(new Entity(r.get("k"), r.get("name"), r.get("type"), aliases.isBlank() ? List.of()
                    : List.of(aliases.split("\n")).stream().filter(a -> !a.isBlank()).distinct().toList()));
        }
        for (Map<String, String> r : transport.select(in + "?c pr:mentions ?e ; pr:chunkId ?id . ?e pr:key ?k } }")) {
            sink.mention(r.get("id"), r.get("k"));
        }
        for (Map<String, String> r : transport.select(in + "?st rdf:subject ?s ; rdf:object ?o ; pr:predicateName ?p "
                + "; pr:chunkId ?chunk ; pr:document ?doc ; pr:version ?ver . ?s pr:key ?sk . ?o pr:key ?ok } }")) {
            sink.relation(r.get("sk"), r.get("p"), r.get("ok"), r.get("chunk"), r.get("doc"),
                    Long.parseLong(r.get("ver")));
        }
        return true;
    }

    @Override
    public List<EntityHit> entities(Collection<String> ids) {
        if (ids.isEmpty()) {
            return List.of();
        }
        // Mentions and aliases counted apart: joined in one group they made a row per mention and alias pair
        // (18.9 against 11.9 ms for five entities, one of them mentioned by 98 chunks, on TDB2).
        // Each id once: a VALUES row per repeat made a row per repeat and counted each mention once per repeat.
        String values = "VALUES ?e { " + ids.stream().distinct().map(RdfEncoding::entity).collect(Collectors.joining(
                " ")) + " } ";
        return hits(PREFIXES + "SELECT ?k ?name ?type ?n ?aliases WHERE { GRAPH " + graph + " { " + values
                + "?e pr:key ?k ; rdfs:label ?name ; pr:type ?type . "
                + "{ SELECT ?e (COUNT(?c) AS ?n) WHERE { " + values + "OPTIONAL { ?c pr:mentions ?e } } GROUP BY ?e } "
                + "{ SELECT ?e (GROUP_CONCAT(DISTINCT ?a; separator=\"\\n\") AS ?aliases) WHERE { " + values
                + "OPTIONAL { ?e pr:alias ?a } } GROUP BY ?e } } } ORDER BY ?k");
    }

    @Override
    public List<EntityHit> findEntities(String text, SearchScope scope, int limit) {
        String needle = Entity.key(text);
        if (needle.isEmpty() || limit <= 0) {
            return List.of();
        }
        String kbFilter = scope.knowledgeBases().isEmpty() ? "" : " ; pr:kb ?kb FILTER(?kb IN ("
                + scope.knowledgeBases().stream().map(RdfEncoding::literal).collect(Collectors.joining(", ")) + "))";
        // The needle in the name's own part, not in its tenant's namespace (CONTAINS first: cheap).
        String own = literal("^" + Entity.ownPartContaining(needle) + "$");
        return hits(PREFIXES + "SELECT ?k ?name ?type (COUNT(DISTINCT ?c) AS ?n) "
                + "(GROUP_CONCAT(DISTINCT ?a; separator=\"\\n\") AS ?aliases) WHERE { GRAPH " + graph + " { "
                + "?e pr:key ?k ; rdfs:label ?name ; pr:type ?type . ?c pr:mentions ?e" + kbFilter + " . "
                + "OPTIONAL { ?e pr:alias ?a } "
                + "FILTER((CONTAINS(?k, " + literal(needle) + ") && REGEX(?k, " + own + ")) || EXISTS { ?e pr:alias ?m "
                + "FILTER(CONTAINS(?m, " + literal(needle) + ") && REGEX(?m, " + own + ")) }) } } GROUP BY ?k ?name ?type ORDER BY DESC(?n) ?k LIMIT " + limit);
    }

    private List<EntityHit> hits(String query) {
        List<EntityHit> out = new ArrayList<>();
        for (Map<String, String> r : transport.select(query)) {
            String aliases = r.getOrDefault("aliases", "");
            out.add(new EntityHit(new Entity(r.get("k"), r.get("name"), r.get("type"),
                    aliases.isEmpty() ? List.of() : List.of(aliases.split("\n"))), Long.parseLong(r.get("n"))));
        }
        return out;
    }

    @Override
    public List<GraphEdge> edges(Collection<String> entityIds, SearchScope scope, int limit) {
        if (entityIds.isEmpty() || limit <= 0) {
            return List.of();
        }
        String values = entityIds.stream().distinct().map(RdfEncoding::entity).collect(Collectors.joining(" "));
        String kbFilter = scope.knowledgeBases().isEmpty() ? "" : " ?st pr:chunk ?cn . ?cn pr:kb ?kb FILTER(?kb IN ("
                + scope.knowledgeBases().stream().map(RdfEncoding::literal).collect(Collectors.joining(", ")) + "))";
        // The first `limit` statements by document and chunk are chosen reading only what orders them; the rest of
        // each (its two ends' keys, predicate, version) is read for those alone. An entity mentioned across a
        // corpus ("DNA") has thousands of statements, and reading every field of each before the limit was most of
        // a search's time on such a query.
        return transport.select(PREFIXES + "SELECT ?st ?sk ?p ?ok ?chunk ?doc ?ver WHERE { GRAPH " + graph + " { "
                + "{ SELECT DISTINCT ?st ?doc ?chunk WHERE { VALUES ?x { " + values + " } "
                + "{ ?st rdf:subject ?x } UNION { ?st rdf:object ?x } ?st pr:document ?doc ; pr:chunkId ?chunk ."
                + kbFilter + docFilter(scope) + " } ORDER BY ?doc ?chunk ?st LIMIT " + limit + " } "
                + "?st rdf:subject ?s ; rdf:object ?o ; pr:predicateName ?p ; pr:version ?ver . ?s pr:key ?sk . "
                + "?o pr:key ?ok } } ORDER BY ?doc ?chunk ?sk ?ok")
                .stream().map(r -> new GraphEdge(r.get("sk"), r.get("p"), r.get("ok"), r.get("chunk"), r.get("doc"),
                        Long.parseLong(r.get("ver")))).toList();
    }

    /** The scope's documents, when it names any: cut to the limit first, a document's own statements were lost. */
    private static String docFilter(SearchScope scope) {
        return scope.documentIds().isEmpty() ? "" : " FILTER(?doc IN (" + scope.documentIds().stream()
                .map(RdfEncoding::literal).collect(Collectors.joining(", ")) + "))";
    }

    @Override
    public List<Mention> mentions(Collection<String> entityIds, SearchScope scope, int limit) {
        if (entityIds.isEmpty() || limit <= 0) {
            return List.of();
        }
        String kbFilter = scope.knowledgeBases().isEmpty() ? "" : " FILTER(?kb IN ("
                + scope.knowledgeBases().stream().map(RdfEncoding::literal).collect(Collectors.joining(", ")) + "))";
        return transport.select(PREFIXES + "SELECT ?k ?chunk ?doc ?ver WHERE { GRAPH " + graph + " { VALUES ?e { "
                + entityIds.stream().distinct().map(RdfEncoding::entity).collect(Collectors.joining(" ")) + " } "
                + "?c pr:mentions ?e ; pr:chunkId ?chunk ; pr:document ?doc ; pr:version ?ver ; pr:kb ?kb . "
                + "?e pr:key ?k" + kbFilter + docFilter(scope) + " } } ORDER BY ?doc ?chunk LIMIT " + limit).stream()
                .map(r -> new Mention(r.get("k"), r.get("chunk"), r.get("doc"), Long.parseLong(r.get("ver"))))
                .toList();
    }

    @Override
    public List<Relation> relations(String documentId) {
        Map<String, Relation> byStatement = new LinkedHashMap<>();
        Map<String, Map<String, String>> properties = new LinkedHashMap<>();
        for (Map<String, String> r : transport.select(PREFIXES + "SELECT ?st ?sn ?stype ?p ?on ?otype ?chunk ?ver "
                + "?pp ?pv WHERE { GRAPH " + graph + " { ?st a rdf:Statement ; pr:document " + literal(documentId)
                + " ; pr:subjectName ?sn ; pr:subjectType ?stype ; pr:predicateName ?p ; pr:objectName ?on ; "
                + "pr:objectType ?otype ; pr:chunkId ?chunk ; pr:version ?ver . OPTIONAL { ?st ?pp ?pv "
                + "FILTER(STRSTARTS(STR(?pp), " + literal(RdfEncoding.PROPERTY) + ")) } } } "
                + "ORDER BY ?ver ?chunk ?sn ?p ?on")) {
            String st = r.get("st");
            byStatement.computeIfAbsent(st, k -> new Relation(r.get("sn"), r.get("stype"), r.get("p"), r.get("on"),
                    r.get("otype"), r.get("chunk"), documentId, Long.parseLong(r.get("ver")), Map.of()));
            Map<String, String> props = properties.computeIfAbsent(st, k -> RdfEncoding.newProperties());
            if (r.containsKey("pp")) {
                RdfEncoding.decodeProperty(props, r.get("pp"), r.get("pv"));
            }
        }
        List<Relation> out = new ArrayList<>();
        byStatement.forEach((st, rel) -> out.add(new Relation(rel.subject(), rel.subjectType(), rel.predicate(),
                rel.object(), rel.objectType(), rel.chunkId(), rel.documentId(), rel.version(), properties.get(st))));
        return out;
    }

    @Override
    public Map<String, Long> counts() {
        Map<String, Long> out = new TreeMap<>();
        out.put("entities", count("?e pr:key ?k"));
        out.put("relations", count("?s a rdf:Statement"));
        out.put("mentions", count("?c pr:mentions ?e"));
        out.put("chunks", size());
        out.put("triples", triples());
        return out;
    }

    @Override
    public long size() {
        return count("?c pr:chunkId ?id ; pr:kb ?kb");
    }

    @Override
    public void ping() {
        transport.select(PREFIXES + "SELECT ?c WHERE { GRAPH " + graph + " { ?c pr:chunkId ?id } } LIMIT 1");
    }

    @Override
    public Map<DocumentVersion, Long> versions() {
        Map<DocumentVersion, Long> out = new HashMap<>();
        for (Map<String, String> r : transport.select(PREFIXES + "SELECT ?doc ?version (COUNT(?c) AS ?n) WHERE { GRAPH "
                + graph + " { ?c pr:chunkId ?id ; pr:kb ?kb ; pr:document ?doc ; pr:version ?version } }"
                + " GROUP BY ?doc ?version")) {
            out.put(new DocumentVersion(r.get("doc"), Long.parseLong(r.get("version"))), Long.parseLong(r.get("n")));
        }
        return out;
    }

    /** One version's chunks by key: the default walked every version of every tenant to answer for one. */
    @Override
    public long records(DocumentVersion v) {
        return Long.parseLong(transport.select(PREFIXES + "SELECT (COUNT(?c) AS ?n) WHERE { GRAPH " + graph
                + " { ?c pr:chunkId ?id ; pr:kb ?kb ; pr:document " + literal(v.documentId())
                + " ; pr:version " + integer(v.version()) + " } }").getFirst().get("n"));
    }

    @Override
    public long triples() {
        return count("?s ?p ?o");
    }

    private long count(String pattern) {
        return Long.parseLong(transport.select(PREFIXES + "SELECT (COUNT(*) AS ?n) WHERE { GRAPH " + graph + " { "
                + pattern + " } }").getFirst().get("n"));
    }

    @Override
    public void close() {
        transport.close();
    }
}
