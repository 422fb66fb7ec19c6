package io.polyrag.store.rdf;

import io.polyrag.core.ConfigException;
import io.polyrag.core.model.Entity;
import io.polyrag.core.model.Relation;
import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Map;
import java.util.TreeMap;

/**
 * How polyrag's graph is written as RDF, shared by every RDF adapter.
 *
 * <ul>
 *   <li>An entity is {@code <urn:polyrag:entity:KEY>} with {@code rdfs:label} (its display name), {@code pr:key},
 *       {@code pr:type} and one {@code pr:alias} per alias.</li>
 *   <li>A chunk is {@code <urn:polyrag:chunk:ID>} with {@code pr:chunkId}, {@code pr:document}, {@code pr:version},
 *       {@code pr:kb} and {@code pr:mentions} to each entity it names.</li>
 *   <li>A relation is a reified {@code rdf:Statement} {@code <urn:polyrag:statement:HASH>} with {@code rdf:subject},
 *       {@code rdf:predicate} ({@code <urn:polyrag:relation:NAME>}), {@code rdf:object}, and on the statement its
 *       chunk, document, version, the names and types as written, and each property as
 *       {@code <urn:polyrag:property:KEY> "value"}.</li>
 * </ul>
 * Everything lives in one named graph. IRIs are built from percent-encoded text and every literal is escaped here, so
 * no user text reaches a query unescaped.
 */
final class RdfEncoding {
    static final String NS = "urn:polyrag:vocab:";
    static final String ENTITY = "urn:polyrag:entity:";
    static final String PROPERTY = "urn:polyrag:property:";
    static final String PREFIXES = "PREFIX rdf: <http://www.w3.org/1999/02/22-rdf-syntax-ns#>\n"
            + "PREFIX rdfs: <http://www.w3.org/2000/01/rdf-schema#>\n"
            + "PREFIX pr: <" + NS + ">\n";

    private RdfEncoding() {
    }

    static String entity(String key) {
        return iri(entityIri(key));
    }

    static String entityIri(String key) {
        return ENTITY + encode(key);
    }

    static String chunk(String chunkId) {
        return iri(chunkIri(chunkId));
    }

    static String chunkIri(String chunkId) {
        return "urn:polyrag:chunk:" + encode(chunkId);
    }

    static String relationIri(String predicate) {
        return "urn:polyrag:relation:" + encode(predicate);
    }

    static String propertyIri(String key) {
        return PROPERTY + encode(key);
    }

    /** A statement's IRI: a hash of what makes it one statement, so writing it twice is a no-op. */
    static String statementIri(Relation r) {
        String identity = r.chunkId() + "\u0000" + Entity.storedKey(r.subject()) + "\u0000" + r.predicate() + "\u0000"
                + Entity.storedKey(r.object());
        try {
            byte[] hash = MessageDigest.getInstance("SHA-256")
                    .digest(identity.getBytes(StandardCharsets.UTF_8));
            return "urn:polyrag:statement:" + HexFormat.of().formatHex(hash, 0, 16);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every JDK", e);
        }
    }

    static String graph(String graphIri) {
        return iri(graphIri);
    }

    /**
     * The configured graph's IRI, stripped (a value from a file ends in a newline) and checked: one holding a space
     * or {@code <>"{}|^`\\} made every query unparseable, in messages that did not name the setting.
     */
    static String configuredGraph(String configured) {
        String iri = configured == null ? "" : configured.strip();
        if (!iri.matches("[A-Za-z][A-Za-z0-9+.-]*:[^\\s<>\"{}|^`\\\\]+")) {
            throw new ConfigException("POLYRAG_RDF_GRAPH: '" + iri + "' is not an absolute IRI (a scheme, a colon, no "
                    + "spaces or <>\"{}|^`\\\\): e.g. urn:polyrag:graph or https://example.org/graph");
        }
        return iri;
    }

    private static String iri(String s) {
        return "<" + s + ">";
    }

    /** Percent-encoding keeps IRIs to unreserved characters and {@code %XX}: nothing can close the {@code <…>}. */
    static String encode(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8).replace("+", "%20").replace("*", "%2A");
    }

    /** A SPARQL string literal: quotes, backslashes and every control character escaped. */
    static String literal(String s) {
        StringBuilder b = new StringBuilder(s.length() + 2).append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> b.append("\\\"");
                case '\\' -> b.append("\\\\");
                case '\n' -> b.append("\\n");
                case '\r' -> b.append("\\r");
                case '\t' -> b.append("\\t");
                default -> {
                    if (c < 0x20 || c == 0x7f) {
                        b.append("\\u").append(String.format("%04X", (int) c));
                    } else {
                        b.append(c);
                    }
                }
            }
        }
        return b.append('"').toString();
    }

    static String integer(long n) {
        return Long.toString(n);
    }

    /** The properties of a statement from its {@code <urn:polyrag:property:…>} values. */
    static Map<String, String> decodeProperty(Map<String, String> into, String predicateIri, String value) {
        if (predicateIri.startsWith(PROPERTY)) {
            into.put(URLDecoder.decode(predicateIri.substring(PROPERTY.length()), StandardCharsets.UTF_8),
                    value);
        }
        return into;
    }

    static Map<String, String> newProperties() {
        return new TreeMap<>();
    }
}
