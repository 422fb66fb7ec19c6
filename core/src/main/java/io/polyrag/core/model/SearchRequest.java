package io.polyrag.core.model;

import io.polyrag.core.InvalidInputException;
import java.util.Collection;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A search.
 *
 * @param query the user's text
 * @param topK how many hits to return
 * @param knowledgeBases knowledge bases to search, as the caller names them (the facet checks them and puts them in
 *     the tenant's namespace before the searcher sees them); empty means all of the caller's
 * @param modalities retrievers to run; empty means every enabled one
 * @param fusion how to fuse their rankings; null means the configured default
 * @param documentIds only hits of these documents; empty means any (every store filters by them, and the catalog
 *     join checks them again)
 * @param category only hits of documents with this category; null means any (checked where hits meet the catalog;
 *     the application searches a category of at most {@link #MAX_DOCUMENT_IDS} documents as those documents)
 * @param tuning this search's fusion constants and reranking, each null for the configured value
 */
public record SearchRequest(String query, int topK, List<String> knowledgeBases, Set<Modality> modalities,
        FusionMethod fusion, Set<String> documentIds, String category, Tuning tuning) {
    public SearchRequest(String query, int topK, List<String> knowledgeBases, Set<Modality> modalities,
            FusionMethod fusion) {
        this(query, topK, knowledgeBases, modalities, fusion, Set.of(), null);
    }

    public SearchRequest(String query, int topK, List<String> knowledgeBases, Set<Modality> modalities,
            FusionMethod fusion, Set<String> documentIds, String category) {
        this(query, topK, knowledgeBases, modalities, fusion, documentIds, category, Tuning.CONFIGURED);
    }

    /**
     * One search's overrides of the configured fusion and reranking (what a UI's controls or an experiment change).
     *
     * @param rrfK the k of reciprocal rank fusion, 1-10000; null for the configured one
     * @param weights weighted fusion's per-modality weights, each 0-1000; a modality not named keeps its configured
     *     weight
     * @param rerank false skips the configured reranker; true asks for it (a warning when none is configured); null
     *     for the configured behaviour
     * @param candidates how many hits each leg returns and fusion scores ({@code search.candidates}), 1-{@value
     *     #MAX_CANDIDATES}; null for the configured depth
     * @param documentWeight the full-text leg's blend of each passage's BM25 with its document's whole-text BM25
     *     ({@code fulltext.document.weight}), 0-1; null for the configured weight
     * @param vectorDocumentWeight the vector leg's blend of each passage's cosine with its document's whole vector's
     *     ({@code vector.document.weight}), 0-1; null for the configured weight
     */
    public record Tuning(Integer rrfK, Map<Modality, Double> weights, Boolean rerank, Integer candidates,
            Double documentWeight, Double vectorDocumentWeight) {
        public static final Tuning CONFIGURED = new Tuning(null, Map.of(), null);
        /** The deepest legs one search may ask for: past it, a request would cost what top-k's ceiling prevents. */
        public static final int MAX_CANDIDATES = 1000;

        /** Fusion constants and reranking, with the configured depth and full-text blend. */
        public Tuning(Integer rrfK, Map<Modality, Double> weights, Boolean rerank) {
            this(rrfK, weights, rerank, null, null, null);
        }

        /** Fusion constants, reranking, depth and the full-text blend, with the configured vector blend. */
        public Tuning(Integer rrfK, Map<Modality, Double> weights, Boolean rerank, Integer candidates,
                Double documentWeight) {
            this(rrfK, weights, rerank, candidates, documentWeight, null);
        }

        /** This tuning with reranking set as given. */
        public Tuning withRerank(Boolean rerank) {
            return new Tuning(rrfK, weights, rerank, candidates, documentWeight, vectorDocumentWeight);
        }

        public Tuning {
            if (candidates != null && (candidates < 1 || candidates > MAX_CANDIDATES)) {
                throw new InvalidInputException("candidates must be between 1 and " + MAX_CANDIDATES + " (each leg's "
                        + "depth for this search), was " + candidates);
            }
            if (documentWeight != null && !(documentWeight >= 0 && documentWeight <= 1)) {
                throw new InvalidInputException("fulltext_document_weight must be a number between 0 (passages "
                        + "alone) and 1 (whole documents alone), was " + documentWeight);
            }
            if (vectorDocumentWeight != null && !(vectorDocumentWeight >= 0 && vectorDocumentWeight <= 1)) {
                throw new InvalidInputException("vector_document_weight must be a number between 0 (passages alone) "
                        + "and 1 (whole documents alone), was " + vectorDocumentWeight);
            }
            weights = weights == null ? Map.of() : Map.copyOf(weights);
            if (rrfK != null && (rrfK < 1 || rrfK > 10_000)) {
                throw new InvalidInputException("rrf_k must be between 1 and 10000, was " + rrfK);
            }
            weights.forEach((m, w) -> {
                if (w == null || !Double.isFinite(w) || w < 0 || w > 1000) {
                    throw new InvalidInputException("weights." + m.wireName() + " must be a number "
                            + "between 0 and 1000, was " + w);
                }
            });
        }
    }

    public SearchRequest {
        tuning = tuning == null ? Tuning.CONFIGURED : tuning;
        documentIds = documentIds == null ? Set.of() : Set.copyOf(documentIds);
        knowledgeBases = knowledgeBases == null ? List.of()
                : knowledgeBases.stream().filter(k -> k != null && !k.isBlank()).distinct().toList();
        modalities = modalities == null ? Set.of() : Set.copyOf(modalities);
    }

    public static SearchRequest of(String query, int topK) {
        return new SearchRequest(query, topK, List.of(), Set.of(), null);
    }

    /** Most documents one search may be narrowed to. */
    public static final int MAX_DOCUMENT_IDS = 1000;
    /** The longest id {@code document_ids} takes (a document's is 20 characters). */
    public static final int MAX_DOCUMENT_ID = 128;

    /**
     * A request built field by field as a front door receives it (REST, the OpenAI-compatible route, the CLI), each
     * field checked where it is set and an error naming it and the fix. A null argument leaves the field as it was,
     * so a door passes what the caller sent without deciding defaults itself. What depends on the server's settings
     * (the query's length, top-k's ceiling, which legs are enabled) is checked by the searcher; the tenant's scope by
     * the facet.
     */
    public static Builder builder(String query) {
        return new Builder(query);
    }

    /** A builder holding this request, to change some of its fields. */
    public Builder toBuilder() {
        Builder b = new Builder(query);
        b.topK = topK;
        b.knowledgeBases = knowledgeBases;
        b.modalities = modalities;
        b.fusion = fusion;
        b.documentIds = documentIds;
        b.category = category;
        b.rrfK = tuning.rrfK();
        b.weights = tuning.weights();
        b.rerank = tuning.rerank();
        b.candidates = tuning.candidates();
        b.documentWeight = tuning.documentWeight();
        b.vectorDocumentWeight = tuning.vectorDocumentWeight();
        return b;
    }

    /** Builds a {@link SearchRequest}; see {@link SearchRequest#builder(String)}. */
    public static final class Builder {
        private String query;
        private int topK = 10;
        private List<String> knowledgeBases = List.of();
        private Set<Modality> modalities = Set.of();
        private FusionMethod fusion;
        private Set<String> documentIds = Set.of();
        private String category;
        private Integer rrfK;
        private Map<Modality, Double> weights = Map.of();
        private Boolean rerank;
        private Integer candidates;
        private Double documentWeight;
        private Double vectorDocumentWeight;

        private Builder(String query) {
            this.query = query;
        }

        public Builder query(String query) {
            this.query = query;
            return this;
        }

        /** How many hits; null keeps the default this builder was given. */
        public Builder topK(Integer topK) {
            if (topK != null) {
                this.topK = topK;
            }
            return this;
        }

        /** Knowledge bases by the caller's names; blanks and repeats are dropped, none means all of the caller's. */
        public Builder knowledgeBases(Collection<String> names) {
            if (names != null) {
                this.knowledgeBases = names.stream().filter(k -> k != null && !k.isBlank())
                        .distinct().toList();
            }
            return this;
        }

        /** The legs to run, by wire name ({@code vector}, {@code fulltext}, …); none means every enabled one. */
        public Builder modalityNames(Collection<String> names) {
            if (names != null) {
                Set<Modality> out = EnumSet.noneOf(Modality.class);
                names.stream().filter(n -> n != null && !n.isBlank()).forEach(n -> out.add(Modality.parse(n)));
                this.modalities = out;
            }
            return this;
        }

        public Builder modalities(Set<Modality> modalities) {
            if (modalities != null) {
                this.modalities = modalities;
            }
            return this;
        }

        /** {@code rrf} or {@code weighted}; null or blank keeps the configured method. */
        public Builder fusion(String name) {
            this.fusion = name == null || name.isBlank() ? fusion : FusionMethod.parse(name);
            return this;
        }

        public Builder fusion(FusionMethod method) {
            this.fusion = method == null ? fusion : method;
            return this;
        }

        /** Only hits of these documents (at most {@value #MAX_DOCUMENT_IDS}); blanks are dropped. */
        public Builder documentIds(Collection<String> ids) {
            if (ids != null) {
                List<String> kept = ids.stream().filter(i -> i != null && !i.isBlank()).toList();
                if (kept.size() > MAX_DOCUMENT_IDS) {
                    throw new InvalidInputException("document_ids names " + kept.size() + " documents: at most "
                            + MAX_DOCUMENT_IDS);
                }
                // No document has a longer id; a conversation keeps each question's scope, ids and all.
                if (kept.stream().anyMatch(i -> i.length() > MAX_DOCUMENT_ID)) {
                    throw new InvalidInputException("document_ids: an id is at most " + MAX_DOCUMENT_ID
                            + " characters (the document_id a search or GET /v1/documents gives)");
                }
                // No id holds one; PostgreSQL refuses a NUL in text, and every leg of such a search failed there.
                if (kept.stream().anyMatch(i -> i.chars().anyMatch(Character::isISOControl))) {
                    throw new InvalidInputException("document_ids: an id holds a control character (the document_id "
                            + "a search or GET /v1/documents gives has none)");
                }
                this.documentIds = Set.copyOf(kept);
            }
            return this;
        }

        /** Only hits of documents with this category (checked as a document's category is). */
        public Builder category(String category) {
            this.category = category == null ? this.category : DocumentMeta.category(category);
            return this;
        }

        /** The k of reciprocal rank fusion for this search, 1-10000. */
        public Builder rrfK(Integer rrfK) {
            this.rrfK = rrfK == null ? this.rrfK : rrfK;
            return this;
        }

        /** Weighted fusion's weights by leg name, each 0-1000; a leg not named keeps its configured weight. */
        public Builder weights(Map<String, Double> byName) {
            if (byName != null) {
                Map<Modality, Double> out = new EnumMap<>(Modality.class);
                byName.forEach((name, w) -> {
                    if (w == null) {
                        throw new InvalidInputException("weights." + name + " must be a number between 0 and 1000");
                    }
                    out.put(Modality.parse(name), w);
                });
                this.weights = out;
            }
            return this;
        }

        /** Each leg's depth for this search, 1-{@value Tuning#MAX_CANDIDATES}; null keeps the configured one. */
        public Builder candidates(Integer candidates) {
            this.candidates = candidates == null ? this.candidates : candidates;
            return this;
        }

        /** The full-text leg's blend of passage and whole document for this search, 0-1; null keeps the configured. */
        public Builder fulltextDocumentWeight(Double weight) {
            this.documentWeight = weight == null ? this.documentWeight : weight;
            return this;
        }

        /** The vector leg's blend of passage and whole document for this search, 0-1; null keeps the configured. */
        public Builder vectorDocumentWeight(Double weight) {
            this.vectorDocumentWeight = weight == null ? this.vectorDocumentWeight : weight;
            return this;
        }

        /** False skips the configured reranker, true asks for it; null keeps the configured behaviour. */
        public Builder rerank(Boolean rerank) {
            this.rerank = rerank == null ? this.rerank : rerank;
            return this;
        }

        /** This search's fusion constants and reranking at once. */
        public Builder tuning(Tuning tuning) {
            if (tuning != null) {
                this.rrfK = tuning.rrfK();
                this.weights = tuning.weights();
                this.rerank = tuning.rerank();
                this.candidates = tuning.candidates();
                this.documentWeight = tuning.documentWeight();
                this.vectorDocumentWeight = tuning.vectorDocumentWeight();
            }
            return this;
        }

        public SearchRequest build() {
            return new SearchRequest(query, topK, knowledgeBases, modalities, fusion, documentIds, category,
                    new Tuning(rrfK, weights, rerank, candidates, documentWeight, vectorDocumentWeight));
        }
    }

    /** This request asking for {@code topK} hits. */
    public SearchRequest withTopK(int topK) {
        return topK == this.topK ? this : new SearchRequest(query, topK, knowledgeBases, modalities, fusion,
                documentIds, category, tuning);
    }

    /** This request over other knowledge bases (their stored names). */
    public SearchRequest over(Collection<String> storedKnowledgeBases) {
        return new SearchRequest(query, topK, List.copyOf(storedKnowledgeBases), modalities, fusion, documentIds,
                category, tuning);
    }

    public SearchScope scope() {
        return new SearchScope(Set.copyOf(knowledgeBases), documentIds, category);
    }
}
