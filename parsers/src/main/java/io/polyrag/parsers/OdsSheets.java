package io.polyrag.parsers;

import io.polyrag.core.model.SourceItem;
import java.io.ByteArrayInputStream;
import java.io.FilterInputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.ZipInputStream;
import javax.xml.stream.XMLInputFactory;
import javax.xml.stream.XMLStreamConstants;
import javax.xml.stream.XMLStreamException;

/** What an OpenDocument spreadsheet's XHTML from Tika leaves out: its sheets' names. */
final class OdsSheets {
    private OdsSheets() {
    }

    /**
     * The sheet names of an OpenDocument spreadsheet, in order, from its content.xml (Tika's XHTML does not carry
     * them). Read with a StAX parser that refuses DTDs and external entities; anything unreadable gives none.
     */
    static List<String> names(SourceItem item) {
        try (var zip = new ZipInputStream(new ByteArrayInputStream(item.content()))) {
            for (var e = zip.getNextEntry(); e != null; e = zip.getNextEntry()) {
                if (!e.getName().equals("content.xml")) {
                    continue;
                }
                XMLInputFactory f = XMLInputFactory.newFactory();
                f.setProperty(XMLInputFactory.SUPPORT_DTD, false);
                f.setProperty(XMLInputFactory.IS_SUPPORTING_EXTERNAL_ENTITIES, false);
                var r = f.createXMLStreamReader(new FilterInputStream(zip) {
                    @Override
                    public void close() {
                        // the zip stream is closed by its owner
                    }
                });
                List<String> names = new ArrayList<>();
                int depth = 0;
                while (r.hasNext() && names.size() < 10_000) {
                    int ev = r.next();
                    if (ev == XMLStreamConstants.START_ELEMENT && r.getLocalName().equals("table")) {
                        if (depth++ == 0) {
                            String name = r.getAttributeValue("urn:oasis:names:tc:opendocument:xmlns:table:1.0",
                                    "name");
                            names.add(name == null ? "" : name);
                        }
                    } else if (ev == XMLStreamConstants.END_ELEMENT
                            && r.getLocalName().equals("table")) {
                        depth--;
                    }
                }
                return names;
            }
        } catch (IOException | XMLStreamException | RuntimeException e) {
            return List.of();
        }
        return List.of();
    }
}
