package io.polyrag.parsers;

import io.polyrag.core.InvalidInputException;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.Charset;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.tika.metadata.Metadata;
import org.apache.tika.parser.txt.Icu4jEncodingDetector;

/**
 * Bytes to text: a byte-order mark decides the charset; otherwise strict UTF-8; otherwise the charset Tika's ICU
 * detector finds (Shift_JIS, KOI8-R, ISO-8859-x, …), falling back to windows-1252 (which maps every byte). Refuses
 * binary data: NUL bytes, or too many control characters. A NUL the check does not see (past its first 8 KiB, or in
 * UTF-16 or UTF-32 text) becomes a space.
 */
final class TextDecoder {
    private static final Charset WINDOWS_1252 = Charset.forName("windows-1252");
    private static final Charset UTF_32LE = Charset.forName("UTF-32LE");
    private static final Charset UTF_32BE = Charset.forName("UTF-32BE");

    private TextDecoder() {
    }

    static String decode(byte[] bytes, String name) {
        refuseBinary(bytes, name);
        String text = decodeChecked(bytes);
        // A NUL past the bytes refuseBinary looks at, or one in UTF-16 text: no store wants it (PostgreSQL refuses
        // the whole batch's text over it), and it means nothing in prose.
        return text.indexOf('\u0000') >= 0 ? text.replace('\u0000', ' ') : text;
    }

    private static String decodeChecked(byte[] bytes) {
        if (startsWith(bytes, 0xEF, 0xBB, 0xBF)) {
            return new String(bytes, 3, bytes.length - 3, StandardCharsets.UTF_8);
        }
        // UTF-32's marks first: UTF-32LE's begins with UTF-16LE's.
        if (startsWith(bytes, 0xFF, 0xFE, 0x00, 0x00)) {
            return new String(bytes, 4, bytes.length - 4, UTF_32LE);
        }
        if (startsWith(bytes, 0x00, 0x00, 0xFE, 0xFF)) {
            return new String(bytes, 4, bytes.length - 4, UTF_32BE);
        }
        if (startsWith(bytes, 0xFF, 0xFE)) {
            return new String(bytes, 2, bytes.length - 2, StandardCharsets.UTF_16LE);
        }
        if (startsWith(bytes, 0xFE, 0xFF)) {
            return new String(bytes, 2, bytes.length - 2, StandardCharsets.UTF_16BE);
        }
        try {
            return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes)).toString();
        } catch (CharacterCodingException e) {
            Charset declared = declared(bytes);
            if (declared == null && mostlyUtf8(bytes)) {
                // UTF-8 with a few broken bytes (a character cut by a CMS, a log line truncated): read as UTF-8
                // with those bytes replaced. The detector, given only the first 12 KB and those all ASCII, chose
                // ISO-8859-1 for the whole file, and every accented letter of it became two ("cafÃ©").
                return new String(bytes, StandardCharsets.UTF_8);
            }
            return new String(bytes, declared != null ? declared : detect(bytes));
        }
    }

    /**
     * Whether bytes that are not strictly UTF-8 are UTF-8 all the same: at least two well-formed multi-byte
     * sequences for each byte that fits none. Text in a legacy charset has next to none (an accented letter there
     * is one high byte between ASCII ones, which UTF-8 never is).
     */
    static boolean mostlyUtf8(byte[] b) {
        long valid = 0;
        long invalid = 0;
        for (int i = 0; i < b.length;) {
            int c = b[i] & 0xFF;
            int n = c < 0x80 ? 0 : c >= 0xC2 && c <= 0xDF ? 1 : c >= 0xE0 && c <= 0xEF ? 2 : c >= 0xF0 && c <= 0xF4 ? 3
                    : -1;
            if (n == 0) {
                i++;
                continue;
            }
            int k = 1;
            while (n > 0 && k <= n && i + k < b.length && (b[i + k] & 0xC0) == 0x80) {
                k++;
            }
            if (n > 0 && k == n + 1) {
                valid++;
                i += k;
            } else {
                invalid++;
                i++;
            }
        }
        return valid > 0 && invalid * 2 <= valid;
    }

    private static final Pattern META_CHARSET = Pattern.compile(
            "<meta[^>]{0,200}?charset\\s*=\\s*[\"']?([A-Za-z0-9_.:-]{1,40})", Pattern.CASE_INSENSITIVE);

    /**
     * The charset an HTML page declares in its head ({@code <meta charset="windows-1250">}, or the http-equiv form),
     * looked for in its first 2 KiB as HTML's own sniffing does; null when none is declared or it is unknown here.
     * Short pages gave the statistical detector too little to go on (ř read as ø).
     */
    static Charset declared(byte[] bytes) {
        Matcher m = META_CHARSET.matcher(new String(bytes, 0, Math.min(bytes.length, 2048),
                StandardCharsets.ISO_8859_1));
        if (!m.find()) {
            return null;
        }
        try {
            Charset c = Charset.forName(m.group(1));
            // A page that says UTF-8 but is not: its bytes decide, not its word. Nor does a declared UTF-16 or UTF-32
            // on a page read as ASCII (browsers ignore it too: a meta tag readable in ASCII is not UTF-16).
            if (c.equals(StandardCharsets.UTF_8) || c.name().startsWith("UTF-16") || c.name().startsWith("UTF-32")) {
                return null;
            }
            // As browsers read them (WHATWG Encoding): latin-1 and ASCII labels mean windows-1252, whose 0x80-0x9F
            // hold the smart quotes, dashes and euro sign legacy pages use; read as ISO-8859-1 they were invisible
            // control characters, "It’s" two words and prices without their currency.
            return c.equals(StandardCharsets.ISO_8859_1) || c.equals(StandardCharsets.US_ASCII) ? WINDOWS_1252 : c;
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    private static Charset detect(byte[] bytes) {
        try (var in = new ByteArrayInputStream(bytes)) {
            Charset c = new Icu4jEncodingDetector().detect(in,
                    new Metadata());
            return c == null ? WINDOWS_1252 : c;
        } catch (IOException | RuntimeException | LinkageError e) {
            return WINDOWS_1252;
        }
    }

    /** Binary data posing as text: NUL bytes (outside UTF-16), or over 10% control characters in the first 8 KiB. */
    static void refuseBinary(byte[] bytes, String name) {
        if (startsWith(bytes, 0xFF, 0xFE) || startsWith(bytes, 0xFE, 0xFF) || startsWith(bytes, 0x00, 0x00, 0xFE,
                0xFF)) {
            return;
        }
        int n = Math.min(bytes.length, 8192);
        int control = 0;
        for (int i = 0; i < n; i++) {
            int b = bytes[i] & 0xFF;
            if (b == 0) {
                throw new InvalidInputException(name + ": looks like binary data, not text (it contains NUL bytes)");
            }
            if (b < 0x20 && b != '\n' && b != '\r' && b != '\t' && b != '\f' && b != 0x1B) {
                control++;
            }
        }
        if (n > 0 && control * 10 > n) {
            throw new InvalidInputException(name + ": looks like binary data, not text (" + control
                    + " control characters in its first " + n + " bytes)");
        }
    }

    private static boolean startsWith(byte[] b, int... prefix) {
        if (b.length < prefix.length) {
            return false;
        }
        for (int i = 0; i < prefix.length; i++) {
            if ((b[i] & 0xFF) != prefix[i]) {
                return false;
            }
        }
        return true;
    }
}
