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

    /** Shortens text for messages, marking the cut. */
    public static String abbreviate(String s, int max) {
        return s.length() <= max ? s : s.substring(0, max) + "…";
    }
}
