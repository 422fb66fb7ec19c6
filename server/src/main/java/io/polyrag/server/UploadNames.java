package io.polyrag.server;

import java.text.Normalizer;
import java.util.ArrayList;
import java.util.List;

/**
 * Client-supplied file names made safe: no control characters, no hidden or parent segments, bounded length. A
 * relative path ({@code 2023/summary.md}, as the MCP adapter and a browser's folder upload send) keeps its folders:
 * the document's identity is made from the name, and two folders' {@code summary.md} were one document, the second
 * upload replacing the first. An absolute path, or one that climbs ({@code ..}), keeps its file name only.
 */
final class UploadNames {
    private static final int MAX = 200;

    private UploadNames() {
    }

    static String sanitise(String name) {
        // Composed (NFC): a Mac sends "é" as e and a combining accent, Windows as one letter, and the document's id
        // is made from its name: the same file uploaded from each was two documents.
        String n = name == null ? "" : Normalizer.normalize(name, Normalizer.Form.NFC).replace('\\', '/');
        boolean absolute = n.startsWith("/") || n.matches("(?s)[A-Za-z]:.*");
        List<String> segments = new ArrayList<>();
        boolean climbs = false;
        for (String part : n.split("/")) {
            String s = clean(part);
            climbs |= part.strip().equals("..");
            if (!s.isEmpty()) {
                segments.add(s);
            }
        }
        if (segments.isEmpty()) {
            return "upload";
        }
        if (absolute || climbs) {
            segments = segments.subList(segments.size() - 1, segments.size());
        }
        String file = cut(segments.getLast());
        // The folders nearest the file kept while they fit.
        StringBuilder path = new StringBuilder(file);
        for (int i = segments.size() - 2; i >= 0 && path.length() + segments.get(i).length() + 1 <= MAX; i--) {
            path.insert(0, segments.get(i) + "/");
        }
        return path.toString();
    }

    /** One segment: no control characters, no leading dots (a hidden name), trimmed. */
    private static String clean(String segment) {
        String s = segment.codePoints().filter(c -> !Character.isISOControl(c))
                .collect(StringBuilder::new, StringBuilder::appendCodePoint, StringBuilder::append).toString().strip();
        while (s.startsWith(".")) {
            s = s.substring(1);
        }
        return s.strip();
    }

    private static String cut(String n) {
        if (n.length() <= MAX) {
            return n;
        }
        int dot = n.lastIndexOf('.');
        String ext = dot > 0 && n.length() - dot <= 16 ? n.substring(dot) : "";
        int cut = MAX - ext.length();
        // Not between the two halves of a character outside the BMP (an emoji): a lone half is stored as '?' by
        // PostgreSQL, and the name read back no longer matched the one the upload was checked under.
        if (Character.isLowSurrogate(n.charAt(cut)) && Character.isHighSurrogate(n.charAt(cut - 1))) {
            cut--;
        }
        return n.substring(0, cut) + ext;
    }
}
