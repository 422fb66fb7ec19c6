package io.polyrag.parsers;

import static org.assertj.core.api.Assertions.assertThat;

import io.polyrag.core.model.SourceItem;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import org.junit.jupiter.api.Test;

/** A spreadsheet's sheet names are read from its content.xml, never more of it than the expansion limit. */
class OdsSheetsTest {
    private static byte[] ods(String contentXml) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (ZipOutputStream zip = new ZipOutputStream(out)) {
            zip.putNextEntry(new ZipEntry("content.xml"));
            zip.write(contentXml.getBytes(StandardCharsets.UTF_8));
            zip.closeEntry();
        }
        return out.toByteArray();
    }

    @Test
    void names_are_read_and_a_content_xml_past_the_limit_is_given_up() throws IOException {
        String ns = "xmlns:table=\"urn:oasis:names:tc:opendocument:xmlns:table:1.0\"";
        byte[] small = ods("<doc " + ns + "><table:table table:name=\"Tides\"/><table:table table:name=\"Moon\"/></doc>");
        assertThat(OdsSheets.names(new SourceItem("u", "a.ods", small, null), 1 << 20)).containsExactly("Tides",
                "Moon");
        // Deflated to a few kilobytes, it inflates to 8 MB: read no further than the limit.
        byte[] bomb = ods("<doc " + ns + ">" + "<a/>".repeat(2_000_000) + "<table:table table:name=\"Late\"/></doc>");
        assertThat(bomb.length).isLessThan(100_000);
        long start = System.nanoTime();
        assertThat(OdsSheets.names(new SourceItem("u", "b.ods", bomb, null), 1 << 20)).isEmpty();
        assertThat(System.nanoTime() - start).isLessThan(5_000_000_000L);
    }
}
