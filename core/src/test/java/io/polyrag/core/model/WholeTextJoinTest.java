package io.polyrag.core.model;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** A document's whole text holds its title and headings once, its chunks' contexts (contextual retrieval) or not. */
class WholeTextJoinTest {
    @Test
    void the_title_and_headings_are_written_once_whatever_comes_before_them() {
        String plain = WholeText.join(List.of(Chunk.indexText("Tide tables", List.of("Spring"), "High water at six."),
                Chunk.indexText("Tide tables", List.of("Spring"), "Low water at noon.")));
        String situated = WholeText.join(List.of(
                "The tables' spring section, on high water.\n\n" + Chunk.indexText("Tide tables", List.of("Spring"),
                        "High water at six."),
                "The tables' spring section, on low water.\n\n" + Chunk.indexText("Tide tables", List.of("Spring"),
                        "Low water at noon.")));
        for (String whole : List.of(plain, situated)) {
            assertThat(whole.split("Tide tables", -1)).as(whole).hasSize(2);
            assertThat(whole.split("Spring", -1)).as(whole).hasSize(2);
            assertThat(whole).contains("High water at six.").contains("Low water at noon.");
        }
        assertThat(situated).contains("on high water").contains("on low water");
    }
}
