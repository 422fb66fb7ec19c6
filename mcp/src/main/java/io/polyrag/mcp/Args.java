package io.polyrag.mcp;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;

/**
 * A tool call's arguments, read tolerantly because clients differ in what they can send: a list may come as a list,
 * a JSON array in a string, a comma-separated string or one bare value; an object as an object or a JSON string;
 * numbers and booleans as themselves or as strings. What cannot be read fails with {@link Bad}, naming the argument
 * and the fix, before any request is made.
 */
final class Args {
    static final ObjectMapper JSON = JsonMapper.builder().build();
    private final Map<String, Object> values;

    Args(Map<String, Object> values) {
        this.values = values == null ? Map.of() : values;
    }

    /** An argument that cannot be used, and how to send it. */
    static final class Bad extends Exception {
        private static final long serialVersionUID = 1L;
        private final String field;

        Bad(String field, String message) {
            super(message);
            this.field = field;
        }

        String field() {
            return field;
        }
    }

    /** A string, stripped; null when absent or blank, unless required. */
    String string(String name, boolean required, int maxLength) throws Bad {
        Object v = values.get(name);
        if (v instanceof Map<?, ?> || v instanceof List<?>) {
            throw new Bad(name, "'" + name + "' must be a string, got " + (v instanceof Map ? "an object" : "a list"));
        }
        String s = v == null ? null : v.toString().strip();
        if (s == null || s.isEmpty()) {
            if (required) {
                throw new Bad(name, "'" + name + "' is required");
            }
            return null;
        }
        if (s.length() > maxLength) {
            throw new Bad(name, "'" + name + "' is " + s.length() + " characters; at most " + maxLength);
        }
        return s;
    }

    /** An integer in [min, max], or the default when absent. */
    Integer integer(String name, Integer fallback, int min, int max) throws Bad {
        Object v = values.get(name);
        if (v == null || (v instanceof String s && s.isBlank())) {
            return fallback;
        }
        long n;
        if (v instanceof Number num && num.doubleValue() == Math.rint(num.doubleValue())) {
            // Compared as it was written first: a number past a long's range (read as a BigInteger) kept only its
            // low 64 bits, 2^64 + 8 searching with 8.
            if (num.doubleValue() < min || num.doubleValue() > max) {
                throw new Bad(name, "'" + name + "' must be between " + min + " and " + max + ", got "
                        + clip(num.toString()));
            }
            n = num.longValue();
        } else {
            try {
                n = Long.parseLong(v.toString().strip());
            } catch (NumberFormatException e) {
                throw new Bad(name, "'" + name + "' must be a whole number, got '" + clip(v.toString()) + "'");
            }
        }
        if (n < min || n > max) {
            throw new Bad(name, "'" + name + "' must be between " + min + " and " + max + ", got " + n);
        }
        return (int) n;
    }

    /** A boolean ({@code true}/{@code false}, also as strings), or the default when absent. */
    boolean bool(String name, boolean fallback) throws Bad {
        Object v = values.get(name);
        if (v == null || (v instanceof String s && s.isBlank())) {
            return fallback;
        }
        if (v instanceof Boolean b) {
            return b;
        }
        return switch (v.toString().strip().toLowerCase(Locale.ROOT)) {
            case "true", "yes", "1" -> true;
            case "false", "no", "0" -> false;
            default -> throw new Bad(name, "'" + name + "' must be true or false, got '" + clip(v.toString()) + "'");
        };
    }

    /** The argument as sent; null when absent. */
    Object raw(String name) {
        return values.get(name);
    }

    /**
     * A list of strings: a list, a JSON array in a string, a comma-separated string, or one bare value; empty when
     * absent.
     */
    List<String> list(String name, int maxItems) throws Bad {
        Object v = values.get(name);
        List<String> out = new ArrayList<>();
        if (v == null) {
            return out;
        }
        if (v instanceof List<?> l) {
            for (Object o : l) {
                if (o instanceof Map<?, ?> || o instanceof List<?>) {
                    throw new Bad(name, "'" + name + "' must be a list of strings");
                }
                if (o != null && !o.toString().isBlank()) {
                    out.add(o.toString().strip());
                }
            }
        } else if (v instanceof Map<?, ?>) {
            throw new Bad(name, "'" + name + "' must be a list of strings, got an object");
        } else {
            String s = v.toString().strip();
            if (s.startsWith("[")) {
                JsonNode n = parse(name, s);
                if (!n.isArray()) {
                    throw new Bad(name, "'" + name + "' must be a JSON array of strings");
                }
                for (JsonNode e : n) {
                    if (!e.isString()) {
                        throw new Bad(name, "'" + name + "' must be a JSON array of strings");
                    }
                    if (!e.asString().isBlank()) {
                        out.add(e.asString().strip());
                    }
                }
            } else {
                for (String part : s.split(",")) {
                    if (!part.isBlank()) {
                        out.add(part.strip());
                    }
                }
            }
        }
        if (out.size() > maxItems) {
            throw new Bad(name, "'" + name + "' has " + out.size() + " entries; at most " + maxItems);
        }
        return out;
    }

    /** An object: an object, or a JSON object in a string; empty when absent. */
    Map<String, Object> object(String name) throws Bad {
        Object v = values.get(name);
        if (v == null || (v instanceof String s && s.isBlank())) {
            return new LinkedHashMap<>();
        }
        if (v instanceof Map<?, ?> m) {
            Map<String, Object> out = new LinkedHashMap<>();
            m.forEach((k, val) -> out.put(String.valueOf(k), val));
            return out;
        }
        if (v instanceof String s) {
            JsonNode n = parse(name, s.strip());
            if (!n.isObject()) {
                throw new Bad(name, "'" + name + "' must be a JSON object, e.g. {\"fusion\": \"rrf\"}");
            }
            @SuppressWarnings("unchecked")
            Map<String, Object> out = JSON.convertValue(n, LinkedHashMap.class);
            return out;
        }
        throw new Bad(name, "'" + name + "' must be an object or a JSON object in a string");
    }

    /** Names the caller sent that the tool does not know, so a typo is an error rather than silently ignored. */
    void onlyKnown(Set<String> known) throws Bad {
        for (String k : values.keySet()) {
            if (!known.contains(k)) {
                throw new Bad(k, "unknown argument '" + clip(k) + "'; this tool takes " + String.join(", ",
                        new TreeSet<>(known)));
            }
        }
    }

    private static JsonNode parse(String name, String s) throws Bad {
        try {
            return JSON.readTree(s);
        } catch (JacksonException e) {
            throw new Bad(name, "'" + name + "' is not valid JSON: " + e.getOriginalMessage());
        }
    }

    private static String clip(String s) {
        return s.length() <= 40 ? s : s.substring(0, 40) + "…";
    }
}
