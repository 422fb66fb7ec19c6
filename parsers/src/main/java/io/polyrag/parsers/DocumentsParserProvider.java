package io.polyrag.parsers;

import io.polyrag.core.config.Settings;
import io.polyrag.core.port.Parser;
import io.polyrag.core.spi.ParserProvider;
import io.polyrag.core.spi.ProviderContext;

/** {@code ingest.parser=tika}: every common document format through Apache Tika, plus text, Markdown, HTML, code. */
public final class DocumentsParserProvider implements ParserProvider {
    @Override
    public String name() {
        return "tika";
    }

    @Override
    public String description() {
        return "PDF, Office, OpenDocument, RTF, EPUB, CSV (Apache Tika), Markdown, HTML, text, source code";
    }

    @Override
    public Parser open(ProviderContext context) {
        return new DocumentsParser(context.config().get(Settings.INGEST_MAX_TEXT_MB) * 1024L * 1024L,
                context.config().get(Settings.INGEST_PARSE_TIMEOUT_SECONDS) * 1000L,
                context.config().get(Settings.INGEST_MAX_EXPANDED_MB) * 1024L * 1024L);
    }
}
