package io.polyrag.ingest;

import io.polyrag.core.model.DocumentVersion;
import io.polyrag.core.model.Modality;
import io.polyrag.core.model.StoreRecord;
import io.polyrag.core.port.ChunkIndex;
import io.polyrag.core.port.VectorStore;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.BiConsumer;

/** The enabled chunk indexes, written together: the only place the pipeline writes to stores. */
public final class StoreSet {
    private final Map<Modality, ChunkIndex> indexes;

    public StoreSet(Map<Modality, ? extends ChunkIndex> indexes) {
        this.indexes = Map.copyOf(indexes);
    }

    public boolean needsVectors() {
        return indexes.containsKey(Modality.VECTOR);
    }

    /** Whether a graph or RDF store is enabled, so entities and relations must be extracted. */
    public boolean needsGraph() {
        return indexes.containsKey(Modality.GRAPH) || indexes.containsKey(Modality.RDF);
    }

    public List<String> names() {
        return indexes.keySet().stream().map(Modality::wireName).sorted().toList();
    }

    /** Upserts into every store; on failure undoes what it wrote and rethrows. */
    void upsert(List<StoreRecord> records, Collection<DocumentVersion> versions) {
        upsert(records, Map.of(), versions, IngestSpans.NONE);
    }

    /**
     * Like {@link #upsert(List, Collection)}, the vector store given the whole vectors of the versions that have one
     * ({@link VectorStore#upsert(List, Map)}), each store's write a span ({@code write vector}, …).
     */
    void upsert(List<StoreRecord> records, Map<DocumentVersion, float[]> wholes, Collection<DocumentVersion> versions,
            IngestSpans spans) {
        List<ChunkIndex> written = new ArrayList<>();
        try {
            for (Map.Entry<Modality, ChunkIndex> entry : orderedEntries()) {
                ChunkIndex index = entry.getValue();
                String modality = entry.getKey().wireName();
                written.add(index);
                spans.span("write " + modality, Map.of("polyrag.modality", modality,
                        "polyrag.records", records.size()), () -> {
                            if (index instanceof VectorStore vectors) {
                                vectors.upsert(records, wholes);
                            } else {
                                index.upsert(records);
                            }
                            return null;
                        });
            }
        } catch (RuntimeException e) {
            for (ChunkIndex index : written) {
                try {
                    index.delete(versions);
                } catch (RuntimeException cleanup) {
                    e.addSuppressed(cleanup);
                }
            }
            throw e;
        }
    }

    /** Deletes from every store; attempts all and rethrows the first failure with the others suppressed. */
    void delete(Collection<DocumentVersion> versions) {
        RuntimeException first = null;
        for (ChunkIndex index : ordered()) {
            try {
                index.delete(versions);
            } catch (RuntimeException e) {
                if (first == null) {
                    first = e;
                } else {
                    first.addSuppressed(e);
                }
            }
        }
        if (first != null) {
            throw first;
        }
    }

    /** Records per store, for status and tests. */
    public Map<String, Long> sizes() {
        TreeMap<String, Long> out = new TreeMap<>();
        indexes.forEach((m, i) -> out.put(m.wireName(), i.size()));
        return out;
    }

    /** Records per store; a store that cannot be counted now is -1, and told to {@code failed} with why. */
    public Map<String, Long> sizes(BiConsumer<String, RuntimeException> failed) {
        TreeMap<String, Long> out = new TreeMap<>();
        indexes.forEach((m, i) -> {
            try {
                out.put(m.wireName(), i.size());
            } catch (RuntimeException e) {
                out.put(m.wireName(), -1L);
                failed.accept(m.wireName(), e);
            }
        });
        return out;
    }

    /**
     * Records each store holds of one document version, read live, by store name; a store that cannot be read now
     * maps to -1.
     */
    public Map<String, Long> records(DocumentVersion version) {
        TreeMap<String, Long> out = new TreeMap<>();
        indexes.forEach((m, i) -> {
            long n;
            try {
                n = i.records(version);
            } catch (RuntimeException e) {
                n = -1;
            }
            out.put(m.wireName(), n);
        });
        return out;
    }

    /** Stores that cannot be read now, by name, with the error; empty when all answer. */
    public Map<String, String> probe() {
        TreeMap<String, String> out = new TreeMap<>();
        indexes.forEach((m, i) -> {
            try {
                // One read, not a count: readiness probes ask every few seconds, and a count of a networked store's
                // millions of records ran past the probe's timeout.
                i.ping();
            } catch (RuntimeException e) {
                out.put(m.wireName(), String.valueOf(e.getMessage()));
            }
        });
        return out;
    }

    /** The enabled modalities, in modality order. */
    public Set<Modality> modalities() {
        return new TreeSet<>(indexes.keySet());
    }

    /** The enabled indexes by modality, in modality order. */
    Map<Modality, ChunkIndex> byModality() {
        return new TreeMap<>(indexes);
    }

    private List<ChunkIndex> ordered() {
        return orderedEntries().stream().map(Map.Entry::getValue).toList();
    }

    private List<Map.Entry<Modality, ChunkIndex>> orderedEntries() {
        return indexes.entrySet().stream().sorted(Map.Entry.comparingByKey()).toList();
    }
}
