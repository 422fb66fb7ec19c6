package io.polyrag.retrieval;

import io.polyrag.core.model.DocumentVersion;
import io.polyrag.core.model.Modality;
import io.polyrag.core.model.SearchRequest;
import io.polyrag.core.model.SearchScope;
import io.polyrag.core.model.StoreHit;
import io.polyrag.core.port.Embedder;
import io.polyrag.core.port.VectorStore;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Dense retrieval: the query's nearest passages, each passage's cosine blended with its document's where the store
 * keeps a vector of the whole document ({@link VectorStore#wholeCosines}): {@code (1 − w) · passage + w · document}.
 *
 * <p>A passage of a few sentences is embedded without the rest of its document; a document cut into many small
 * passages that fits the model's window as a whole is embedded whole too at ingest, and its whole vector says how
 * well the document as a whole answers. A document with no whole vector (one or two passages, or longer than the
 * window) counts its best passage among the hits as its document score, so its best passage keeps its own cosine.
 * Only the documents the passages found are re-scored: the leg reads no deeper than it returns.
 */
final class VectorLeg extends BlendedLeg {
    private final Embedder embedder;
    private final VectorStore store;

    VectorLeg(Embedder embedder, VectorStore store, double documentWeight) {
        super(documentWeight, "vector.document.weight", SearchRequest.Tuning::vectorDocumentWeight);
        this.embedder = embedder;
        this.store = store;
    }

    @Override
    public Modality modality() {
        return Modality.VECTOR;
    }

    @Override
    Leg run(String query, SearchScope scope, int limit, double w, String whose) {
        float[] q = usable(embedder.embedQuery(query), embedder.modelId());
        List<StoreHit> passages = store.search(q, scope, limit);
        if (w <= 0 || passages.isEmpty()) {
            return new Leg(passages, "");
        }
        Set<DocumentVersion> versions = new LinkedHashSet<>();
        passages.forEach(p -> versions.add(version(p)));
        Map<DocumentVersion, Double> wholes = store.wholeCosines(q, versions);
        if (wholes.isEmpty()) {
            return new Leg(passages, "");
        }
        return new Leg(blend(passages, wholes, w), String.format(Locale.ROOT, "each passage's cosine blended with its "
                + "document's whole vector where it has one (%d of %d documents), weight %.2f (%s)", wholes.size(),
                versions.size(), w, whose));
    }

    /**
     * The query's vector, refused when it has no direction (a NaN, an infinity, all zeros: a broken or half-precision
     * custom model): an exact scan scored every vector NaN and returned the first in index order, which fusion then
     * took for the best matches. Refused, the leg is reported degraded and the others answer.
     */
    static float[] usable(float[] q, String model) {
        double norm = 0;
        for (float x : q) {
            if (!Float.isFinite(x)) {
                throw new IllegalStateException("the embedding model " + model + " made a query vector that is not "
                        + "a number (NaN or infinite): check the model (a half-precision export overflows)");
            }
            norm += (double) x * x;
        }
        if (norm == 0) {
            throw new IllegalStateException("the embedding model " + model + " made a query vector of zeros: it "
                    + "matches nothing; check the model");
        }
        return q;
    }

    /**
     * Each passage's score blended with its document's: the cosine of its whole vector ({@code wholes}), or, for a
     * document without one, its best passage's among {@code passages}; best first, ties by chunk id.
     */
    static List<StoreHit> blend(List<StoreHit> passages, Map<DocumentVersion, Double> wholes, double w) {
        Map<DocumentVersion, Double> document = new HashMap<>(wholes);
        for (StoreHit p : passages) {
            DocumentVersion v = version(p);
            if (!wholes.containsKey(v)) {
                document.merge(v, p.score(), Math::max);
            }
        }
        List<StoreHit> out = new ArrayList<>(passages.size());
        Map<String, Double> raw = new HashMap<>();
        for (StoreHit p : passages) {
            raw.merge(p.chunkId(), p.score(), Math::max);
            out.add(new StoreHit(p.chunkId(), p.documentId(), p.version(), (1 - w) * p.score()
                    + w * document.get(version(p))));
        }
        // Ties (every passage of a document at a document weight of 1) by the passage's own score, then chunk id:
        // by chunk id alone, "d-v1-10" came before "d-v1-2" whatever their words.
        out.sort(Comparator.comparingDouble(StoreHit::score).reversed().thenComparing(Comparator.comparingDouble(
                (StoreHit x) -> raw.get(x.chunkId())).reversed()).thenComparing(StoreHit::chunkId));
        return out;
    }

    private static DocumentVersion version(StoreHit h) {
        return new DocumentVersion(h.documentId(), h.version());
    }
}
