package io.polyrag.app;

import static org.assertj.core.api.Assertions.assertThat;

import io.polyrag.core.config.Config;
import io.polyrag.core.config.Settings;
import io.polyrag.core.model.ChunkGraph;
import io.polyrag.core.model.DocumentVersion;
import io.polyrag.core.model.Entity;
import io.polyrag.core.model.EntityHit;
import io.polyrag.core.model.Relation;
import io.polyrag.core.model.SearchScope;
import io.polyrag.core.model.StoreRecord;
import io.polyrag.core.port.ChunkIndex;
import io.polyrag.core.port.EntityGraph;
import io.polyrag.core.port.GraphStore;
import io.polyrag.core.port.RdfStore;
import io.polyrag.core.spi.GraphStoreProvider;
import io.polyrag.core.spi.ProviderContext;
import io.polyrag.core.spi.Providers;
import io.polyrag.core.spi.RdfStoreProvider;
import io.polyrag.retrieval.EntityGraphRetriever;
import io.polyrag.retrieval.GraphMemory;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.function.Function;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.io.TempDir;

/**
 * The graph legs' copy in memory answers exactly as the embedded store it copies (Kuzu, TDB2): the same seeds, mention
 * counts, relations and mentions in the same order under the same limits and scopes — after writes through it,
 * deletes of versions and documents, and loaded afresh from the store.
 */
class GraphMemoryTest {
    @TempDir
    Path tmp;

    private static final List<String> KBS = List.of("default", "kb2", "acme/default");

    @ParameterizedTest
    @ValueSource(strings = {"graph", "rdf"})
    void the_copy_reads_as_the_store_does(String kind) {
        Config config = Config.load(Map.of(), Map.of("data.dir", tmp.toString()));
        ProviderContext context = new ProviderContext(config, tmp);
        EntityGraph store = kind.equals("graph")
                ? Providers.find(GraphStoreProvider.class, "kuzu", Settings.GRAPH_BACKEND).open(context)
                : Providers.find(RdfStoreProvider.class, "tdb2", Settings.RDF_BACKEND).open(context);
        try {
            GraphMemory memory = GraphMemory.of(kind, store, 10_000);
            assertThat(memory.ready()).isTrue();
            ChunkIndex writes = memory.tracking(store);
            Random random = new Random(7);
            List<String> names = new ArrayList<>();
            for (int i = 0; i < 60; i++) {
                names.add((i % 3 == 0 ? "Port " : i % 3 == 1 ? "Maren " : "Kestrel ") + "Name" + i
                        + (i % 7 == 0 ? " Minor" : ""));
            }
            for (int doc = 0; doc < 40; doc++) {
                writes.upsert(records(random, names, "d" + doc, 1));
            }
            // A new version of some documents, then the old versions deleted, as an update does.
            for (int doc = 0; doc < 10; doc++) {
                writes.upsert(records(random, names, "d" + doc, 2));
                writes.delete(List.of(new DocumentVersion("d" + doc, 1)));
            }
            writes.deleteDocuments(List.of("d11", "d12"));
            EntityGraphRetriever.Reads fromStore = EntityGraphRetriever.Reads.of(store);
            same(kind, fromStore, memory, names, random);
            GraphMemory reloaded = GraphMemory.of(kind, store, 10_000);
            assertThat(reloaded.ready()).isTrue();
            assertThat(reloaded.counts()).isEqualTo(memory.counts());
            same(kind, fromStore, reloaded, names, random);
        } finally {
            store.close();
        }
    }

    /** Two to four chunks of one document version, each mentioning entities and relating some of them. */
    private static List<StoreRecord> records(Random random, List<String> names, String doc, long version) {
        List<StoreRecord> out = new ArrayList<>();
        String kb = KBS.get(Math.floorMod(doc.hashCode(), KBS.size()));
        String ns = kb.startsWith("acme/") ? "acme/" : "";
        int chunks = 2 + random.nextInt(3);
        for (int c = 0; c < chunks; c++) {
            List<Entity> entities = new ArrayList<>();
            List<Relation> relations = new ArrayList<>();
            String chunkId = doc + "@" + version + "#" + c;
            int n = 1 + random.nextInt(4);
            for (int i = 0; i < n; i++) {
                String name = names.get(random.nextInt(names.size()));
                String type = random.nextInt(3) == 0 ? "" : "Organization";
                List<String> aliases = random.nextInt(4) == 0 ? List.of(ns + Entity.key(name.split(" ")[1]))
                        : List.of();
                entities.add(new Entity(ns + Entity.key(name), name, type, aliases));
            }
            for (int i = 0; i + 1 < entities.size(); i++) {
                relations.add(new Relation(ns + entities.get(i).name(), "", random.nextBoolean() ? "founded"
                        : "makes", ns + entities.get(i + 1).name(), "", chunkId, doc, version, Map.of()));
            }
            out.add(new StoreRecord(chunkId, doc, version, kb, "text " + c, null, new ChunkGraph(entities,
                    relations)));
        }
        return out;
    }

