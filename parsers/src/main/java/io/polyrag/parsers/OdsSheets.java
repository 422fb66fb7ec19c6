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
     * them). Read with a StAX parser that refuses DTDs and external entities, at most {@code maxBytes} of it (the zip
     * stream inflates past the sizes the central directory declares, which is all the zip guard checked); anything
     * unreadable gives none.
     */
    static List<String> names(SourceItem item, long maxBytes) {
        try (var zip = new ZipInputStream(new ByteArrayInputStream(item.content()))) {
            for (var e = zip.getNextEntry(); e != null; e = zip.getNextEntry()) {
                if (!e.getName().equals("content.xml")) {
                    continue;
                }
                XMLInputFactory f = XMLInputFactory.newFactory();
                f.setProperty(XMLInputFactory.SUPPORT_DTD, false);
                f.setProperty(XMLInputFactory.IS_SUPPORTING_EXTERNAL_ENTITIES, false);
                long[] read = {0};
                var r = f.createXMLStreamReader(new FilterInputStream(zip) {
                    @Override
                    public int read() throws IOException {
                        int b = super.read();
                        count(b < 0 ? 0 : 1);
                        return b;
                    }

                    @Override
                    public int read(byte[] buf, int off, int len) throws IOException {
                        int n = super.read(buf, off, len);
                        count(Math.max(0, n));
                        return n;
                    }

                    private void count(int n) throws IOException {
                        read[0] += n;
                        if (read[0] > maxBytes) {
                            throw new IOException("content.xml inflates past " + maxBytes + " bytes");
                        }
                    }

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
