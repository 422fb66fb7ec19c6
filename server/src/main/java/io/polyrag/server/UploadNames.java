package io.polyrag.server;

import java.text.Normalizer;

/** Client-supplied file names made safe: no directories, no control characters, bounded length. */
final class UploadNames {
    private static final int MAX = 200;

    private UploadNames() {
    }

    static String sanitise(String name) {
        // Composed (NFC): a Mac sends "é" as e and a combining accent, Windows as one letter, and the document's id
        // is made from its name: the same file uploaded from each was two documents.
        String n = name == null ? "" : Normalizer.normalize(name, Normalizer.Form.NFC);
        n = n.substring(Math.max(n.lastIndexOf('/'), n.lastIndexOf('\\')) + 1);
        n = n.codePoints().filter(c -> !Character.isISOControl(c))
                .collect(StringBuilder::new, StringBuilder::appendCodePoint, StringBuilder::append).toString().strip();
        while (n.startsWith(".")) {
            n = n.substring(1);
        }
        if (n.length() > MAX) {
            int dot = n.lastIndexOf('.');
            String ext = dot > 0 && n.length() - dot <= 16 ? n.substring(dot) : "";
            int cut = MAX - ext.length();
            // Not between the two halves of a character outside the BMP (an emoji): a lone half is stored as '?' by
            // PostgreSQL, and the name read back no longer matched the one the upload was checked under.
            if (Character.isLowSurrogate(n.charAt(cut)) && Character.isHighSurrogate(n.charAt(cut - 1))) {
                cut--;
            }
            n = n.substring(0, cut) + ext;
        }
        return n.isEmpty() ? "upload" : n;
    }
}