    private static void same(String kind, EntityGraphRetriever.Reads store, EntityGraphRetriever.Reads memory,
            List<String> names, Random random) {
        List<String> keys = new ArrayList<>();
        for (String n : names) {
            keys.add(Entity.key(n));
            keys.add("acme/" + Entity.key(n));
            keys.add(Entity.key(n.split(" ")[1]));
        }
        keys.add("nobody");
        List<SearchScope> scopes = List.of(SearchScope.ALL, new SearchScope(Set.of("kb2")),
                new SearchScope(Set.of("default", "acme/default")),
                new SearchScope(Set.of("default", "kb2")).narrowed(Set.of("d3", "d17", "d12"), null));
        for (int round = 0; round < 40; round++) {
            List<String> some = new ArrayList<>();
            for (int i = 0; i < 1 + random.nextInt(6); i++) {
                some.add(keys.get(random.nextInt(keys.size())));
            }
            if (kind.equals("graph")) {
                // Kuzu returns the ids in its storage order: which ids, not their order, is the contract.
                assertThat(memory.ids(some)).as("ids of " + some).containsExactlyInAnyOrderElementsOf(
                        store.ids(some));
            } else {
                List<String> terms = new ArrayList<>(some.stream().map(k -> k.substring(k.indexOf('/') + 1)
                        .split(" ")[0]).toList());
                if (random.nextInt(3) == 0) {
                    terms.add("acme"); // a tenant's name: no label word of its entities (their ids start acme/)
                }
                assertThat(memory.byLabel(terms, null, 50)).as("labels of " + terms)
                        .containsExactlyElementsOf(store.byLabel(terms, null, 50));
                for (String namespace : List.of("", "acme/")) {
                    assertThat(memory.byLabel(terms, namespace, 50)).as("labels of " + terms + " in '" + namespace
                            + "'").containsExactlyElementsOf(store.byLabel(terms, namespace, 50));
                }
            }
            assertThat(sorted(memory.entities(some), h -> h.entity().id()).stream().map(GraphMemoryTest::aliasesSorted)
                    .toList()).as("entities " + some).isEqualTo(sorted(store.entities(some), h -> h.entity().id())
                    .stream().map(GraphMemoryTest::aliasesSorted).toList());
            for (SearchScope scope : scopes) {
                for (int limit : new int[] {3, 500}) {
                    // The first `limit` by document and chunk (within a chunk the stores break ties each their own
                    // way), then all of them in one order.
                    assertThat(memory.edges(some, scope, limit).stream().map(e -> e.chunkId()).toList())
                            .as("edges " + some + " " + scope + " " + limit)
                            .isEqualTo(store.edges(some, scope, limit).stream().map(e -> e.chunkId()).toList());
                    if (limit == 500) {
                        assertThat(memory.edges(some, scope, limit)).as("edges " + some + " " + scope)
                                .containsExactlyElementsOf(store.edges(some, scope, limit));
                    }
                    // The stores order mentions by document and chunk only: compare which chunks a limit keeps.
                    assertThat(memory.mentions(some, scope, limit).stream().map(m -> m.chunkId()).toList())
                            .as("mentions " + some + " " + scope + " " + limit)
                            .isEqualTo(store.mentions(some, scope, limit).stream().map(m -> m.chunkId()).toList());
                    if (limit == 500) {
                        assertThat(memory.mentions(some, scope, limit)).containsExactlyInAnyOrderElementsOf(
                                store.mentions(some, scope, limit));
                    }
                }
            }
        }
    }

    private static EntityHit aliasesSorted(EntityHit h) {
        return new EntityHit(new Entity(h.entity().id(), h.entity().name(), h.entity().type(), h.entity().aliases()
                .stream().sorted().toList()), h.mentions());
    }

    private static <T> List<T> sorted(List<T> list, Function<T, String> key) {
        return list.stream().sorted(Comparator.comparing(key)).toList();
    }
}
