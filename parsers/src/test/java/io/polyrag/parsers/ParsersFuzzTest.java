package io.polyrag.parsers;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.polyrag.core.InvalidInputException;
import io.polyrag.core.model.FigureMode;
import io.polyrag.core.model.SourceItem;
import io.polyrag.core.port.Parser;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Every format's entry point under Jazzer. An input is a file name, a newline and the file's bytes, so one corpus
 * reaches every parser by name (PDF, Office, OpenDocument, EPUB, RTF, e-mail, archives, Markdown, HTML, CSV, code…).
 * The property: a file parses or is refused with {@link InvalidInputException} naming it — never another exception,
 * a hang or an out-of-memory error. In the suite the committed corpus ({@code ParsersFuzzTestInputs/}) runs as
 * regression tests; {@code bench/fuzz} fuzzes for minutes per target (docs/fuzzing.md).
 */
class ParsersFuzzTest {
    private static final DocumentsParser PARSER = new DocumentsParser(8L << 20, 20_000);

    @FuzzTest(maxDuration = "5m")
    void everyFormat(byte[] input) {
        SourceItem item = item(input);
        try {
            PARSER.parse(item);
        } catch (InvalidInputException refused) {
            // the contract's answer to a malformed file
        }
    }

    /** Figures from PDF, PowerPoint and Word files: whatever the bytes, a result (with warnings), never a throw. */
    @FuzzTest(maxDuration = "5m")
    void figures(byte[] input) {
        SourceItem item = item(input);
        String type = item.name().endsWith(".pptx") ? PPTX : item.name().endsWith(".docx") ? DOCX : "application/pdf";
        PARSER.figures(item, type, new Parser.FigureLimits(FigureMode.AUTO, 8, 4L << 20, 5_000));
    }

    private static final String PPTX = "application/vnd.openxmlformats-officedocument.presentationml.presentation";
    private static final String DOCX = "application/vnd.openxmlformats-officedocument.wordprocessingml.document";

    /** {@code name\nbytes}; no newline within the first 64 bytes: a text file of all of it. */
    static SourceItem item(byte[] input) {
        int nl = -1;
        for (int i = 0; i < Math.min(64, input.length); i++) {
            if (input[i] == '\n') {
                nl = i;
                break;
            }
        }
        String name = nl <= 0 ? "input.txt" : new String(input, 0, nl, StandardCharsets.UTF_8).strip();
        if (name.isEmpty() || name.indexOf('/') >= 0) {
            name = "input.txt";
        }
        byte[] content = nl < 0 ? input : Arrays.copyOfRange(input, nl + 1, input.length);
        return new SourceItem("file:///" + name, name, content, null);
    }
}
