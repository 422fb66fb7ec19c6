package io.polyrag.core.model;

import io.polyrag.core.InvalidInputException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.regex.Pattern;

/** Identities: document ids, content hashes and knowledge-base names. */
public final class Ids {
    /** The knowledge base used when a request names none. */
    public static final String DEFAULT_KNOWLEDGE_BASE = "default";

    private static final Pattern KB_NAME = Pattern.compile("[a-z0-9][a-z0-9._-]{0,63}");

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

    /** Checks a knowledge-base name; null or blank means the default one. */
    public static String knowledgeBase(String name) {
        if (name == null || name.isBlank()) {
            return DEFAULT_KNOWLEDGE_BASE;
        }
        if (!KB_NAME.matcher(name).matches()) {
            throw new InvalidInputException("knowledge base name '" + abbreviate(name, 80)
                    + "' is invalid: use 1-64 characters of a-z, 0-9, '.', '_' or '-', starting with a letter or digit");
        }
        return name;
    }

    /** Shortens text for messages, marking the cut. */
    public static String abbreviate(String s, int max) {
        return s.length() <= max ? s : s.substring(0, max) + "…";
    }
}
