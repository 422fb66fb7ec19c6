package io.polyrag.parsers;

import static org.assertj.core.api.Assertions.assertThat;

import io.polyrag.core.model.SourceItem;
import java.io.IOException;
import org.junit.jupiter.api.Test;

/** A parser's failure said as what it is. */
class ParseFailuresTest {
    @Test
    void a_zip_bomb_poi_catches_is_called_one_not_a_corrupt_file() {
        SourceItem item = new SourceItem("file:///a.docx", "a.docx", new byte[0], null);
        String type = "application/vnd.openxmlformats-officedocument.wordprocessingml.document";
        RuntimeException poi = new RuntimeException(new IOException("Zip bomb detected! The file would exceed the "
                + "max. ratio of compressed file size to the size of the expanded data."));
        assertThat(ParseFailures.failure(item, type, poi).getMessage()).contains("a zip bomb")
                .doesNotContain("corrupt");
        assertThat(ParseFailures.failure(item, type, new IOException("Unexpected end of ZLIB input stream"))
                .getMessage()).contains("corrupt or truncated");
    }
}
