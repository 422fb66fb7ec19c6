package io.polyrag.parsers;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.xml.sax.SAXException;
import org.xml.sax.helpers.AttributesImpl;

/** A parse whose time ran out stops at its next piece of output instead of running on, holding its permit. */
class TikaXhtmlHandlerTest {
    @Test
    void an_interrupted_parse_stops_at_its_next_element_or_text() throws Exception {
        TikaXhtmlHandler handler = new TikaXhtmlHandler(new DocumentBuilder(), TikaXhtmlHandler.Layout.PAGES, 1_000);
        handler.startElement("", "p", "p", new AttributesImpl());
        handler.characters("A page of text.".toCharArray(), 0, 15);
        Thread.currentThread().interrupt();
        try {
            assertThatThrownBy(() -> handler.characters("More.".toCharArray(), 0, 5)).isInstanceOf(SAXException.class)
                    .hasMessageContaining("time limit");
            assertThatThrownBy(() -> handler.startElement("", "p", "p", new AttributesImpl()))
                    .isInstanceOf(SAXException.class);
        } finally {
            Thread.interrupted();
        }
    }
}
