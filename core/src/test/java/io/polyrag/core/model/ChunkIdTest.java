package io.polyrag.core.model;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** A chunk id names its document: a merged near-duplicate is listed by chunk id alone. */
class ChunkIdTest {
    @Test
    void the_document_is_read_back_from_a_chunk_or_figure_id() {
        String doc = Ids.documentId("kb", "file:a.txt");
        assertThat(Chunk.documentIdOf(Chunk.idOf(doc, 3, 12))).isEqualTo(doc);
        assertThat(Chunk.documentIdOf("figure-" + doc + "-v3-2")).isEqualTo(doc);
        assertThat(Chunk.documentIdOf("plain")).isNull();
        assertThat(Chunk.documentIdOf("-v1-0")).isNull();
        assertThat(Chunk.documentIdOf(null)).isNull();
    }
}
