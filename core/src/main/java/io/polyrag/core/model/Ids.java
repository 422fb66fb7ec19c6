package io.polyrag.core.model;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/** Identities: document ids and content hashes. */
public final class Ids {
    private Ids() {
    }

    /** A document's id: stable for its (knowledge base, uri), so re-ingesting a uri replaces the same document. */
    public static String documentId(String knowledgeBase, String uri) {
        return sha256Hex((knowledgeBase + "\n" + uri).getBytes(StandardCharsets.UTF_8)).substring(0, 20);
    }

    public static String sha256Hex(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("the JDK lacks SHA-256", e);
        }
    }

    /** Shortens text for messages, marking the cut (never inside a surrogate pair: a lone half shows as "�"). */
    public static String abbreviate(String s, int max) {
        if (s.length() <= max) {
            return s;
        }
        int cut = max > 0 && Character.isHighSurrogate(s.charAt(max - 1)) ? max - 1 : max;
        return s.substring(0, cut) + "…";
    }

    /** {@code s} in at most {@code max} characters, cut with "…" where longer, never inside a surrogate pair. */
    public static String clip(String s, int max) {
        if (s == null || s.length() <= max) {
            return s;
        }
        int cut = max - 1;
        if (cut > 0 && Character.isHighSurrogate(s.charAt(cut - 1))) {
            cut--;
        }
        return s.substring(0, cut).stripTrailing() + "…";
    }
}
