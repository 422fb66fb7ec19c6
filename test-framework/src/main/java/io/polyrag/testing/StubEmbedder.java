package io.polyrag.testing;

import io.polyrag.core.port.Embedder;
import io.polyrag.core.port.TokenCounter;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.function.Function;

/**
 * A model for tests: a text's vector is what {@code vector} says of it (a query's and a passage's alike), tokens are
 * words; every text it was asked to embed is recorded, queries and passages apart.
 */
public final class StubEmbedder implements Embedder {
    private final int dimension;
    private final Function<String, float[]> vector;
    public final List<String> queries = Collections.synchronizedList(new ArrayList<>());
    public final List<String> passages = Collections.synchronizedList(new ArrayList<>());

    public StubEmbedder(int dimension, Function<String, float[]> vector) {
        this.dimension = dimension;
        this.vector = vector;
    }

    @Override
    public String modelId() {
        return "stub";
    }

    @Override
    public int dimension() {
        return dimension;
    }

    @Override
    public int maxTokens() {
        return 512;
    }

    @Override
    public TokenCounter tokenCounter() {
        return t -> t.isBlank() ? 0 : t.strip().split("\\s+").length;
    }

    @Override
    public float[] embedQuery(String query) {
        queries.add(query);
        return vector.apply(query);
    }

    @Override
    public List<float[]> embedPassages(List<String> texts) {
        passages.addAll(texts);
        return texts.stream().map(vector).toList();
    }

    @Override
    public void close() {
    }
}
