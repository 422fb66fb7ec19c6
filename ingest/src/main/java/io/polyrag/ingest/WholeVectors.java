package io.polyrag.ingest;

import io.polyrag.core.model.WholeText;
import io.polyrag.core.port.Embedder;
import java.util.ArrayList;
import java.util.List;

/**
 * Which documents are embedded whole too, beside their passages, and from what text: a document cut into at least
 * {@value #MIN_PASSAGES} passages whose whole text fits the model's window. Such a document's passages are small next
 * to it, and each is embedded without the rest; its whole vector says how well the document as a whole answers (the
 * vector leg blends the two, {@code vector.document.weight}). A document of one or two passages gets none: each of its
 * passages already holds half of it or more, and on SciFact's train claims (one or two passages of at most 300 tokens
 * per abstract) whole vectors changed nothing while costing an embedding of every two-passage document. Nor does a
 * document longer than the window: its vector would be its beginning's.
 */
final class WholeVectors {
    /** Passages a document must have been cut into to be embedded whole too. */
    static final int MIN_PASSAGES = 3;
    /**
     * The special tokens a model adds around a text, inside its window. A model with a passage prefix ("passage: ")
     * adds a few more, and a text that just fits loses as many of its last tokens: a whole vector nearly whole.
     */
    static final int SPECIAL_TOKENS = 2;
    /** Characters a token rarely stands for more than: longer texts are not counted, they do not fit. */
    private static final int MAX_CHARS_PER_TOKEN = 16;

    private WholeVectors() {
    }

    /**
     * The text to embed a document whole from, given its passages' index texts in order ({@link WholeText#join}: the
     * title and headings they repeat kept once), or null when it is not embedded whole.
     */
    static String text(List<String> passages, Embedder embedder) {
        if (passages.size() < MIN_PASSAGES) {
            return null;
        }
        String whole = WholeText.join(passages);
        int window = embedder.maxTokens() - SPECIAL_TOKENS;
        if (whole.length() > (long) MAX_CHARS_PER_TOKEN * window) {
            return null;
        }
        return embedder.tokenCounter().count(whole) <= window ? whole : null;
    }

    /**
     * A version's passages' index texts and, when it has enough of them to have been embedded whole, its whole text:
     * every text its vectors may have been embedded from (for the embedding cache to forget).
     */
    static List<String> withWhole(List<String> passages) {
        if (passages.size() < MIN_PASSAGES) {
            return passages;
        }
        List<String> out = new ArrayList<>(passages);
        out.add(WholeText.join(passages));
        return out;
    }
}
